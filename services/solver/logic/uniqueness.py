"""Unique rectangles: a puzzle with one solution cannot leave a swappable rectangle.

Four cells in two rows, two columns and two boxes holding only the same two digits could
swap them and give a second solution; so when three corners are exactly {a, b}, the
fourth corner is not a or b.
"""

from __future__ import annotations

from services.solver.logic.board import Board, Step, digits_of, eliminations_step, popcount


def unique_rectangle(board: Board) -> Step | None:
    if board.cages:
        return None  # a cage sum can tell the two swaps apart
    size, lay = board.size, board.lay
    cands, values = board.cands, board.values
    for r1 in range(size):
        for r2 in range(r1 + 1, size):
            for c1 in range(size):
                for c2 in range(c1 + 1, size):
                    corners = (r1 * size + c1, r1 * size + c2, r2 * size + c1, r2 * size + c2)
                    if any(values[i] for i in corners):
                        continue
                    if len({lay.box_of[i] for i in corners}) != 2:
                        continue
                    pairs = [i for i in corners if popcount(cands[i]) == 2]
                    if len(pairs) != 3 or len({cands[i] for i in pairs}) != 1:
                        continue
                    pair = cands[pairs[0]]
                    (roof,) = [i for i in corners if i not in pairs]
                    if cands[roof] & pair != pair:
                        continue
                    a, b = digits_of(pair)
                    elims = [(roof, a), (roof, b)]
                    text = (f"{board.names(pairs)} hold only {a} and {b}; if {board.name(roof)} "
                            f"were {a} or {b} the four corners could swap {a} and {b} and the "
                            f"puzzle would have two solutions, so {a} and {b} are removed from "
                            f"{board.name(roof)}.")
                    return eliminations_step("unique rectangle", text, corners, elims, [a, b])
    return None
