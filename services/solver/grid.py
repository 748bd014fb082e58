"""Sudoku geometry (rows, columns, boxes of any shape) and checks of the facts given."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache
from operator import itemgetter

from services.solver.errors import PuzzleError

MIN_SIZE = 4
MAX_SIZE = 25


def default_box(size: int) -> tuple[int, int]:
    """The usual box shape for a side: rows x cols with rows <= cols, as square as possible."""
    rows = int(size**0.5)
    while size % rows:
        rows -= 1
    return rows, size // rows


@dataclass(frozen=True)
class Geometry:
    """Cells are numbered r * size + c; a unit is a row, a column or a box."""

    size: int
    box: tuple[int, int]
    units: tuple[tuple[int, ...], ...]
    peers: tuple[tuple[int, ...], ...]
    unit_names: tuple[str, ...]

    @property
    def cells(self) -> int:
        return self.size * self.size

    @property
    def full(self) -> int:
        return (1 << self.size) - 1

    @cached_property
    def units_of(self) -> tuple[tuple[int, ...], ...]:
        """The numbers of the units each cell is in."""
        return tuple(tuple(u for u, unit in enumerate(self.units) if i in unit)
                     for i in range(self.cells))

    @cached_property
    def unit_bits(self) -> tuple[int, ...]:
        """The units each cell is in, as bit sets (bit u for unit u)."""
        return tuple(sum(1 << u for u in us) for us in self.units_of)

    @cached_property
    def unit_masks(self) -> tuple[itemgetter, ...]:
        """Per unit: candidates -> the tuple of its cells' masks."""
        return tuple(itemgetter(*unit) for unit in self.units)


@lru_cache(maxsize=32)
def geometry(size: int, box: tuple[int, int] | None = None) -> Geometry:
    box = check_shape(size, box)
    br, bc = box
    rows = [tuple(r * size + c for c in range(size)) for r in range(size)]
    cols = [tuple(r * size + c for r in range(size)) for c in range(size)]
    boxes = [
        tuple((r0 + r) * size + c0 + c for r in range(br) for c in range(bc))
        for r0 in range(0, size, br)
        for c0 in range(0, size, bc)
    ]
    names = ([f"row {r + 1}" for r in range(size)] + [f"column {c + 1}" for c in range(size)]
             + [f"box {b + 1}" for b in range(size)])
    units = tuple(rows + cols + boxes)
    peer_sets: list[set[int]] = [set() for _ in range(size * size)]
    for unit in units:
        for i in unit:
            peer_sets[i].update(unit)
    peers = tuple(tuple(sorted(p - {i})) for i, p in enumerate(peer_sets))
    return Geometry(size, box, units, peers, tuple(names))


def check_shape(size: int, box: tuple[int, int] | list[int] | None) -> tuple[int, int]:
    """The box shape to use; PuzzleError when size and box do not make a sudoku."""
    if not isinstance(size, int) or size < MIN_SIZE or size > MAX_SIZE:
        raise PuzzleError(f"grid size must be between {MIN_SIZE} and {MAX_SIZE}, got {size}")
    if box is None:
        box = default_box(size)
    br, bc = box
    if br < 1 or bc < 1 or br * bc != size:
        raise PuzzleError(f"a box of {br}x{bc} does not fit a {size}x{size} grid "
                          f"(box rows x box columns must equal {size})")
    return int(br), int(bc)


def check_givens(givens: list[list[int]] | None, size: int, what: str = "givens") -> None:
    """PuzzleError unless givens is a size x size grid of 0..size."""
    if givens is None:
        return
    if len(givens) != size:
        raise PuzzleError(f"{what} have {len(givens)} rows, expected {size}")
    for r, row in enumerate(givens):
        if len(row) != size:
            raise PuzzleError(f"{what}: row {r + 1} has {len(row)} cells, expected {size}")
        for c, v in enumerate(row):
            if not isinstance(v, int) or v < 0 or v > size:
                raise PuzzleError(f"{what}: {cell_name(r, c)} holds {v!r}; "
                                  f"digits must be 1..{size} (0 for blank)")


def cell_name(r: int, c: int) -> str:
    """A cell as people count: 1-based, spelled out."""
    return f"row {r + 1}, column {c + 1}"


def json_cell(r: int, c: int) -> str:
    """A cell of a typed-in puzzle as its JSON writes it, 0-based [row, col], with the
    words a person counts in."""
    return f"[{r}, {c}] ({cell_name(r, c)})"


def ordinal(k: int) -> str:
    """1st, 2nd, 3rd, 4th, ..., 11th, 12th, 13th, 21st: the k-th of a list as people
    count, where the JSON list itself counts from 0."""
    tail = "th" if k % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(k % 10, "th")
    return f"{k}{tail}"
