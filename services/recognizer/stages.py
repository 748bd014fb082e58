"""The stages of the reader a picture entered, in order: the Reading's `stages`.

Each costly stage (the nonogram clue reader, the cage reader, the half-solved reading)
runs behind a cheap look that rules it out where the picture plainly needs it not; the
record lets tests see that a picture the cheap evidence rules out does not pay for it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_entered: ContextVar[list[str] | None] = ContextVar("stages_entered", default=None)


def enter(stage: str) -> None:
    """Note that the picture being read entered `stage` (nothing when none is recorded)."""
    stages = _entered.get()
    if stages is not None:
        stages.append(stage)


@contextmanager
def recording() -> Iterator[list[str]]:
    """The stages entered inside the block, in order."""
    stages: list[str] = []
    token = _entered.set(stages)
    try:
        yield stages
    finally:
        _entered.reset(token)
