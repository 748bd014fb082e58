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
    pairs_by_row: dict[tuple[int, int], list[int]] = {}
    for i, m in enumerate(cands):
        if not values[i] and popcount(m) == 2:
            pairs_by_row.setdefault((i // size, m), []).append(i % size)
    for (r1, pair), cols in pairs_by_row.items():
        for x, c1 in enumerate(cols):
            for c2 in cols[x + 1:]:
                # a floor of two equal pairs in one row; the roof in another row
                for r2 in range(size):
                    if r2 == r1:
                        continue
                    corners = (r1 * size + c1, r1 * size + c2, r2 * size + c1, r2 * size + c2)
                    if any(values[i] for i in corners[2:]):
                        continue
                    if len({lay.box_of[i] for i in corners}) != 2:
                        continue
                    low = [i for i in corners[2:] if cands[i] == pair]
                    if len(low) != 1:
                        continue
                    (roof,) = [i for i in corners[2:] if i not in low]
                    if cands[roof] & pair != pair:
                        continue
                    three = [corners[0], corners[1], low[0]]
                    a, b = digits_of(pair)
                    elims = [(roof, a), (roof, b)]
                    text = (f"{board.names(three)} hold only {a} and {b}; if {board.name(roof)} "
                            f"were {a} or {b} the four corners could swap {a} and {b} and the "
                            f"puzzle would have two solutions, so {a} and {b} are removed from "
                            f"{board.name(roof)}.")
                    return eliminations_step("unique rectangle", text, corners, elims, [a, b])
    return None
