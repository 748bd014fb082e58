"""A person's corrections to a reading: checked here, taken as certain by the solver.

The rule: what a person typed is certain. Corrections that cannot hold on their own (a
digit twice in a unit, a cage sum its cage cannot make) are refused with a message. A
typed digit that clashes with confident readings is the solver's to report: the job ends
as needs_review naming the clash, and confident readings are never rewritten to make room.
"""

from __future__ import annotations

from collections import defaultdict

from services.contracts import CellFix, Corrections, Reading


class CorrectionError(ValueError):
    """Corrections that are out of range or contradict each other."""


def place(row: int, col: int) -> str:
    """A cell as people count: 1-based."""
    return f"row {row + 1}, column {col + 1}"


def outside(field: str, fix, n: int) -> str:
    """A fix whose place is no cell of the n x n grid, as its JSON wrote it: the place of
    a cell that does not exist cannot be said in words, and "row 10" for a "row": 9 sent
    would count differently from the JSON."""
    return (f'{field}: "row": {fix.row}, "col": {fix.col} is outside the {n}x{n} grid '
            f'("row" and "col" count from 0, to {n - 1})')


def check_corrections(reading: Reading, fixes: Corrections) -> None:
    """CorrectionError, in words with 1-based rows and columns, unless the fixes can hold
    (a place outside the grid is given as its JSON wrote it, 0-based)."""
    if reading.kind == "nonogram":
        problems = clue_problems(reading, fixes)
        if problems:
            raise CorrectionError("; ".join(problems))
        return
    n = reading.size
    problems = []
    seen: dict[tuple[int, int], int] = {}
    for fix in fixes.cells:
        if fix.row >= n or fix.col >= n:
            problems.append(outside("cells", fix, n))
        elif fix.value > n:
            problems.append(f"{place(fix.row, fix.col)}: {fix.value} is not a digit 1-{n} "
                            "(or 0 for blank)")
        elif kind_problem := _kind_problem(reading, fix):
            problems.append(kind_problem)
        elif seen.setdefault((fix.row, fix.col), fix.value) != fix.value:
            problems.append(f"{place(fix.row, fix.col)} is given two different values")
        if fix.kind == "entry":
            seen.pop((fix.row, fix.col), None)  # the person's own digit is no clue
    box_rows, box_cols = reading.box or _default_box(n)
    units: dict[tuple, list[tuple[int, int]]] = defaultdict(list)
    for (row, col), value in seen.items():
        if value:
            for unit in (f"row {row + 1}", f"column {col + 1}",
                         f"box {row // box_rows * (n // box_cols) + col // box_cols + 1}"):
                units[(unit, value)].append((row, col))
    for (unit, value), cells in units.items():
        if len(cells) > 1:
            at = " and ".join(place(*cell) for cell in cells)
            problems.append(f"{value} is typed twice in {unit}, at {at}")
    if fixes.cage_sums and reading.kind != "killer":
        problems.append("cage sums apply only to killer sudoku")
    if fixes.walls and reading.kind != "killer":
        problems.append("cage walls apply only to killer sudoku")
    if fixes.clues:
        problems.append("clue corrections apply only to nonograms")
    for fix in fixes.walls:
        if fix.row >= n or fix.col >= n or (fix.side == "right" and fix.col >= n - 1) or (
                fix.side == "down" and fix.row >= n - 1):
            problems.append(f'walls: "row": {fix.row}, "col": {fix.col}, "side": '
                            f'"{fix.side}" is no inner wall of the {n}x{n} grid ("row" and '
                            f'"col" count from 0; a wall "right" needs "col" 0 to {n - 2}, '
                            f'one "down" needs "row" 0 to {n - 2})')
    if not problems and reading.kind == "killer":
        problems += impossible_sums(reading, fixes)
    elif reading.kind == "killer":
        problems += [outside("cage_sums", f, n) for f in fixes.cage_sums
                     if f.row >= n or f.col >= n]
    if problems:
        raise CorrectionError("; ".join(problems))


def clue_problems(reading: Reading, fixes: Corrections) -> list[str]:
    """Why a nonogram's clue fixes cannot hold, in words: a line outside the grid, a 0
    beside other runs, runs that overflow their line, or (every line typed) row and column
    totals that differ."""
    problems = []
    if fixes.cells or fixes.cage_sums or fixes.walls:
        problems.append("a nonogram takes corrections of its clues only (`clues`)")
    lengths = {"row": reading.width or 0, "col": reading.height or 0}
    counts = {"row": reading.height or 0, "col": reading.width or 0}
    typed: dict[tuple[str, int], list[int]] = {}
    for fix in fixes.clues:
        where = line_name(fix.line, fix.index)
        if fix.index >= counts[fix.line]:
            lines = "rows" if fix.line == "row" else "columns"
            problems.append(f'clues: "line": "{fix.line}", "index": {fix.index} is no line of '
                            f"the nonogram: its {counts[fix.line]} {lines} have \"index\" 0 "
                            f"to {counts[fix.line] - 1} (counted from 0)")
            continue
        runs = runs_of(fix.clue)
        if 0 in runs:
            problems.append(f"{where}: a 0 stands alone, for a line with nothing to fill")
        elif sum(runs) + len(runs) - 1 > lengths[fix.line]:
            problems.append(f"{where}: {' '.join(map(str, runs))} needs "
                            f"{sum(runs) + len(runs) - 1} cells, and the line has "
                            f"{lengths[fix.line]}")
        elif typed.setdefault((fix.line, fix.index), runs) != runs:
            problems.append(f"{where} is given two different clues")
    totals = {line: sum(sum(runs) for (kind, _), runs in typed.items() if kind == line)
              for line in counts}
    whole = all(sum(kind == line for kind, _ in typed) == counts[line] for line in counts)
    if not problems and whole and totals["row"] != totals["col"]:
        problems.append(f"the row clues add up to {totals['row']} filled cells and the "
                        f"column clues to {totals['col']}: they must agree")
    return problems


