"""Naked and hidden subsets: n cells holding only n digits, n digits confined to n cells."""

from __future__ import annotations

from itertools import combinations

from services.solver.logic.board import (
    Board,
    Step,
    bit,
    describe_removal,
    digits_of,
    eliminations_step,
    popcount,
)

NAMES = {2: "pair", 3: "triple", 4: "quad"}


def _open_units(board: Board, n: int):
    """(unit, its open cells) of the units with more than n open cells: where a subset
    of n can leave something to remove."""
    for u, unit in enumerate(board.lay.geo.units):
        open_cells = [i for i in unit if not board.values[i]]
        if len(open_cells) > n:
            yield u, open_cells


def naked_subset(board: Board, n: int) -> Step | None:
    for u, open_cells in _open_units(board, n):
        small = [i for i in open_cells if popcount(board.cands[i]) <= n]
        for group in combinations(small, n):
            union = 0
            for i in group:
                union |= board.cands[i]
            if popcount(union) != n:
                continue
            ds = digits_of(union)
            elims = [(i, d) for i in open_cells if i not in group for d in ds
                     if board.cands[i] & bit(d)]
            text = (f"In {board.unit_name(u)} the cells {board.names(group)} hold only the "
                    f"digits {', '.join(map(str, ds))} between them, so those digits are "
                    f"removed from the rest of {board.unit_name(u)}: "
                    f"{describe_removal(board, elims)}.")
            step = eliminations_step(f"naked {NAMES[n]}", text, group, elims, ds)
            if step:
                return step
    return None


def hidden_subset(board: Board, n: int) -> Step | None:
    by_unit = board.places()
    for u, _ in _open_units(board, n):
        places = {d: where for d, where in enumerate(by_unit[u]) if 1 < len(where) <= n}
        for ds in combinations(sorted(places), n):
            cells = sorted({i for d in ds for i in places[d]})
            if len(cells) != n:
                continue
            keep = sum(bit(d) for d in ds)
            elims = [(i, d) for i in cells for d in digits_of(board.cands[i] & ~keep)]
            text = (f"In {board.unit_name(u)} the digits {', '.join(map(str, ds))} can only "
                    f"go in {board.names(cells)}, so those cells hold nothing else: "
                    f"{describe_removal(board, elims)} removed.")
            step = eliminations_step(f"hidden {NAMES[n]}", text, cells, elims, ds)
            if step:
                return step
    return None
