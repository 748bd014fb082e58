"""Puzzles with known answers: sudoku of any box shape, killer sudoku, nonograms.

Every generator takes a random.Random, so a seed gives the same puzzle again.
"""

from __future__ import annotations

import random

from gridsight.synth.grids import random_solution
from services.contracts import Cage, KillerPuzzle, NonogramPuzzle
from services.solver.cages import connected
from services.solver.grid import default_box, geometry
from services.solver.propagate import bit, initial_candidates, propagate, search, solved
from services.solver.sudoku import solve_grid

Grid = list[list[int]]


def make_sudoku(rng: random.Random, size: int = 9, box: tuple[int, int] | None = None,
                unique: bool = True, target_clues: int | None = None) -> tuple[Grid, Grid]:
    """(givens, solution): holes dug in random order while the answer stays unique.

    Grids up to 9x9 keep a hole when a full search still finds one solution. Larger grids
    keep a hole only while naked and hidden singles alone still solve the grid (unique by
    construction, and quick to check). With unique=False holes are dug at random down to
    target_clues (default: half the cells).
    """
    box = box or default_box(size)
    geo = geometry(size, box)
    solution = random_solution(size, box, rng)
    givens = [row.copy() for row in solution]
    floor = target_clues if target_clues is not None else (0 if unique else size * size // 2)
    clues = size * size
    for i in rng.sample(range(size * size), size * size):
        if clues <= floor:
            break
        r, c = divmod(i, size)
        givens[r][c] = 0
        if unique and not _has_unique_answer(givens, geo):
            givens[r][c] = solution[r][c]
            continue
        clues -= 1
    return givens, solution


def made_unique(givens: Grid, solution: Grid, box: tuple[int, int] | None = None) -> Grid:
    """`givens` with digits of `solution` added, one at a time where two answers differ,
    until the answer is unique: printed puzzles have one answer, random givens rarely do."""
    size = len(givens)
    geo = geometry(size, box or default_box(size))
    givens = [row.copy() for row in givens]
    while (answer := solve_grid(geo, givens)).verdict == "multiple":
        r, c = next((r, c) for r in range(size) for c in range(size)
                    if answer.solution[r][c] != answer.other[r][c])
        givens[r][c] = solution[r][c]
    return givens


def _has_unique_answer(givens: Grid, geo) -> bool:
    cands = initial_candidates(givens, geo)
    if propagate(cands, geo) and solved(cands):
        return True
    if geo.size > 9:
        return False
    found, complete = search(cands, geo, limit=2)
    return complete and len(found) == 1


def make_killer(rng: random.Random, size: int = 9, givens: bool = False,
                max_cage: int = 5, hard: bool = False,
                huge: bool = False) -> tuple[KillerPuzzle, Grid]:
    """(puzzle, solution): random connected cages of 1..max_cage cells with distinct digits.

    huge=True (max_cage is ignored) draws the few huge cages of some apps: grown to 6..9
    cells (HUGE_CAGE_SIZES), smaller left-overs joined to a neighbour while the digits
    stay distinct, sums up to 45, often fewer than ten cages; with givens=True the givens
    are put outside the cages' first cells where they can be, as such apps do.

    While the puzzle has several answers, the cage holding a cell where two answers differ
    is split (or, with givens=True, that cell is given), until the answer is unique.

    hard=True (no givens; max_cage is ignored) keeps cages large, as in newspaper
    "fiendish" killers: cages mostly of 2..7 cells (a left-over single cell may join a
    7-cell cage), and each second answer is ruled out by moving one cell where it differs
    from the solution into a neighbouring cage, so the number of cages stays the same; the
    mean cage size is at least HARD_MEAN_CAGE cells. A few seconds per puzzle, up to a
    minute for some seeds.

    Uniqueness is checked with the solver's plain killer model (killer_reasoning=False):
    its witnesses decide which cage changes, so a seed keeps giving the same puzzle when
    the solver's extra reasoning is tuned.
    """
    if hard:
        return _make_hard_killer(rng, size)
    box = default_box(size)
    geo = geometry(size, box)
    solution = random_solution(size, box, rng)
    if huge:
        owner = _huge_cages(rng, solution)
    else:
        owner = _random_cages(rng, solution, max_cage)
    shown = [[0] * size for _ in range(size)]
    for _ in range(size * size):
        cages = _cage_lists(owner, size)
        cage_cells = [([r * size + c for r, c in cells], sum(solution[r][c] for r, c in cells))
                      for cells in cages]
        answer = solve_grid(geo, shown if givens else None, cage_cells, time_limit=20.0,
                            killer_reasoning=False)
        if answer.verdict == "unique":
            break
        if answer.verdict != "multiple":
            raise RuntimeError(f"generated killer has verdict {answer.verdict}")
        differ = [(r, c) for r in range(size) for c in range(size)
                  if answer.solution[r][c] != answer.other[r][c]]
        if givens and huge:
            heads = {min(cells) for cells in cages}
            differ = [cell for cell in differ if cell not in heads] or differ
        r, c = rng.choice(differ)
        if givens:
            shown[r][c] = solution[r][c]
        else:
            _split_cage(owner, (r, c), size)
    puzzle = KillerPuzzle(
        size=size,
        cages=[Cage(sum=sum(solution[r][c] for r, c in cells), cells=cells)
               for cells in _cage_lists(owner, size)],
        givens=shown if givens else None,
    )
    return puzzle, solution


HUGE_CAGE_SIZES = (6, 7, 8, 9)
HUGE_LAYOUTS = 300  # random layouts drawn for a huge-cage killer
HARD_MEAN_CAGE = 3.5
HARD_CAGE_SIZES = (2, 3, 3, 4, 4, 4, 5, 5, 6, 7)
HARD_MOVES = 150  # cell moves per attempt before starting again with fresh cages


def _make_hard_killer(rng: random.Random, size: int) -> tuple[KillerPuzzle, Grid]:
    geo = geometry(size, default_box(size))
    while True:
        solution = random_solution(size, geo.box, rng)
        owner = _random_cages(rng, solution, sizes=HARD_CAGE_SIZES)
        _absorb_single_cells(rng, owner, solution)
        for _ in range(HARD_MOVES):
            cages = _cage_lists(owner, size)
            if size * size / len(cages) < HARD_MEAN_CAGE:
                break
            cage_cells = [([r * size + c for r, c in cells],
                           sum(solution[r][c] for r, c in cells)) for cells in cages]
            answer = solve_grid(geo, None, cage_cells, time_limit=20.0,
                                killer_reasoning=False)
            if answer.verdict == "unique":
                puzzle = KillerPuzzle(size=size, cages=[
                    Cage(sum=sum(solution[r][c] for r, c in cells), cells=cells)
                    for cells in cages])
                return puzzle, solution
            if answer.verdict != "multiple":
                break  # out of time on a hard layout: start again
            wrong = answer.other if answer.solution == solution else answer.solution
            if not _move_a_differing_cell(rng, owner, solution, wrong):
                break


def _neighbours(r: int, c: int, size: int) -> list[tuple[int, int]]:
    return [(i, j) for i, j in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1))
            if 0 <= i < size and 0 <= j < size]