def line_name(line: str, index: int) -> str:
    """A nonogram line as people count: "row 3", "column 12"."""
    return f"{'row' if line == 'row' else 'column'} {index + 1}"


def runs_of(clue: list[int]) -> list[int]:
    """A typed clue as runs: a lone 0 (an empty line) is no run."""
    return [] if clue == [0] else list(clue)


def _kind_problem(reading: Reading, fix: CellFix) -> str | None:
    """Why a cell fix's kind cannot go with its value, in words (None when it can)."""
    where = place(fix.row, fix.col)
    if fix.kind is None:
        return None
    if reading.kind != "sudoku":
        return f"{where}: printed, entry or blank applies only to classic sudoku"
    if fix.kind == "blank" and fix.value:
        return f"{where}: a blank cell holds no digit (send value 0)"
    if fix.kind != "blank" and not fix.value:
        word = "your own digit" if fix.kind == "entry" else "a printed digit"
        return f"{where}: {word} needs a value 1-{reading.size}"
    return None


def impossible_sums(reading: Reading, fixes: Corrections) -> list[str]:
    """Typed cage sums that the cage they sit in (walls as read, with the person's wall
    fixes) cannot hold: different digits 1..n in k cells add up to a bounded range."""
    n = reading.size
    cage_of = cages_by_cell(reading, fixes)
    problems = []
    for fix in fixes.cage_sums:
        if fix.row >= n or fix.col >= n:
            problems.append(outside("cage_sums", fix, n))
            continue
        if fix.value > n * (n + 1) // 2:
            problems.append(f"cage sum {fix.value} at {place(fix.row, fix.col)} is larger "
                            f"than any cage can hold ({n * (n + 1) // 2})")
            continue
        size = len(cage_of[(fix.row, fix.col)]) if cage_of else 0
        if not size or size > n:
            continue  # no walls to go by, or a cage the solver will split anyway
        low, high = size * (size + 1) // 2, size * (2 * n - size + 1) // 2
        if not low <= fix.value <= high:
            problems.append(f"cage sum {fix.value} at {place(fix.row, fix.col)} cannot hold: "
                            f"its cage has {size} cell{'s' if size > 1 else ''}, whose "
                            f"different digits add up to {low}-{high}")
    return problems


def cages_by_cell(reading: Reading, fixes: Corrections) -> dict[tuple[int, int], list]:
    """The cage (list of cells) of every cell, with walls where p >= 0.5 or a person said
    so; {} when the reading has no walls."""
    n = reading.size
    if reading.walls_right is None or reading.walls_down is None:
        return {}
    wall = {("right", r, c): reading.walls_right[r][c] >= 0.5
            for r in range(n) for c in range(n - 1)}
    wall |= {("down", r, c): reading.walls_down[r][c] >= 0.5
             for r in range(n - 1) for c in range(n)}
    wall |= {(f.side, f.row, f.col): f.present for f in fixes.walls}
    parent = {(r, c): (r, c) for r in range(n) for c in range(n)}

    def find(cell):
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    for (side, r, c), present in wall.items():
        if not present:
            parent[find((r, c))] = find((r, c + 1) if side == "right" else (r + 1, c))
    cages: dict[tuple[int, int], list] = defaultdict(list)
    for cell in parent:
        cages[find(cell)].append(cell)
    return {cell: cages[find(cell)] for cell in parent}


def as_fixed(fixes: Corrections) -> dict[str, list[list[int]]]:
    """The corrections as the solver's certain readings: {part: [[row, col, value], ...]};
    "entries" holds the cells a person marked as their own digits."""
    if fixes.clues:  # a nonogram: whole lines, {"row_clues": [[line, [runs]], ...]}
        return {f"{line}_clues": [[f.index, runs_of(f.clue)] for f in fixes.clues
                                  if f.line == line] for line in ("row", "col")}
    # The person's own digits are no clues: their cells are blank in the puzzle, and the
    # digits go to the solver apart, to be checked against the solution.
    return {"cells": [[f.row, f.col, 0 if f.kind == "entry" else f.value]
                      for f in fixes.cells],
            "entries": [[f.row, f.col, f.value] for f in fixes.cells if f.kind == "entry"],
            "cage_sums": [[f.row, f.col, f.value] for f in fixes.cage_sums],
            "walls_right": [[f.row, f.col, int(f.present)] for f in fixes.walls
                            if f.side == "right"],
            "walls_down": [[f.row, f.col, int(f.present)] for f in fixes.walls
                           if f.side == "down"]}


def _default_box(n: int) -> tuple[int, int]:
    rows = int(n**0.5)
    while n % rows:
        rows -= 1
    return rows, n // rows


def merge(old: Corrections | None, new: Corrections) -> Corrections:
    """Later fixes of the same reading replace earlier ones."""
    if old is None:
        return new
    cells = {(f.row, f.col): f for f in [*old.cells, *new.cells]}
    sums = {(f.row, f.col): f for f in [*old.cage_sums, *new.cage_sums]}
    walls = {(f.row, f.col, f.side): f for f in [*old.walls, *new.walls]}
    clues = {(f.line, f.index): f for f in [*old.clues, *new.clues]}
    return Corrections(cells=list(cells.values()), cage_sums=list(sums.values()),
                       walls=list(walls.values()), clues=list(clues.values()))
