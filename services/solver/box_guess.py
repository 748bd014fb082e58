"""A box shape the picture could not show, settled by the digits read.

Some pictures draw box lines as thin as the others (a 6x6 screenshot with one-pixel
lines): 2x3 and 3x2 boxes then look the same, and the recognizer guesses. The digits
still tell: a puzzle is printed so that its shape gives it one solution, and with the
other shape the same digits mostly have none, or several (a 6x6 with 10 givens). A
guessed shape is kept as sure only when its reading, unchanged, has a unique solution
and the same digits have no unique one with the other shape; the other shape is taken
instead when the roles are the other way round. Anything else stays a guess for a
person.
"""

from __future__ import annotations

from collections.abc import Callable

from services.contracts import Reading, SolveResult
from services.solver.grid import check_shape, geometry
from services.solver.sudoku import solve_grid

CHECK_SECONDS = 2.0  # a verdict on a 6x6..12x12 grid takes milliseconds


def other_shape(size: int, box) -> tuple[int, int] | None:
    """The box shape a guessed one may be mistaken for (2x3 <-> 3x2); None for square boxes."""
    rows, cols = check_shape(size, box)
    return None if rows == cols else (cols, rows)


def _no_puzzle(size: int, box: tuple[int, int], givens) -> bool:
    """Whether the digits make no proper puzzle with this shape (no or several solutions;
    a time-out proves nothing)."""
    verdict = solve_grid(geometry(size, box), givens, None, CHECK_SECONDS).verdict
    return verdict in ("none", "multiple")


def _clean(result: SolveResult) -> bool:
    return result.status == "solved" and not result.suspects and not result.uncertain


def settled_by_digits(reading: Reading, result: SolveResult,
                      solve: Callable[[Reading], SolveResult]) -> SolveResult | None:
    """The result with the box shape the digits settle (`result` itself, or `solve` run on
    the reading with the other shape), or None when they do not settle it. `result` is
    the reading solved with its guessed shape."""
    if reading.kind != "sudoku":
        return None
    other = other_shape(reading.size, reading.box)
    if other is None:
        return None
    guessed = check_shape(reading.size, reading.box)
    if _clean(result):
        return result if _no_puzzle(reading.size, other, result.puzzle.givens) else None
    turned = solve(reading.model_copy(update={"box": other}))
    if _clean(turned) and _no_puzzle(reading.size, guessed, turned.puzzle.givens):
        return turned
    return None