def _cage_digits(owner: list[list[int]], solution: Grid, label: int) -> int:
    size = len(owner)
    return sum(bit(solution[r][c]) for r in range(size) for c in range(size)
               if owner[r][c] == label)


def _huge_cages(rng: random.Random, solution: Grid) -> list[list[int]]:
    """A random layout of huge cages with at most a random 9..13 cages (the fewest found
    in HUGE_LAYOUTS layouts when none has so few)."""
    most = rng.randint(9, 13)
    best = None
    for _ in range(HUGE_LAYOUTS):
        owner = _random_cages(rng, solution, sizes=HUGE_CAGE_SIZES)
        _join_small_cages(owner, solution, HUGE_CAGE_SIZES[0])
        _absorb_single_cells(rng, owner, solution)
        count = len(_cage_lists(owner, len(solution)))
        if best is None or count < best[0]:
            best = count, owner
        if count <= most:
            break
    return best[1]


def _join_small_cages(owner: list[list[int]], solution: Grid, least: int) -> None:
    """Join each cage of fewer than `least` cells to the smallest neighbouring cage whose
    digits it does not repeat (the joined cage holds at most one of each digit)."""
    size = len(owner)
    joined = True
    while joined:
        joined = False
        cages = sorted(_cage_lists(owner, size), key=len)
        cage_of = {cell: k for k, cells in enumerate(cages) for cell in cells}
        for k, cells in enumerate(cages):
            if len(cells) >= least:
                break
            digits = sum(bit(solution[r][c]) for r, c in cells)
            near = {cage_of[n] for r, c in cells for n in _neighbours(r, c, size)} - {k}
            fits = [j for j in near if len(cages[j]) + len(cells) <= size
                    and not digits & sum(bit(solution[r][c]) for r, c in cages[j])]
            if fits:
                r0, c0 = cages[min(fits, key=lambda j: len(cages[j]))][0]
                label = owner[r0][c0]
                for r, c in cells:
                    owner[r][c] = label
                joined = True
                break


