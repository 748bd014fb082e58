"""A located grid read as a killer, upright or as shown, and the evidence that it is one."""

from __future__ import annotations

import numpy as np

from services.recognizer.cells.orientation import turn_picture, turn_points
from services.recognizer.grid.lattice import SIZE, corners_of
from services.recognizer.grid.shape import box_fields
from services.recognizer.killer.kind import (
    cage_sum_range,
    hidden_cages,
    killer_probability,
    min_heads,
    numbers_total,
    region_sum_range,
)
from services.recognizer.killer.reading import read_killer, regions, unread
from services.recognizer.killer.tuning import SURE_SUM


def read_upright_killer(gray: np.ndarray, colour: np.ndarray, corners: np.ndarray,
                        turns: int, n: int = SIZE, box: tuple[int, int] = (3, 3)):
    """The killer reader run on the picture turned upright (cage sums sit in the top-left
    corners of their cells), with its lattice brought back to `gray`'s pixels. `box`: the
    boxes' rows and columns, upright."""
    if not turns:
        return read_killer(gray, corners, colour, n, box)
    killer = read_killer(turn_picture(gray, turns), turn_points(corners, turns, gray.shape),
                         turn_picture(colour, turns), n, box)
    turned_shape = gray.shape if turns % 2 == 0 else gray.shape[::-1]
    killer.lattice = turn_points(killer.lattice, 4 - turns, turned_shape)
    return killer


def killer_evidence(killer, n: int) -> float:
    """The probability that an n x n grid the killer reader read is a killer (killer/kind.py)."""
    illegible = set(killer.illegible)
    cages = regions(killer.walls_right, killer.walls_down)
    # Regions too large for a cage: walls missed, their numbers and sums taken together.
    joined = {cell for cage in cages if len(cage) > n for cell in cage}
    legible = [s for s in killer.sums if tuple(s.cell) not in illegible]
    inside = [s for s in legible if tuple(s.cell) in joined and not unread(s)]
    legible = [s for s in legible if tuple(s.cell) not in joined]
    head_sums = [s.candidates[0] for s in legible if tuple(s.cell) in killer.heads]
    total = numbers_total(sum(top.value for top in head_sums),
                          sum(s.candidates[0].value for s in legible if not unread(s)), n)
    cage_size = {min(cage): len(cage) for cage in cages}
    bounds = [cage_sum_range(cage_size.get(cell, 1), n) for cell in illegible
              if cell not in joined]
    bounds += [region_sum_range(len(cage), n) for cage in cages if len(cage) > n]
    heads, numbered = len(killer.heads), killer.numbered_heads
    marked = {tuple(s.cell) for s in inside} | illegible
    for cage in (cage for cage in cages if len(cage) > n):
        heads += hidden_cages(len(cage), n) - 1
        numbered += min(hidden_cages(len(cage), n), len(marked & set(cage))) \
            - int(min(cage) in marked)
    doubtful = [cage_sum_range(cage_size.get(tuple(s.cell), 1), n) for s in legible
                if tuple(s.cell) in killer.heads and s.candidates[0].prob < SURE_SUM]
    return killer_probability(
        killer.walls_right, killer.walls_down, heads, numbered, total,
        doubtful_total=sum(top.value for top in head_sums if top.prob < SURE_SUM),
        unknown=(sum(lo for lo, _ in bounds), sum(hi for _, hi in bounds)),
        placed=killer.placed,
        doubtful_range=(sum(lo for lo, _ in doubtful), sum(hi for _, hi in doubtful)))


def killer_as_shown(gray: np.ndarray, lattice: np.ndarray, colour: np.ndarray, n: int):
    """(killer read, box fields) of the grid as the picture shows it, unturned; None
    when too few of its cages' first cells hold a number either."""
    boxes = box_fields(gray, lattice) if n != SIZE else {}
    killer = read_killer(gray, corners_of(lattice), colour, n, boxes.get("box", (3, 3)))
    return (killer, boxes) if numbers_found(killer) >= min_heads(n) else None


def numbers_found(killer) -> int:
    """Cells holding a number read as a cage sum: the heads' numbers, or all numbers read
    when more (a missed wall makes a sum's cell no cage's first)."""
    cells = {tuple(s.cell) for s in killer.sums if not unread(s)}
    return max(killer.numbered_heads, len(cells | set(killer.illegible)))
