"""Forcing chains and trial: follow each choice of a cell (or each place of a digit in a
unit), or one candidate both ways, through the rules of hypothesis.py.

When every choice leads to the same digit somewhere, or removes the same candidate, that
result holds whichever choice is right: a forcing chain (a digit forcing chain when the
two choices are one candidate true and false; a nested one when each choice is followed
with a small trial of every two-digit cell inside it). Dearer kinds are looked for only
when cheaper ones find nothing. When one choice breaks the grid, that choice is false:
trial and error, the last resort of a person.
"""

from __future__ import annotations

from array import array
from functools import partial, reduce
from operator import or_

from services.solver.logic.board import (
    Board,
    Step,
    bit,
    describe_removal,
    digits_of,
    popcount,
)
from services.solver.logic.hypothesis import NESTED_RULES, RULES, follow

FORCING_CHAIN = "forcing chain"
DIGIT_FORCING_CHAIN = "digit forcing chain"
NESTED_FORCING_CHAIN = "nested forcing chain"
# Work limits in hypotheses followed (not seconds, so a path is the same on any machine).
FORCING_FOLLOWS = 600
TRIAL_FOLLOWS = 900
# hypotheses beyond the cell and unit choices: a candidate both ways, then nested
DIGIT_FOLLOWS = 60
NESTED_FOLLOWS = 60  # each one runs a small trial in every two-digit cell


def _choices(board: Board):
    """(label, [(cell, digit), ...]) of every open cell and every digit's places in a
    unit, fewest choices first. The label is a function giving the words, asked only for
    a step."""
    size = board.size
    cells: dict[int, list[int]] = {}  # width -> the open cells of that many digits
    for cell, mask in enumerate(board.cands):
        if not board.values[cell]:
            cells.setdefault(mask.bit_count(), []).append(cell)
    places: dict[int, list[tuple[int, int, list[int]]]] = {}  # width -> (unit, digit, cells)
    for u, by_digit in enumerate(board.places()):
        for d in range(1, size + 1):
            where = by_digit[d]
            places.setdefault(len(where), []).append((u, d, where))
    for width in range(2, size + 1):
        for cell in cells.get(width, ()):
            yield partial(board.name, cell), [(cell, d) for d in digits_of(board.cands[cell])]
        for u, d, where in places.get(width, ()):
            yield (partial("the {} of {}".format, d, board.unit_name(u)),
                   [(i, d) for i in where])


def forcing_chain_or_trial(board: Board, follows: int = FORCING_FOLLOWS) -> Step | None:
    """A forcing chain if one is found within the work limit, else a choice that breaks
    the grid."""
    # (cell, digit) -> (the candidates 'cell is digit' leads to, whether it breaks)
    followed: dict[tuple[int, int], tuple[list[int], bool]] = {}
    packed: dict[tuple[int, int], int] = {}  # the same candidates, _packed
    whole = _packed(board.cands)
    for label, options in _choices(board):
        if len(followed) > follows:
            break
        for cell, d in options:
            if (cell, d) not in followed:
                followed[(cell, d)] = found = follow(board, cell, bit(d))
                packed[(cell, d)] = _packed(found[0])
        if reduce(or_, map(packed.__getitem__, options)) == whole:
            continue  # as most choices: every candidate kept by one option or another
        step = _common_result(board, FORCING_CHAIN, partial(_either, board, options, label),
                              options, [followed[o][0] for o in options])
        if step:
            return step
    step = _digit_forcing_chain(board, followed)
    if step:
        return step
    step, broken_nested = _nested_forcing_chain(board, followed)
    if step:
        return step
    broken = [option for option, (_, breaks) in followed.items() if breaks]
    if broken:
        return _trial_step(board, broken)
    step = trial(board, TRIAL_FOLLOWS, followed)
    if step is None and broken_nested is not None:
        return _trial_step(board, [broken_nested], NESTED_RULES)
    return step


def _digit_forcing_chain(board: Board, followed, follows: int = DIGIT_FOLLOWS) -> Step | None:
    """One candidate followed both ways, true and false: what both lead to holds. Cells
    of two candidates are the cell choices already tried, so from three up."""
    work = 0
    cells = sorted((i for i, m in enumerate(board.cands)
                    if not board.values[i] and popcount(m) >= 3),
                   key=lambda i: popcount(board.cands[i]))
    for cell in cells:
        mask = board.cands[cell]
        for d in range(1, board.size + 1):
            if not mask & bit(d):
                continue
            if (cell, d) not in followed:
                work += 1
                followed[(cell, d)] = follow(board, cell, bit(d))
            work += 1
            if work > follows:
                return None
            on = followed[(cell, d)][0]
            off = follow(board, cell, mask & ~bit(d))[0]
            step = _common_result(board, DIGIT_FORCING_CHAIN,
                                  partial("Either {} is {} or it is not".format,
                                          board.name(cell), d), [(cell, d)], [on, off])
            if step:
                return step
    return None