def _absorb_single_cells(rng: random.Random, owner: list[list[int]], solution: Grid) -> None:
    """Join one-cell cages (left where growth got stuck) to a neighbouring cage when its
    digit is new there: a one-cell cage is just a given."""
    size = len(owner)
    for cells in _cage_lists(owner, size):
        if len(cells) != 1:
            continue
        r, c = cells[0]
        options = [owner[i][j] for i, j in _neighbours(r, c, size)
                   if not _cage_digits(owner, solution, owner[i][j]) & bit(solution[r][c])]
        if options:
            owner[r][c] = rng.choice(options)


def _move_a_differing_cell(rng: random.Random, owner: list[list[int]], solution: Grid,
                           wrong: Grid) -> bool:
    """Move a cell where wrong differs from solution into a neighbouring cage.

    The cage losing the cell now sums to less by solution's digit there, not wrong's, so
    wrong breaks it; the moved digit must be new in the cage it joins and the cage left
    behind must stay connected and keep two cells. False when no cell can move.
    """
    size = len(owner)
    cages = _cage_lists(owner, size)
    cage_of = {cell: k for k, cells in enumerate(cages) for cell in cells}
    moves = []
    for r in range(size):
        for c in range(size):
            if wrong[r][c] == solution[r][c]:
                continue
            home = cages[cage_of[(r, c)]]
            rest = [cell for cell in home if cell != (r, c)]
            if len(rest) < 2 or not connected(rest):
                continue
            for i, j in _neighbours(r, c, size):
                k = cage_of[(i, j)]
                if k == cage_of[(r, c)] or len(cages[k]) >= 7:
                    continue
                if any(solution[a][b] == solution[r][c] for a, b in cages[k]):
                    continue
                moves.append(((r, c), owner[i][j], len(cages[k])))
    if not moves:
        return False
    smallest = min(m[2] for m in moves)  # prefer joining small cages: sizes stay even
    (r, c), label, _ = rng.choice([m for m in moves if m[2] <= smallest + 1])
    owner[r][c] = label
    return True


