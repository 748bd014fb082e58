"""The pencil-mark board a person works on: candidates as bit masks, units precomputed.

Cells are numbered r * size + c. A candidate mask has bit d-1 set while digit d is still
possible; a placed cell keeps only its digit's bit and has a value.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from services.solver.grid import Geometry, geometry
from services.solver.logic.scans import Scans, scans_of
from services.solver.propagate import digits, propagate


def bit(d: int) -> int:
    return 1 << (d - 1)


digits_of = digits  # a candidate mask's digits, lowest first (shared with propagation)


def popcount(mask: int) -> int:
    return mask.bit_count()


def rc(cell: int, size: int) -> tuple[int, int]:
    return divmod(cell, size)


@dataclass(frozen=True)
class Layout:
    """Units and peers of one grid shape, in the forms the techniques want."""

    geo: Geometry
    rows: tuple[tuple[int, ...], ...]
    cols: tuple[tuple[int, ...], ...]
    boxes: tuple[tuple[int, ...], ...]
    box_of: tuple[int, ...]
    peer_sets: tuple[frozenset[int], ...]
    peer_bits: tuple[int, ...]  # the same as bit sets (bit i for cell i)
    unit_sets: tuple[frozenset[int], ...]
    # where a box meets a row or column: (the shared cells, the rest of the line, the
    # rest of the box), for locked candidates
    segments: tuple[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], ...]
    # per segment: the other segments of its line, then the other segments of its box
    # that lie along lines of the same kind (which make up the rest of the line and of the
    # box), as many of each for every segment: index len(segments) stands for none
    segment_parts: tuple[tuple[int, ...], ...]
    segment_cells: tuple[tuple[int, ...], ...]  # the shared cells of each segment

    @cached_property
    def scans(self) -> Scans:
        """Getters for scanning every unit or segment at once (scans.py)."""
        return scans_of(self)


@lru_cache(maxsize=32)
def layout(size: int, box: tuple[int, int]) -> Layout:
    geo = geometry(size, box)
    rows, cols, boxes = geo.units[:size], geo.units[size:2 * size], geo.units[2 * size:]
    box_of = [0] * geo.cells
    for b, unit in enumerate(boxes):
        for i in unit:
            box_of[i] = b
    segments, where = [], []
    for b, box_cells in enumerate(boxes):
        for line, cells in enumerate((*rows, *cols)):
            shared = [i for i in cells if i in box_cells]
            if shared:
                segments.append((tuple(shared), tuple(i for i in cells if i not in shared),
                                 tuple(i for i in box_cells if i not in shared)))
                where.append((b, line))
    # the rest of a segment's line (box) is the other segments of that line (of that
    # box, across lines of the same kind)
    parts = [([k for k, (b2, l2) in enumerate(where) if l2 == line and b2 != b],
              [k for k, (b2, l2) in enumerate(where)
               if b2 == b and l2 != line and (l2 < size) == (line < size)])
             for b, line in where]
    width = max(1, *(len(p) for pair in parts for p in pair))
    none = [len(segments)] * width
    parts = [tuple((line_parts + none)[:width] + (box_parts + none)[:width])
             for line_parts, box_parts in parts]
    return Layout(geo, rows, cols, boxes, tuple(box_of),
                  tuple(frozenset(p) for p in geo.peers),
                  tuple(sum(1 << i for i in p) for p in geo.peers),
                  tuple(frozenset(u) for u in geo.units), tuple(segments), tuple(parts),
                  tuple(shared for shared, _, _ in segments))


@dataclass
class Cage:
    cells: tuple[int, ...]
    total: int


@dataclass
class Board:
    """Candidates and values of a grid in progress, with killer cages if any."""

    size: int
    box: tuple[int, int]
    cands: list[int]
    values: list[int]
    cages: list[Cage] = field(default_factory=list)
    # killer: the other cells of each cell's cage (digits in a cage differ)
    cage_mates: dict[int, tuple[int, ...]] = field(default_factory=dict)
    # answers of cage searches by their cells, sum and candidates (shared by copies)
    memo: dict = field(default_factory=dict)
    # what techniques work out from the candidates, and the state of the board it is for
    _derived: tuple = field(default_factory=lambda: ((), (), {}), repr=False, compare=False)

    @classmethod
    def start(cls, givens: list[list[int]] | None, size: int, box: tuple[int, int],
              cages: list[tuple[list[tuple[int, int]], int]] | None = None) -> Board:
        full = (1 << size) - 1
        board = cls(size, box, [full] * (size * size), [0] * (size * size),
                    [Cage(tuple(r * size + c for r, c in cells), total)
                     for cells, total in (cages or [])])
        for cage in board.cages:
            for i in cage.cells:
                board.cage_mates[i] = tuple(j for j in cage.cells if j != i)
        for r, row in enumerate(givens or []):
            for c, v in enumerate(row):
                if v:
                    board.place(r * size + c, v)
        return board

    @property
    def lay(self) -> Layout:
        return layout(self.size, self.box)

    def copy(self) -> Board:
        return Board(self.size, self.box, self.cands.copy(), self.values.copy(), self.cages,
                     self.cage_mates, self.memo)

    def place(self, cell: int, d: int) -> None:
        """Place d, and strike it from the peers, as a person updating pencil marks does."""
        b = bit(d)
        self.values[cell] = d
        self.cands[cell] = b
        for p in self.lay.geo.peers[cell]:
            self.cands[p] &= ~b
        for p in self.cage_mates.get(cell, ()):
            self.cands[p] &= ~b

    def differ(self, a: int, b: int) -> bool:
        """Whether two cells must hold different digits."""
        return b in self.lay.peer_sets[a] or b in self.cage_mates.get(a, ())

    def eliminate(self, cell: int, d: int) -> None:
        self.cands[cell] &= ~bit(d)

    def solved(self) -> bool:
        return all(self.values)

    def broken(self) -> bool:
        """A cell without candidates, or a digit with no place left in a unit."""
        if any(m == 0 for m in self.cands):
            return True
        full = (1 << self.size) - 1
        for unit in self.lay.geo.units:
            seen = 0
            for i in unit:
                seen |= self.cands[i]
            if seen != full:
                return True
        return False

    def derived(self) -> dict:
        """A store for what is worked out from this state of the board (emptied when the
        state changes), so that techniques asking the same share one answer."""
        cands, values, store = self._derived
        if cands != self.cands or values != self.values:
            store = {}
            self._derived = (self.cands.copy(), self.values.copy(), store)
        return store

    def places(self) -> list[list[list[int]]]:
        """places()[u][d]: the open cells of unit u where d can go, in the unit's order."""
        derived = self.derived()
        if "places" not in derived:
            values, cands = self.values, self.cands
            found = []
            for unit in self.lay.geo.units:
                by_digit: list[list[int]] = [[] for _ in range(self.size + 1)]
                for i in unit:
                    if not values[i]:
                        m = cands[i]
                        while m:
                            low = m & -m
                            by_digit[low.bit_length()].append(i)
                            m ^= low
                found.append(by_digit)
            derived["places"] = found
        return derived["places"]

    def settled(self) -> bool:
        """Whether singles (as propagate finds them) change nothing here."""
        derived = self.derived()
        if "settled" not in derived:
            cands = self.cands.copy()
            derived["settled"] = propagate(cands, self.lay.geo) and cands == self.cands
        return derived["settled"]

    def name(self, cell: int) -> str:
        r, c = divmod(cell, self.size)
        return f"r{r + 1}c{c + 1}"

    def names(self, cells) -> str:
        return ", ".join(self.name(i) for i in cells)

    def unit_name(self, u: int) -> str:
        return self.lay.geo.unit_names[u]


