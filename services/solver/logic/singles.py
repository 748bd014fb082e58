"""Naked singles (one candidate left in a cell) and hidden singles (one place left in a unit)."""

from __future__ import annotations

from services.solver.logic.board import Board, Step, bit


def naked_single(board: Board) -> Step | None:
    for cell, mask in enumerate(board.cands):
        if not board.values[cell] and mask and mask & (mask - 1) == 0:
            d = mask.bit_length()
            return Step("naked single",
                        f"{board.name(cell)} has only one candidate left, {d}, so it is {d}.",
                        [cell], placements=[(cell, d)], digits=[d])
    return None


def hidden_single(board: Board) -> Step | None:
    geo = board.lay.geo
    # Boxes first: that is where people look first.
    order = list(range(2 * board.size, 3 * board.size)) + list(range(2 * board.size))
    for u in order:
        unit = geo.units[u]
        placed = 0
        for i in unit:
            if board.values[i]:
                placed |= bit(board.values[i])
        for d in range(1, board.size + 1):
            if placed & bit(d):
                continue
            where = board.cells_with(unit, d)
            if len(where) == 1:
                cell = where[0]
                return Step("hidden single",
                            f"In {board.unit_name(u)} the {d} can only go in "
                            f"{board.name(cell)}, so {board.name(cell)} is {d}.",
                            [cell], placements=[(cell, d)], digits=[d])
    return None
