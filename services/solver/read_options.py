"""The values each reading of a grid may take, and a repaired reading."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from services.contracts import Reading
from services.solver.errors import PuzzleError
from services.solver.grid import cell_name
from services.solver.layouts import LOG_FLOOR
from services.solver.sudoku import GridAnswer

PRUNE_PROB = 1e-4  # readings less likely than this are left out of the model
COST_SCALE = 1000  # log-probabilities become integer costs in thousandths


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


def normalise_fixed(fixed: dict | None) -> dict[str, dict[tuple[int, int], int]]:
    """{"cells"|"cage_sums"|"walls_right"|"walls_down": {(r, c): value}}.

    Keys may be (r, c) tuples, "r,c" strings (as JSON has them), or the mapping may be a
    list of [r, c, value] triples.
    """
    out: dict[str, dict[tuple[int, int], int]] = {}
    for name, entries in (fixed or {}).items():
        if name not in ("cells", "cage_sums", "walls_right", "walls_down"):
            raise PuzzleError(f"fixed readings: unknown part {name!r}")
        items = entries.items() if isinstance(entries, dict) else (
            ((e[0], e[1]), e[2]) for e in entries)
        part = {}
        for key, value in items:
            if isinstance(key, str):
                key = tuple(int(k) for k in key.replace("(", "").replace(")", "").split(","))
            part[(int(key[0]), int(key[1]))] = int(value)
        out[name] = part
    return out


def cell_options(reading: Reading, fixed: dict[tuple[int, int], int]) -> list[Options]:
    n = reading.size
    if len(reading.cells) != n or any(len(row) != n for row in reading.cells):
        raise PuzzleError(f"the reading's cells are not a {n}x{n} grid")
    out = []
    for r, row in enumerate(reading.cells):
        for c, probs in enumerate(row):
            if len(probs) != n + 1 or any(p < 0 or p != p for p in probs):
                raise PuzzleError(f"cells[{r}][{c}] ({cell_name(r, c)}) needs {n + 1} "
                                  f"probabilities (blank, 1..{n}) that are not negative")
            total = sum(probs) or 1.0
            ranked = sorted(((v, p / total) for v, p in enumerate(probs)),
                            key=lambda vp: -vp[1])
            if (r, c) in fixed:
                v = fixed[(r, c)]
                if not 0 <= v <= n:
                    raise PuzzleError(f"the fixed {cell_name(r, c)}: {v} is not 0..{n}")
                out.append(Options("cell", r, c, [(v, 1.0)], True, ranked))
                continue
            kept = [vp for vp in ranked if vp[1] >= PRUNE_PROB] or ranked[:1]
            out.append(Options("cell", r, c, kept, alternatives=ranked))
    return out


def sum_options(reading: Reading, fixed: dict[tuple[int, int], int]) -> dict[tuple, Options]:
    out = {}
    for s in reading.cage_sums:
        ranked = sorted(((c.value, c.prob) for c in s.candidates), key=lambda vp: -vp[1])
        cell = tuple(s.cell)
        if cell in fixed:
            out[cell] = Options("cage_sum", *cell, [(fixed[cell], 1.0)], True, ranked)
        elif ranked:
            kept = [vp for vp in ranked if vp[1] >= PRUNE_PROB] or ranked[:1]
            out[cell] = Options("cage_sum", *cell, kept, alternatives=ranked)
    for cell, value in fixed.items():
        if cell not in out:
            out[cell] = Options("cage_sum", *cell, [(value, 1.0)], True)
    return out


def option_cost(options: Options, prob: float) -> int:
    top = options.values[0][1]
    return round(COST_SCALE * (math.log(max(top, LOG_FLOOR)) - math.log(max(prob, LOG_FLOOR))))


def log_prob(options: Options, value: int) -> float:
    return math.log(max(dict(options.values).get(value, 0.0), LOG_FLOOR))
