"""Wings: bivalue cells whose digits force a common digit out of the cells seeing them."""

from __future__ import annotations

from services.solver.logic.board import (
    Board,
    Step,
    bit,
    describe_removal,
    digits_of,
    eliminations_step,
    popcount,
)


def _seen_by_all(board: Board, cells, d: int) -> list[tuple[int, int]]:
    peers = board.lay.peer_sets
    common = set(peers[cells[0]])
    for c in cells[1:]:
        common &= peers[c]
    b = bit(d)
    return [(i, d) for i in sorted(common)
            if i not in cells and not board.values[i] and board.cands[i] & b]


def _bivalue(board: Board) -> list[int]:
    return [i for i, m in enumerate(board.cands) if not board.values[i] and popcount(m) == 2]


def xy_wing(board: Board) -> Step | None:
    peers = board.lay.peer_sets
    bivalue = _bivalue(board)
    for pivot in bivalue:
        pm = board.cands[pivot]
        wings = [i for i in bivalue if i in peers[pivot] and popcount(board.cands[i] & pm) == 1]
        for x, a in enumerate(wings):
            for b in wings[x + 1:]:
                ma, mb = board.cands[a], board.cands[b]
                z = ma & mb & ~pm
                if not z or (ma & pm) == (mb & pm) or popcount(z) != 1:
                    continue
                d = z.bit_length()
                elims = _seen_by_all(board, [a, b], d)
                x_, y_ = digits_of(pm)
                text = (f"{board.name(pivot)} is {x_} or {y_}; either way one of "
                        f"{board.name(a)} and {board.name(b)} is {d}, so {d} is removed from "
                        f"the cells that see both: {describe_removal(board, elims)}.")
                step = eliminations_step("XY-wing", text, [pivot, a, b], elims,
                                         digits_of(pm | z))
                if step:
                    return step
    return None


def xyz_wing(board: Board) -> Step | None:
    peers = board.lay.peer_sets
    bivalue = _bivalue(board)
    for pivot, pm in enumerate(board.cands):
        if board.values[pivot] or popcount(pm) != 3:
            continue
        wings = [i for i in bivalue if i in peers[pivot] and board.cands[i] & ~pm == 0]
        for x, a in enumerate(wings):
            for b in wings[x + 1:]:
                ma, mb = board.cands[a], board.cands[b]
                if ma == mb or (ma | mb) != pm:
                    continue
                z = ma & mb
                d = z.bit_length()
                elims = _seen_by_all(board, [pivot, a, b], d)
                text = (f"One of {board.name(pivot)}, {board.name(a)} and {board.name(b)} "
                        f"must be {d} (the pivot holds {''.join(map(str, digits_of(pm)))}), so "
                        f"{d} is removed from the cells that see all three: "
                        f"{describe_removal(board, elims)}.")
                step = eliminations_step("XYZ-wing", text, [pivot, a, b], elims, digits_of(pm))
                if step:
                    return step
    return None


def w_wing(board: Board) -> Step | None:
    """Two equal bivalue cells {x,y} joined by a strong link on x: one of them is y."""
    lay = board.lay
    peers = lay.peer_sets
    bivalue = _bivalue(board)
    links = strong_links(board)
    for k, a in enumerate(bivalue):
        for b in bivalue[k + 1:]:
            if board.cands[a] != board.cands[b] or b in peers[a]:
                continue
            for x in digits_of(board.cands[a]):
                y = (board.cands[a] & ~bit(x)).bit_length()
                for p, q, u in links.get(x, ()):
                    if {p, q} & {a, b}:
                        continue
                    if (p in peers[a] and q in peers[b]) or (q in peers[a] and p in peers[b]):
                        elims = _seen_by_all(board, [a, b], y)
                        text = (f"{board.name(a)} and {board.name(b)} both hold {x}{y}, and "
                                f"in {board.unit_name(u)} the {x} must be in {board.name(p)} "
                                f"or {board.name(q)}, which see one each; so they cannot "
                                f"both be {x}, one of them is {y}: "
                                f"{describe_removal(board, elims)} removed.")
                        step = eliminations_step("W-wing", text, [a, b, p, q], elims, [x, y])
                        if step:
                            return step
    return None


def strong_links(board: Board) -> dict[int, list[tuple[int, int, int]]]:
    """digit -> (cell, cell, unit) where the digit has exactly these two places."""
    out: dict[int, list[tuple[int, int, int]]] = {}
    for u, by_digit in enumerate(board.places()):
        for d in range(1, board.size + 1):
            where = by_digit[d]
            if len(where) == 2:
                out.setdefault(d, []).append((where[0], where[1], u))
    return out
