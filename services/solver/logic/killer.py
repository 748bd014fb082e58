"""Killer techniques: the digit sets a cage sum allows, the 45 rule, split cages.

Every one of them comes down to a group of cells with a known sum: a cage, the innies or
outies of a region (whole rows, columns or boxes add up to a known total), or the part of
a cage left over when a region takes the rest. The digits that no way of making the sum
uses are removed.
"""

from __future__ import annotations

from services.solver.logic.board import Board, Step, bit, describe_removal, eliminations_step

BUDGET = 20000  # search nodes per group: beyond, the group gives no hint
MAX_GROUP = 5


def ways(board: Board, cells: list[int], total: int) -> tuple[list[int], set[int]] | None:
    """(digits each cell takes in some way of making `total`, digit sets used), or None
    when the search is too long to show a person."""
    key = (tuple(cells), total, tuple(board.cands[i] for i in cells))
    if key not in board.memo:
        if len(board.memo) > 100_000:
            board.memo.clear()
        board.memo[key] = _ways(board, cells, total)
    return board.memo[key]


def _ways(board: Board, cells: list[int], total: int) -> tuple[list[int], set[int]] | None:
    order = sorted(cells, key=lambda i: bin(board.cands[i]).count("1"))
    allowed = [0] * len(order)
    sets: set[int] = set()
    chosen = [0] * len(order)
    nodes = 0
    size = board.size

    def visit(k: int, left: int) -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > BUDGET:
            return False
        if k == len(order):
            if left == 0:
                for j, d in enumerate(chosen):
                    allowed[j] |= bit(d)
                sets.add(sum(bit(d) for d in chosen))
            return True
        rest = len(order) - k - 1
        for d in range(1, min(size, left) + 1):
            if not board.cands[order[k]] & bit(d):
                continue
            if left - d < rest or left - d > rest * size:
                continue
            if any(chosen[j] == d and board.differ(order[j], order[k]) for j in range(k)):
                continue
            chosen[k] = d
            if not visit(k + 1, left - d):
                return False
        chosen[k] = 0
        return True

    if not visit(0, total):
        return None
    by_cell = dict(zip(order, allowed, strict=True))
    return [by_cell[i] for i in cells], sets


def _group_step(board: Board, technique: str, cells: list[int], total: int,
                why: str) -> Step | None:
    found = ways(board, cells, total)
    if found is None:
        return None
    allowed, sets = found
    elims = [(i, d) for i, mask in zip(cells, allowed, strict=True)
             for d in range(1, board.size + 1)
             if not board.values[i] and board.cands[i] & bit(d) and not mask & bit(d)]
    if not elims:
        return None
    shown = sorted("{" + ",".join(str(d) for d in range(1, board.size + 1) if s & bit(d)) + "}"
                   for s in sets)
    made = (f"can only be made of {' or '.join(shown)}" if 0 < len(shown) <= 6
            else "cannot use every candidate")
    text = (f"{why} {board.names(cells)} add up to {total}, which with the candidates left "
            f"{made}, so {describe_removal(board, elims)} removed.")
    return eliminations_step(technique, text, cells, elims)


def cage_combinations(board: Board) -> Step | None:
    for cage in board.cages:
        open_cells = [i for i in cage.cells if not board.values[i]]
        if not open_cells:
            continue
        left = cage.total - sum(board.values[i] for i in cage.cells)
        why = (f"The cells of the cage of {cage.total}," if len(open_cells) == len(cage.cells)
               else f"The open cells of the cage of {cage.total},")
        step = _group_step(board, "cage combinations", open_cells, left, why)
        if step:
            return step
    return None


def regions(board: Board):
    """(name, cells, units) of runs of whole rows, columns and boxes."""
    size, lay = board.size, board.lay
    for kind, lines in (("rows", lay.rows), ("columns", lay.cols)):
        for length in range(1, size):
            for a in range(size - length + 1):
                cells = frozenset(i for line in lines[a:a + length] for i in line)
                name = (f"{kind[:-1]} {a + 1}" if length == 1
                        else f"{kind} {a + 1}-{a + length}")
                yield name, cells, length
    br, bc = board.box
    per_row = size // bc
    for b in range(size):
        yield f"box {b + 1}", frozenset(lay.boxes[b]), 1
    for b in range(size):
        if b % per_row + 1 < per_row:
            yield (f"boxes {b + 1} and {b + 2}", frozenset(lay.boxes[b] + lay.boxes[b + 1]), 2)
        if b + per_row < size:
            yield (f"boxes {b + 1} and {b + per_row + 1}",
                   frozenset(lay.boxes[b] + lay.boxes[b + per_row]), 2)


def innies_outies(board: Board) -> Step | None:
    if not board.cages:
        return None
    size = board.size
    unit_total = size * (size + 1) // 2
    for name, region, units in regions(board):
        total = units * unit_total
        inside, partial = 0, []
        for cage in board.cages:
            cells = set(cage.cells)
            if cells <= region:
                inside += cage.total
            elif cells & region:
                partial.append(cage)
        covered = sum(len(cage.cells) for cage in board.cages if set(cage.cells) <= region)
        covered += sum(1 for cage in partial for i in cage.cells if i in region)
        if not partial or covered != len(region):
            continue
        innies = sorted(i for cage in partial for i in cage.cells if i in region)
        outies = sorted(i for cage in partial for i in cage.cells if i not in region)
        innie_sum = total - inside
        outie_sum = sum(c.total for c in partial) - innie_sum
        rule = (f"By the {unit_total} rule, {name} adds up to {total} and the cages inside "
                f"it to {inside}, so")
        if len(partial) == 1:
            whole = partial[0].total
            groups = [("cage splitting", innies, innie_sum,
                       f"{rule} the cells of the cage of {whole} inside {name},"),
                      ("cage splitting", outies, outie_sum,
                       f"{rule} the part of the cage of {whole} inside {name} adds up to "
                       f"{innie_sum}, and the rest of it,")]
        else:
            groups = [("innies", innies, innie_sum, f"{rule} the innies"),
                      ("outies", outies, outie_sum, f"{rule} the outies")]
        for technique, cells, s, why in groups:
            if len(cells) <= MAX_GROUP and any(not board.values[i] for i in cells):
                step = _group_step(board, technique, cells, s, why)
                if step:
                    return step
    return None
