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
    """One pass of naked and hidden pairs over bit masks: the cells it changed."""
    changed = []
    for unit in board.lay.geo.units:
        once = twice = thrice = 0
        seen: dict[int, int] = {}  # a two-digit mask -> the first cell holding it
        pair = None
        for i in unit:
            m = cands[i]
            thrice |= twice & m
            twice |= once & m
            once |= m
            if two_bits(m):
                if m in seen:
                    pair = (m, seen[m], i)
                seen[m] = i
        if pair:  # naked pair: its two digits are in these two cells
            m, a, b = pair
            for j in unit:
                if j != a and j != b and cands[j] & m:
                    cands[j] &= ~m
                    changed.append(j)
        two = twice & ~thrice  # digits with exactly two places
        if two & (two - 1):
            places: dict[tuple[int, ...], int] = {}
            while two:
                low = two & -two
                two ^= low
                where = tuple(i for i in unit if cands[i] & low)
                places[where] = places.get(where, 0) | low
            for where, mask in places.items():
                if two_bits(mask):  # hidden pair: two digits only in these two cells
                    for i in where:
                        if cands[i] & ~mask:
                            cands[i] &= mask
                            changed.append(i)
    return changed


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
