"""Almost locked sets: n cells of one unit holding n + 1 digits between them.

ALS-XZ: two such sets A and B share a digit x whose places in A all see its places in B
(x is in at most one of them: a restricted common). Then neither set can lose a second
digit: the one without x is locked, so for any other shared digit z, one of the two
holds z, and z goes from every cell that sees all the z places of both.
"""

from __future__ import annotations

from dataclasses import dataclass

from services.solver.logic.board import (
    Board,
    Step,
    describe_removal,
    digits_of,
    eliminations_step,
    popcount,
)

MAX_CELLS = 4  # larger sets are rarely needed and hard for a person to see


@dataclass(frozen=True)
class Als:
    cells: frozenset[int]
    mask: int
    unit: int
    places: dict[int, int]  # digit -> its cells in the set (bit i for cell i)
    seen: dict[int, int]  # digit -> the cells that see all its places (bit i for cell i)
    bits: int  # the cells (bit i for cell i)


def almost_locked_sets(board: Board, max_cells: int = MAX_CELLS) -> list[Als]:
    peers, cands = board.lay.peer_bits, board.cands
    found: dict[frozenset[int], Als] = {}

    def grow(u: int, cells: list[int], start: int, group: tuple[int, ...], mask: int):
        n = len(group)
        if n and mask.bit_count() == n + 1 and frozenset(group) not in found:
            bits = sum(1 << i for i in group)
            places, seen = {}, {}
            for d in digits_of(mask):
                where, common = 0, -1
                for i in group:
                    if cands[i] & (1 << (d - 1)):
                        where |= 1 << i
                        common &= peers[i]
                places[d], seen[d] = where, common & ~bits
            found[frozenset(group)] = Als(frozenset(group), mask, u, places, seen, bits)
        if n == max_cells:
            return
        for k in range(start, len(cells)):
            wider = mask | cands[cells[k]]
            if wider.bit_count() <= max_cells + 1:  # more digits can never be one too many
                grow(u, cells, k + 1, group + (cells[k],), wider)

    for u, unit in enumerate(board.lay.geo.units):
        open_cells = [i for i in unit if not board.values[i]]
        small = [i for i in open_cells if popcount(cands[i]) <= max_cells + 1]
        if len(open_cells) > 1:
            grow(u, small, 0, (), 0)
    return list(found.values())


def als_xz(board: Board) -> Step | None:
    sets = almost_locked_sets(board)
    # digit -> the open cells that still have it
    open_with = {d: sum(1 << i for i in where)
                 for d in range(1, board.size + 1)
                 if (where := [i for i, m in enumerate(board.cands)
                               if not board.values[i] and m & (1 << (d - 1))])}
    # digit -> the lowest of its places in a set -> those sets, in order: the sets whose
    # xs all see a set's xs have the lowest of them among the cells that see those
    by_low_place: dict[int, dict[int, list[int]]] = {}
    for m, s in enumerate(sets):
        for d, where in s.places.items():
            low = (where & -where).bit_length() - 1
            by_low_place.setdefault(d, {}).setdefault(low, []).append(m)
    for k, a in enumerate(sets):
        a_bits, a_seen, a_mask = a.bits, a.seen, a.mask
        for x in digits_of(a_mask):
            a_x, others = a_seen[x], a_mask & ~(1 << (x - 1))
            at = by_low_place[x]
            later = sorted(m for i in cells_of(a_x) for m in at.get(i, ()) if m > k)
            for m in later:
                b = sets[m]
                if a_bits & b.bits or b.places[x] & ~a_x:
                    continue  # overlapping, or x could be in both
                common = others & b.mask
                # most pairs remove nothing: a look at each shared digit before the list
                b_seen, b_out = b.seen, ~b.bits
                rest = common
                while rest:
                    low = rest & -rest
                    z = low.bit_length()
                    if a_seen[z] & b_seen[z] & b_out & open_with.get(z, 0):
                        break
                    rest ^= low
                if not rest:
                    continue
                elims = [(i, z) for z in digits_of(common)
                         for i in cells_of(a.seen[z] & b.seen[z] & open_with.get(z, 0) & ~b.bits)]
                if not elims:
                    continue
                zs = sorted({z for _, z in elims})
                text = (f"{_say(board, a)}, and {_say(board, b)}. Their {x}s see each other, "
                        f"so at most one of them holds {x}, and the other is locked: one of "
                        f"them holds {' and '.join(map(str, zs))}, so "
                        f"{describe_removal(board, elims)} can go.")
                return eliminations_step("ALS-XZ", text, sorted(a.cells | b.cells), elims,
                                         [x, *zs])
    return None


def cells_of(bits: int) -> list[int]:
    """The cells of a bit set, lowest first."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def _say(board: Board, s: Als) -> str:
    ds = "".join(map(str, digits_of(s.mask)))
    if len(s.cells) == 1:
        return f"{board.name(next(iter(s.cells)))} holds {ds}"
    return (f"in {board.unit_name(s.unit)} the cells {board.names(sorted(s.cells))} hold "
            f"only {ds}, one digit more than cells")
