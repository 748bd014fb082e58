"""The values each reading of a grid may take, and a repaired reading."""

from __future__ import annotations

from dataclasses import dataclass, field

from services.solver.sudoku import GridAnswer


@dataclass
class Options:
    """The values one reading may take, most probable first: (value, prob)."""

    what: str  # "cell" or "cage_sum"
    row: int
    col: int
    values: list[tuple[int, float]]
    fixed: bool = False  # typed by a person
    alternatives: list[tuple[int, float]] = field(default_factory=list)
    locked: bool = False  # confident, and a person has corrected the grid: kept as read

    @property
    def best(self) -> int:
        return self.values[0][0]

    def prob(self, value: int) -> float:
        return dict(self.alternatives or self.values).get(value, 0.0)


@dataclass
class Outcome:
    cells: list[int]  # chosen read value per cell, 0 = blank
    sums: list[int]  # chosen sum per cage
    answer: GridAnswer
    log_prob: float