@dataclass
class Step:
    """One deduction: what proves it and what it changes, in cells and in words."""

    technique: str
    text: str
    cells: list[int]  # the proving cells
    placements: list[tuple[int, int]] = field(default_factory=list)  # (cell, digit)
    eliminations: list[tuple[int, int]] = field(default_factory=list)  # (cell, digit)
    digits: list[int] = field(default_factory=list)  # the proving digits

    def apply(self, board: Board) -> None:
        for cell, d in self.eliminations:
            board.eliminate(cell, d)
        for cell, d in self.placements:
            board.place(cell, d)

    def as_dict(self, size: int) -> dict:
        def where(cell, d):
            r, c = divmod(cell, size)
            return {"row": r, "col": c, "value": d}
        return {
            "technique": self.technique,
            "text": self.text,
            "cells": [list(divmod(i, size)) for i in self.cells],
            "digits": self.digits,
            "placements": [where(i, d) for i, d in self.placements],
            "eliminations": [where(i, d) for i, d in self.eliminations],
        }


def eliminations_step(technique: str, text: str, cells, elims, digits=()) -> Step | None:
    """A step only when it removes something."""
    elims = sorted(set(elims))
    if not elims:
        return None
    return Step(technique, text, sorted(set(cells)), eliminations=elims, digits=sorted(set(digits)))


def describe_removal(board: Board, elims) -> str:
    """'7 from r4c1, r4c2 and 3 from r5c5'."""
    by_digit: dict[int, list[int]] = {}
    for cell, d in sorted(set(elims)):
        by_digit.setdefault(d, []).append(cell)
    return "; ".join(f"{d} from {board.names(cells)}" for d, cells in sorted(by_digit.items()))
