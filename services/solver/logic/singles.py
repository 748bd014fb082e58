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
    values, cands = board.values, board.cands
    # Boxes first: that is where people look first.
    order = list(range(2 * board.size, 3 * board.size)) + list(range(2 * board.size))
    for u in order:
        unit = geo.units[u]
        placed = once = twice = 0
        for i in unit:
            if values[i]:
                placed |= bit(values[i])
            else:
                twice |= once & cands[i]
                once |= cands[i]
        alone = once & ~twice & ~placed  # digits with one open cell left in the unit
        if alone:
            d = (alone & -alone).bit_length()  # the lowest such digit
            cell = next(i for i in unit if not values[i] and cands[i] & bit(d))
            return Step("hidden single",
                        f"In {board.unit_name(u)} the {d} can only go in "
                        f"{board.name(cell)}, so {board.name(cell)} is {d}.",
                        [cell], placements=[(cell, d)], digits=[d])
    return None
