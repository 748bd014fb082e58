"""Following a hypothesis: what a person can deduce, on raw candidate masks, from
"this cell holds only these digits".

Singles first, then locked candidates and naked and hidden pairs; only when those stall,
naked triples (dearer to look for, and needed less often). Nested, when all of those
stall: a digit of a two-digit cell goes when singles from it break the grid.
Every rule is sound, so a grid that breaks proves the hypothesis false, and whatever
several hypotheses, one of which holds, all lead to is true.
"""

from __future__ import annotations

from functools import lru_cache, reduce
from itertools import combinations
from operator import or_

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
    # cells whose units may hold a hidden single: from a settled board, only this one;
    # after the first pass, the cells the other rules changed
    fresh = [cell] if reached is None and board.settled() else None
    while True:
        if not propagate(cands, geo, changed, fresh):
            return good, True
        good = cands.copy()
        changed = locked(cands, board) or pairs(cands, board) or naked_triples(cands, board)
        if changed == [] and nested:
            changed = pair_contradictions(cands, board)
        if changed is None:
            return good, True
        if not changed:
            return good, False
        fresh = changed


def locked(cands: list[int], board: Board) -> list[int]:
    """One pass of pointing and claiming over bit masks: the cells it changed."""
    lay = board.lay
    changed = []
    here = _segment_unions(cands, lay)  # cells already down to one digit count as its place
    for k, parts in enumerate(lay.segment_parts):
        mine = here[k]
        if len(parts) == 4:  # the rest of the line, of the box: two segments each
            line_out, box_out = here[parts[0]] | here[parts[1]], here[parts[2]] | here[parts[3]]
        else:
            half = len(parts) // 2
            line_out = reduce(or_, (here[j] for j in parts[:half]))
            box_out = reduce(or_, (here[j] for j in parts[half:]))
        if not mine & (line_out ^ box_out):
            continue  # neither pointing nor claiming
        _, line_rest, box_rest = lay.segments[k]
        before = len(changed)
        for mask, rest in ((mine & ~box_out & line_out, line_rest),  # pointing
                           (mine & ~line_out & box_out, box_rest)):  # claiming
            if not mask:
                continue
            for i in rest:
                m = cands[i]
                if m & mask and m & (m - 1):
                    cands[i] = m & ~mask
                    changed.append(i)
        if len(changed) > before:
            here = _segment_unions(cands, lay)
    return changed


def _segment_unions(cands: list[int], lay) -> list[int]:
    """The digits of each segment (where a box meets a line), then 0 for 'no segment'."""
    if lay.geo.box == (3, 3):
        return [cands[a] | cands[b] | cands[c] for a, b, c in lay.segment_cells] + [0]
    return [reduce(or_, (cands[i] for i in cells)) for cells in lay.segment_cells] + [0]


def pairs(cands: list[int], board: Board) -> list[int]:
    """One pass of naked and hidden pairs over bit masks: the cells it changed."""
    changed = []
    lay = board.lay
    # Most passes change nothing: look at every unit at once, and go unit by unit (each
    # seeing what the ones before it changed) only from the first that changes something.
    first = next((u for u, found in enumerate([_pairs_in(masks_of(cands))
                                                 for masks_of in lay.geo.unit_masks]) if found),
                 None)
    if first is None:
        return changed
    for unit, masks_of in zip(lay.geo.units[first:], lay.geo.unit_masks[first:]):
        found = _pairs_in(masks_of(cands))
        if found:
            masks, where = found
            for i, m in zip(unit, masks):
                cands[i] = m
            changed += [unit[k] for k in where]
    return changed


@lru_cache(maxsize=1 << 16)
def _pairs_in(masks: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Naked and hidden pairs in one unit, by its masks alone: (the masks after them, the
    places changed, in order), or None when nothing changes."""
    cands = list(masks)
    unit = range(len(cands))
    changed = []
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
    return (tuple(cands), tuple(changed)) if changed else None


def naked_triples(cands: list[int], board: Board) -> list[int] | None:
    """Naked triples in the first unit that has one: the cells changed; None when a cell
    loses its last digit."""
    lay = board.lay
    for unit, found in zip(lay.geo.units, [_naked_triples_in(masks_of(cands))
                                           for masks_of in lay.geo.unit_masks]):
        if found is BROKEN:
            return None
        if found:
            masks, where = found
            for i, m in zip(unit, masks):
                cands[i] = m
            return [unit[k] for k in where]
    return []


BROKEN = "broken"


@lru_cache(maxsize=1 << 16)
def _naked_triples_in(masks: tuple[int, ...]):
    """Naked triples in one unit, by its masks alone: (the masks after them, the places
    changed, in order), None when nothing changes, BROKEN when a cell loses its last digit."""
    cands = list(masks)
    open_cells = [i for i, m in enumerate(cands) if m & (m - 1)]
    if len(open_cells) < 5:  # with four, a triple is the hidden single's mirror
        return None
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
                    return BROKEN
                changed.append(j)
    return (tuple(cands), tuple(changed)) if changed else None


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
            if not propagate(trying, geo, [i], [i, *changed]):
                cands[i] = m ^ one
                changed.append(i)
                break
    return changed


def two_bits(x: int) -> bool:
    """Exactly two bits set."""
    y = x & (x - 1)
    return bool(y) and not y & (y - 1)