def _random_cages(rng: random.Random, solution: Grid, max_cage: int = 5,
                  sizes: tuple[int, ...] | None = None) -> list[list[int]]:
    """Cages grown from random cells to a random target size (2..max_cage, or drawn from
    sizes), each holding distinct digits of solution."""
    size = len(solution)
    owner = [[-1] * size for _ in range(size)]
    cage = 0
    for i in rng.sample(range(size * size), size * size):
        r, c = divmod(i, size)
        if owner[r][c] >= 0:
            continue
        target = rng.choice(sizes) if sizes else rng.randint(2, max_cage)
        cells, used = [(r, c)], bit(solution[r][c])
        owner[r][c] = cage
        while len(cells) < target:
            options = [(nr, nc) for cr, cc in cells
                       for nr, nc in ((cr + 1, cc), (cr - 1, cc), (cr, cc + 1), (cr, cc - 1))
                       if 0 <= nr < size and 0 <= nc < size and owner[nr][nc] < 0
                       and not used & bit(solution[nr][nc])]
            if not options:
                break
            nr, nc = rng.choice(options)
            owner[nr][nc] = cage
            cells.append((nr, nc))
            used |= bit(solution[nr][nc])
        cage += 1
    return owner


def _cage_lists(owner: list[list[int]], size: int) -> list[list[tuple[int, int]]]:
    cages: dict[int, list[tuple[int, int]]] = {}
    for r in range(size):
        for c in range(size):
            cages.setdefault(owner[r][c], []).append((r, c))
    return list(cages.values())


def _split_cage(owner: list[list[int]], cell: tuple[int, int], size: int) -> None:
    """Take cell out of its cage; the rest falls into its connected pieces."""
    r, c = cell
    label = owner[r][c]
    fresh = max(max(row) for row in owner) + 1
    owner[r][c] = fresh
    rest = [(i, j) for i in range(size) for j in range(size) if owner[i][j] == label]
    seen: set[tuple[int, int]] = set()
    for start in rest:
        if start in seen:
            continue
        fresh += 1
        stack = [start]
        seen.add(start)
        while stack:
            i, j = stack.pop()
            owner[i][j] = fresh
            for n in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if n in seen or not (0 <= n[0] < size and 0 <= n[1] < size):
                    continue
                if owner[n[0]][n[1]] == label:
                    seen.add(n)
                    stack.append(n)


def make_nonogram(rng: random.Random, width: int, height: int, density: float = 0.5,
                  smooth: int = 0) -> tuple[NonogramPuzzle, list[str]]:
    """(puzzle, picture): a random picture (rows of '#' and '.') and its clues.

    smooth=0 gives independent cells (hard, often several answers); each smoothing round
    sets a cell to the majority of its 3x3 neighbourhood, giving blobs like drawn pictures.
    """
    cells = [[rng.random() < density for _ in range(width)] for _ in range(height)]
    for _ in range(smooth):
        cells = [[_majority(cells, r, c) for c in range(width)] for r in range(height)]
    picture = ["".join("#" if v else "." for v in row) for row in cells]
    columns = ["".join(row[c] for row in picture) for c in range(width)]
    return NonogramPuzzle(rows=[runs_of(line) for line in picture],
                          cols=[runs_of(line) for line in columns]), picture


def make_unique_nonogram(rng: random.Random, width: int, height: int, density: float = 0.55,
                         smooth: int = 1) -> tuple[NonogramPuzzle, list[str]]:
    """make_nonogram drawn again until its clues have exactly one solution."""
    from services.solver.solve import solve_puzzle  # the solver's front door imports us

    while True:
        puzzle, picture = make_nonogram(rng, width, height, density, smooth)
        if solve_puzzle(puzzle).verdict == "unique":
            return puzzle, picture


def _majority(cells: list[list[bool]], r: int, c: int) -> bool:
    around = [cells[i][j] for i in range(max(0, r - 1), min(len(cells), r + 2))
              for j in range(max(0, c - 1), min(len(cells[0]), c + 2))]
    return 2 * sum(around) > len(around)


def runs_of(line: str) -> list[int]:
    """Lengths of the runs of '#' in a line, left to right."""
    return [len(run) for run in line.split(".") if run]
