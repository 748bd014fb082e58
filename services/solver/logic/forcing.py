"""Forcing chains and trial: follow each choice of a cell (or each place of a digit in a
unit) through singles.

When every choice leads to the same digit somewhere, or removes the same candidate, that
result holds whichever choice is right: a forcing chain. When one choice breaks the grid,
that choice is false: trial and error, the last resort of a person.
"""

from __future__ import annotations

from services.solver.logic.board import Board, Step, bit, describe_removal, popcount
from services.solver.propagate import propagate

# Work limits in choices followed (not seconds, so a path is the same on any machine).
FORCING_FOLLOWS = 600
TRIAL_FOLLOWS = 900
# choices of a cell or of a digit's places in a unit: few, so each is followed cheaply
WIDTHS = (2, 3)


def _follow(board: Board, cell: int, d: int) -> list[int] | None:
    """Candidates after singles, locked candidates and pairs from 'cell is d'; None when
    the grid breaks."""
    cands = board.cands.copy()
    cands[cell] = bit(d)
    geo = board.lay.geo
    # The board's own singles are struck from their peers already (as a person's pencil
    # marks are): only the cells changed here need following.
    changed = [cell]
    while True:
        if not propagate(cands, geo, changed):
            return None
        changed = _locked(cands, board) or _pairs(cands, board)
        if not changed:
            return cands


def _locked(cands: list[int], board: Board) -> list[int]:
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


def _pairs(cands: list[int], board: Board) -> list[int]:
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
            if _two(m):
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
                if _two(mask):  # hidden pair: two digits only in these two cells
                    for i in where:
                        if cands[i] & ~mask:
                            cands[i] &= mask
                            changed.append(i)
    return changed


def _two(x: int) -> bool:
    """Exactly two bits set."""
    y = x & (x - 1)
    return bool(y) and not y & (y - 1)


def _choices(board: Board):
    """(label, [(cell, digit), ...]) of cells and unit places with few choices, fewest
    first."""
    for width in WIDTHS:
        for cell, mask in enumerate(board.cands):
            if not board.values[cell] and popcount(mask) == width:
                yield board.name(cell), [(cell, d) for d in range(1, board.size + 1)
                                         if mask & bit(d)]
        for u, unit in enumerate(board.lay.geo.units):
            for d in range(1, board.size + 1):
                where = board.cells_with(unit, d)
                if len(where) == width:
                    yield f"the {d} of {board.unit_name(u)}", [(i, d) for i in where]


def forcing_chain_or_trial(board: Board, follows: int = FORCING_FOLLOWS) -> Step | None:
    """A forcing chain if one is found within the work limit, else a choice that breaks
    the grid."""
    followed: dict[tuple[int, int], list[int] | None] = {}
    broken = None
    for label, options in _choices(board):
        if len(followed) > follows:
            break
        outcomes = []
        for option in options:
            if option not in followed:
                followed[option] = _follow(board, *option)
            outcomes.append(followed[option])
            if outcomes[-1] is None:
                broken = broken or option
                break
        else:
            step = _common_result(board, label, options, outcomes)
            if step:
                return step
    if broken is None:
        return trial(board, TRIAL_FOLLOWS, followed)
    return _trial_step(board, *broken)


def _common_result(board: Board, label: str, options, outcomes) -> Step | None:
    """Every digit placed and candidate removed whichever option holds, as one step."""
    placements, elims = [], []
    for i, mask in enumerate(board.cands):
        if board.values[i]:
            continue
        union = 0
        for o in outcomes:
            union |= o[i]
        if union == mask:
            continue
        if union & (union - 1) == 0:
            placements.append((i, union.bit_length()))
        else:
            elims += [(i, e) for e in range(1, board.size + 1) if mask & ~union & bit(e)]
    if not placements and not elims:
        return None
    said = " or ".join(f"{board.name(c)} is {d}" for c, d in options)
    made = ", ".join(f"{board.name(i)} {v}" for i, v in placements)
    results = ([f"makes {made}"] if placements else []) + (
        [f"removes {describe_removal(board, elims)}"] if elims else [])
    text = (f"Either {said} ({label}); following singles from each, every one "
            f"{' and '.join(results)}, so that holds whichever is true.")
    return Step("forcing chain", text,
                [c for c, _ in options] + sorted({i for i, _ in placements + elims}),
                placements=placements, eliminations=elims, digits=[d for _, d in options])


def _trial_step(board: Board, cell: int, d: int) -> Step:
    text = (f"Suppose {board.name(cell)} were {d}: following singles from there leaves a "
            f"cell or a digit with no place, so {board.name(cell)} is not {d}.")
    return Step("trial and error", text, [cell], eliminations=[(cell, d)], digits=[d])


def trial(board: Board, follows: int = TRIAL_FOLLOWS, followed=None) -> Step | None:
    """Assume a candidate of a cell with few of them; if singles then break the grid, the
    candidate is false."""
    followed = followed or {}
    done = 0
    open_cells = sorted((i for i in range(len(board.values)) if not board.values[i]),
                        key=lambda i: popcount(board.cands[i]))
    for cell in open_cells:
        for d in range(1, board.size + 1):
            if not board.cands[cell] & bit(d) or (cell, d) in followed:
                continue
            done += 1
            if done > follows:
                return None
            if _follow(board, cell, d) is None:
                return _trial_step(board, cell, d)
    return None
