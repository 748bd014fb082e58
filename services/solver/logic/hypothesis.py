"""Following a hypothesis: what a person can deduce, on raw candidate masks, from
"this cell holds only these digits".

Singles first, then locked candidates and naked and hidden pairs; only when those stall,
naked triples (dearer to look for, and needed less often). Nested, when all of those
stall: a digit of a two-digit cell goes when singles from it break the grid.
Every rule is sound, so a grid that breaks proves the hypothesis false, and whatever
several hypotheses, one of which holds, all lead to is true.
"""

from __future__ import annotations

from itertools import combinations

from services.solver.logic.board import Board
from services.solver.propagate import propagate

# as a step says them
RULES = "singles, locked candidates, pairs and triples"
NESTED_RULES = (f"{RULES} (inside that, ruling out a digit of a two-digit cell when "
                "singles from it break the grid)")


def follow(board: Board, cell: int, mask: int, nested: bool = False,
           reached: list[int] | None = None) -> tuple[list[int], bool]:
    """(the candidates that 'cell holds only the digits of mask' leads to, whether the
    grid then breaks). When it breaks, the candidates are those before the pass that
    broke it: each of them still follows from the hypothesis, without the contradiction.
    reached: where the rules without nesting took the same hypothesis, to go on from."""
    if reached is None:
        good = board.cands.copy()
        good[cell] = mask
    else:
        good = reached
    cands = good.copy()
    geo = board.lay.geo
    # The board's own singles are struck from their peers already (as a person's pencil
    # marks are): only the cells changed here need following.
    changed: list[int] | None = [cell]
    while True:
        if not propagate(cands, geo, changed):
            return good, True
        good = cands.copy()
        changed = locked(cands, board) or pairs(cands, board) or naked_triples(cands, board)
        if changed == [] and nested:
            changed = pair_contradictions(cands, board)
        if changed is None:
            return good, True
        if not changed:
            return good, False


def locked(cands: list[int], board: Board) -> list[int]:
    """One pass of pointing and claiming over bit masks: the cells it changed."""
    changed = []
    for segment, line_rest, box_rest in board.lay.segments:
        here = line_out = box_out = 0
        for i in segment:  # cells already down to one digit count as its place
            here |= cands[i]
        for i in line_rest:
            line_out |= cands[i]
        for i in box_rest:
            box_out |= cands[i]
        for mask, rest in ((here & ~box_out & line_out, line_rest),  # pointing
                           (here & ~line_out & box_out, box_rest)):  # claiming
            if not mask:
                continue
            for i in rest:
                m = cands[i]
                if m & mask and m & (m - 1):
                    cands[i] = m & ~mask
                    changed.append(i)
    return changed


def pairs(cands: list[int], board: Board) -> list[int]:
    """One pass of hidden and naked pairs over bit masks (after singles have run, so a
    placed digit is in no other cell of its units): the cells it changed."""
    changed = []
    size = board.size
    units = board.lay.geo.units
    # Before any change here: later changes only shrink the places, and a digit confined
    # to more places than it has left is confined all the same.
    places = unit_places(cands, board)
    for u, unit in enumerate(units):  # hidden pairs: two digits with the same two places
        by_places: dict[int, int] = {}  # two places -> the first digit with just those
        for d, where in enumerate(places[u * size:(u + 1) * size]):
            y = where & (where - 1)
            if not y or y & (y - 1):
                continue
            first = by_places.setdefault(where, d)
            if first == d:
                continue
            keep = (1 << d) | (1 << first)
            for p in (where.bit_length() - 1, (where & -where).bit_length() - 1):
                i = unit[p]
                if cands[i] & ~keep:
                    cands[i] &= keep
                    changed.append(i)
    for unit in units:  # naked pairs: two cells holding the same two digits
        seen: dict[int, int] = {}  # a two-digit mask -> the first cell holding it
        for i in unit:
            m = cands[i]
            y = m & (m - 1)
            if y and not y & (y - 1):
                a = seen.setdefault(m, i)
                if a != i:
                    for j in unit:
                        if j != a and j != i and cands[j] & m:
                            cands[j] &= ~m
                            changed.append(j)
    return changed


def unit_places(cands: list[int], board: Board) -> list[int]:
    """places[u * size + d - 1]: bit p set when digit d can go in the p-th cell of unit u.
    Open cells only: after singles, a placed digit has no other place in its units."""
    size = board.size
    places = [0] * (3 * size * size)
    cell_units = board.lay.cell_units
    for i, m in enumerate(cands):
        if not m & (m - 1):
            continue
        (ur, pr), (uc, pc), (ub, pb) = cell_units[i]
        ur, uc, ub = ur * size - 1, uc * size - 1, ub * size - 1
        pr, pc, pb = 1 << pr, 1 << pc, 1 << pb
        while m:
            low = m & -m
            d = low.bit_length()
            places[ur + d] |= pr
            places[uc + d] |= pc
            places[ub + d] |= pb
            m ^= low
    return places


def naked_triples(cands: list[int], board: Board) -> list[int] | None:
    """Naked triples in the first unit that has one: the cells changed; None when a cell
    loses its last digit."""
    for unit in board.lay.geo.units:
        open_cells = [i for i in unit if cands[i] & (cands[i] - 1)]
        if len(open_cells) < 5:  # with four, a triple is the hidden single's mirror
            continue
        small = [i for i in open_cells if cands[i].bit_count() <= 3]
        changed = []
        for group in combinations(small, 3):
            union = cands[group[0]] | cands[group[1]] | cands[group[2]]
            if union.bit_count() != 3:
                continue
            for j in open_cells:
                if j not in group and cands[j] & union:
                    cands[j] &= ~union
                    if not cands[j]:
                        return None
                    changed.append(j)
        if changed:
            return changed
    return []


def pair_contradictions(cands: list[int], board: Board) -> list[int]:
    """In every two-digit cell where one digit, followed through singles, breaks the
    grid, that digit is ruled out: the cells changed."""
    geo = board.lay.geo
    changed = []
    for i, m in enumerate(cands):
        if not two_bits(m):
            continue
        low = m & -m
        for one in (low, m ^ low):
            trying = cands.copy()
            trying[i] = one
            if not propagate(trying, geo, [i]):
                cands[i] = m ^ one
                changed.append(i)
                break
    return changed


def two_bits(x: int) -> bool:
    """Exactly two bits set."""
    y = x & (x - 1)
    return bool(y) and not y & (y - 1)