def _nested_forcing_chain(board: Board, light: dict, follows: int = NESTED_FOLLOWS
                          ) -> tuple[Step | None, tuple[int, int] | None]:
    """The cell and unit choices again, each followed with a contradiction test of every
    two-digit cell inside it: much dearer, so only when nothing lighter is found. light:
    the same choices followed without it, to go on from. (the step, else a choice that
    then breaks the grid)."""
    followed: dict[tuple[int, int], tuple[list[int], bool]] = {}
    packed: dict[tuple[int, int], int] = {}  # the same candidates, _packed
    whole = _packed(board.cands)
    broken = None
    for label, options in _choices(board):
        if len(followed) > follows:
            break
        for cell, d in options:
            if (cell, d) not in followed:
                reached, breaks = light.get((cell, d), (None, False))
                followed[(cell, d)] = found = ((reached, True) if breaks else
                                               follow(board, cell, bit(d), True, reached))
                packed[(cell, d)] = _packed(found[0])
                broken = broken or ((cell, d) if found[1] else None)
        if reduce(or_, map(packed.__getitem__, options)) == whole:
            continue
        step = _common_result(board, NESTED_FORCING_CHAIN, partial(_either, board, options, label),
                              options, [followed[o][0] for o in options], NESTED_RULES)
        if step:
            return step, None
    return None, broken


def _packed(cands: list[int]) -> int:
    """Candidates as one number, cell after cell in fields of equal width: the OR of
    several is their cells' unions, and equal numbers are equal candidates."""
    return int.from_bytes(array("H" if len(cands) <= 256 else "L", cands).tobytes(), "little")


def _either(board: Board, options, label) -> str:
    said = " or ".join(f"{board.name(c)} is {d}" for c, d in options)
    return f"Either {said} ({label()})"


def _common_result(board: Board, technique: str, say, options, outcomes,
                   rules: str = RULES) -> Step | None:
    """Every digit placed and candidate removed whichever option holds, as one step.
    say: () -> the options in words, asked only when there is a step."""
    placements, elims = [], []
    unions = outcomes[0]
    for o in outcomes[1:]:
        unions = list(map(or_, unions, o))
    if unions == board.cands:
        return None  # as most choices: every candidate kept by one option or another
    for i, union, mask in zip(range(len(unions)), unions, board.cands):
        if union == mask or board.values[i]:
            continue
        if union & (union - 1) == 0:
            placements.append((i, union.bit_length()))
        else:
            elims += [(i, e) for e in range(1, board.size + 1) if mask & ~union & bit(e)]
    if not placements and not elims:
        return None
    made = ", ".join(f"{board.name(i)} {v}" for i, v in placements)
    results = ([f"makes {made}"] if placements else []) + (
        [f"removes {describe_removal(board, elims)}"] if elims else [])
    text = (f"{say()}. From each, following {rules}, every one {' and '.join(results)}, "
            "so that holds whichever is true.")
    return Step(technique, text,
                [c for c, _ in options] + sorted({i for i, _ in placements + elims}),
                placements=placements, eliminations=elims, digits=[d for _, d in options])


def _trial_step(board: Board, broken: list[tuple[int, int]], rules: str = RULES) -> Step:
    """Every candidate whose hypothesis broke the grid, removed in one step."""
    cell, d = broken[0]
    text = (f"Suppose {board.name(cell)} were {d}: following {rules} from there leaves "
            f"a cell or a digit with no place, so {board.name(cell)} is not {d}")
    if len(broken) > 1:
        text += f"; the same rules out {describe_removal(board, broken[1:])}"
    return Step("trial and error", text + ".", sorted({c for c, _ in broken}),
                eliminations=sorted(broken), digits=sorted({e for _, e in broken}))


def trial(board: Board, follows: int = TRIAL_FOLLOWS, followed=None) -> Step | None:
    """Assume a candidate of a cell with few of them; if following it breaks the grid,
    the candidate is false."""
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
            if follow(board, cell, bit(d))[1]:
                return _trial_step(board, [(cell, d)])
    return None
