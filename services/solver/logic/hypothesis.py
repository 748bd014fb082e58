"""Following a hypothesis: what a person can deduce, on raw candidate masks, from
"this cell holds only these digits".

Singles first, then locked candidates and naked and hidden pairs; only when those stall,
naked triples (dearer to look for, and needed less often). Nested, when all of those
stall: a digit of a two-digit cell goes when singles from it break the grid.
Every rule is sound, so a grid that breaks proves the hypothesis false, and whatever
several hypotheses, one of which holds, all lead to is true.
"""

from __future__ import annotations

from itertools import combinations, compress, islice, repeat
from operator import and_

from services.solver.logic.board import Board
from services.solver.logic.scans import memo_one, memo_scan
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
    reached: where the rules without nesting took the same hypothesis, to go on from.
    The answer is not to be changed: hypotheses meeting on the way share it."""
    if reached is None:
        good = board.cands.copy()
        good[cell] = mask
    else:
        good = reached
    cands = good.copy()
    geo = board.lay.geo
    # From the candidates after a pass of singles on, the rules go the same way whatever
    # led there: where they end is kept by those candidates, for the board's other
    # hypotheses that pass through them.
    ends = board.derived().setdefault("nested follow" if nested else "follow", {})
    passed = []
    # The board's own singles are struck from their peers already (as a person's pencil
    # marks are): only the cells changed here need following.
    changed: list[int] | None = [cell]
    # cells whose units may hold a hidden single: from a settled board, only this one;
    # after the first pass, the cells the other rules changed
    fresh = [cell] if reached is None and board.settled() else None
    # where the rules without nesting stopped, singles change nothing
    settled = reached is not None
    while True:
        if settled:
            settled = False
        elif not propagate(cands, geo, changed, fresh):
            end = good, True
            break
        state = tuple(cands)
        end = ends.get(state)
        if end is not None:
            break
        passed.append(state)
        good = cands.copy()
        if reached is not None and cands == reached:
            # where the rules without nesting stopped: locked candidates, pairs and
            # triples find nothing there, as they found then
            changed, reached = [], None
        else:
            changed = rules(cands, board)
        if changed == [] and nested:
            changed = pair_contradictions(cands, board)
        if changed is None:
            end = good, True
            break
        if not changed:
            end = good, False
            break
        fresh = changed
    for state in passed:
        ends[state] = end
    return end


def rules(cands: list[int], board: Board) -> list[int] | None:
    """One pass of the first rule of locked candidates, pairs and naked triples that
    changes something: the cells it changed; None when a cell loses its last digit."""
    changed = locked(cands, board)
    if changed:
        return changed
    found = subsets_found(cands, board)  # unchanged when pairs change nothing
    if not any(found):
        return []
    return pairs(cands, board, found) or naked_triples(cands, board, found)


def locked(cands: list[int], board: Board) -> list[int]:
    """One pass of pointing and claiming over bit masks, segment after segment, each
    seeing what the ones before it removed: the cells it changed."""
    lay = board.lay
    scans = lay.scans
    changed = []
    here, open_to = scans.segments(cands)
    k = 0
    while True:
        # the next segment whose digits are in just one of the rest of its line and box
        found = next(filter(None, islice(open_to, k, None)), 0)
        if not found:
            return changed
        k = open_to.index(found, k)
        mine = here[k]
        line, box = scans.outside(here, k)
        _, line_rest, box_rest = lay.segments[k]
        before = len(changed)
        for mask, rest in ((mine & ~box & line, line_rest),  # pointing
                           (mine & ~line & box, box_rest)):  # claiming
            if not mask:
                continue
            for i in rest:
                m = cands[i]
                if m & mask and m & (m - 1):
                    cands[i] = m & ~mask
                    changed.append(i)
        if len(changed) > before:
            here, open_to = scans.segments(cands)
        k += 1


# a unit's masks -> (what pairs do there, what naked triples do there), NOTHING when
# neither changes anything: most passes ask both of the same units, so one look-up
_SUBSETS: dict = {}


def _subsets_in(masks: tuple[int, ...]):
    # Most units hold neither: a pair needs a two-digit mask twice or two digits with
    # two places each sharing a cell twice, a triple three cells of at most three digits
    # with three between them. Only then the searches proper.
    once = twice = thrice = 0
    for m in masks:
        thrice |= twice & m
        twice |= once & m
        once |= m
    two = twice & ~thrice  # digits with exactly two places
    small = [m for m in masks if m & (m - 1) and m.bit_count() <= 3]
    doubles = [m for m in small if m.bit_count() == 2]
    repeated = len(set(doubles)) < len(doubles)
    pairs = None
    if repeated or two & (two - 1) and sum(
            1 for t in map(two.__and__, masks) if t & (t - 1)) > 1:
        pairs = _pairs_in(masks, two, repeated)
    triples = None
    if len(small) > 2 and _three_in_three(small):
        triples = _naked_triples_in(masks)
    return None if pairs is None and triples is None else (pairs, triples)


def subsets_found(cands: list[int], board: Board) -> list:
    """Per unit, what pairs and naked triples do there (memoised by its masks)."""
    return memo_scan(_SUBSETS, _subsets_in, board.lay.scans.unit_keys(cands))


def _three_in_three(small: list[int]) -> bool:
    """Whether three of these masks have three digits between them."""
    k = len(small)
    for x in range(k - 2):
        a = small[x]
        for y in range(x + 1, k - 1):
            ab = a | small[y]
            if ab.bit_count() <= 3:
                for z in range(y + 1, k):
                    if (ab | small[z]).bit_count() == 3:
                        return True
    return False


def pairs(cands: list[int], board: Board, found=None) -> list[int]:
    """One pass of naked and hidden pairs over bit masks: the cells it changed.
    found: subsets_found of these candidates, when already read."""
    changed = []
    lay = board.lay
    # Most passes change nothing: look at every unit at once, and go unit by unit (each
    # seeing what the ones before it changed) only from the first that changes something.
    found = found or subsets_found(cands, board)
    first = next((u for u, f in enumerate(found) if f and f[0]), None)
    if first is None:
        return changed
    for unit, masks_of in zip(lay.geo.units[first:], lay.geo.unit_masks[first:]):
        found = memo_one(_SUBSETS, _subsets_in, masks_of(cands))
        if found and found[0]:
            masks, where = found[0]
            for i, m in zip(unit, masks):
                cands[i] = m
            changed += [unit[k] for k in where]
    return changed


def _pairs_in(masks: tuple[int, ...], two: int, repeated: bool
              ) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """Naked and hidden pairs in one unit, by its masks alone: (the masks after them, the
    places changed, in order), or None when nothing changes. two: the digits with exactly
    two places; repeated: whether a two-digit mask is there twice."""
    cands = list(masks)
    unit = range(len(cands))
    changed = []
    if repeated:  # naked pair: its two digits are in these two cells (the last one found)
        seen: dict[int, int] = {}  # a two-digit mask -> the last cell holding it so far
        for i, m in enumerate(masks):
            if m.bit_count() == 2:
                if m in seen:
                    pair = (m, seen[m], i)
                seen[m] = i
        m, a, b = pair
        for j in unit:
            if j != a and j != b and cands[j] & m:
                cands[j] &= ~m
                changed.append(j)
    if two & (two - 1):
        places: dict[tuple[int, ...], int] = {}
        while two:
            low = two & -two
            two ^= low
            where = tuple(compress(unit, map(and_, cands, repeat(low))))
            places[where] = places.get(where, 0) | low
        for where, mask in places.items():
            if two_bits(mask):  # hidden pair: two digits only in these two cells
                for i in where:
                    if cands[i] & ~mask:
                        cands[i] &= mask
                        changed.append(i)
    return (tuple(cands), tuple(changed)) if changed else None


def naked_triples(cands: list[int], board: Board, found=None) -> list[int] | None:
    """Naked triples in the first unit that has one: the cells changed; None when a cell
    loses its last digit. found: subsets_found of these candidates, when already read."""
    lay = board.lay
    found = found or subsets_found(cands, board)
    first = next((u for u, f in enumerate(found) if f and f[1]), None)
    if first is None:
        return []
    if found[first][1] is BROKEN:
        return None
    masks, where = found[first][1]
    unit = lay.geo.units[first]
    for i, m in zip(unit, masks):
        cands[i] = m
    return [unit[k] for k in where]


BROKEN = "broken"


def _naked_triples_in(masks: tuple[int, ...]):
    """Naked triples in one unit, by its masks alone: (the masks after them, the places
    changed, in order), None when nothing changes, BROKEN when a cell loses its last digit."""
    cands = list(masks)
    open_cells = [i for i, m in enumerate(cands) if m & (m - 1)]
    if len(open_cells) < 5:  # with four, a triple is the hidden single's mirror
        return None
    small = [i for i in open_cells if cands[i].bit_count() <= 3]
    if len(small) < 3:
        return None
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
    lay = board.lay
    geo = lay.geo
    changed = []
    # only the cell tried changes as it goes, so the two-digit cells can be listed first
    cells = list(compress(range(len(cands)), map(lay.scans.two_bits.__getitem__, cands)))
    # Until a digit is ruled out, every trial starts from these same candidates, which
    # singles leave as they are: a digit that a trial not breaking the grid places holds
    # whenever the trial's digit does, so trying it alone cannot break the grid either
    # (singles only ever remove candidates). Such trials are skipped.
    holds: dict[int, int] = {}  # cell -> the digits (bits) known not to break it
    for n, i in enumerate(cells):
        m = cands[i]
        low = m & -m
        for one in (low, m ^ low):
            if not changed and holds.get(i, 0) & one:
                continue
            trying = cands.copy()
            trying[i] = one
            if not propagate(trying, geo, [i], [i, *changed]):
                cands[i] = m ^ one
                changed.append(i)
                break
            if not changed:
                for j in cells[n + 1:]:
                    t = trying[j]
                    if not t & (t - 1):
                        holds[j] = holds.get(j, 0) | t
    return changed


def two_bits(x: int) -> bool:
    """Exactly two bits set."""
    y = x & (x - 1)
    return bool(y) and not y & (y - 1)
