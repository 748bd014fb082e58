"""Apply a person's corrections to a reading: a confirmed reading has probability 1."""

from __future__ import annotations

from collections import defaultdict

from services.contracts import CageSumReading, Corrections, Reading, SumCandidate


class CorrectionError(ValueError):
    """Corrections that are out of range or contradict each other."""


def certain(size: int, value: int) -> list[float]:
    return [1.0 if v == value else 0.0 for v in range(size + 1)]


def check_corrections(reading: Reading, fixes: Corrections) -> None:
    n = reading.size
    problems = []
    seen: dict[tuple[int, int], int] = {}
    for fix in fixes.cells:
        if fix.row >= n or fix.col >= n:
            problems.append(f"cell ({fix.row}, {fix.col}) is outside the {n}x{n} grid")
        elif fix.value > n:
            problems.append(f"cell ({fix.row}, {fix.col}): {fix.value} is not a digit 0-{n}")
        elif seen.setdefault((fix.row, fix.col), fix.value) != fix.value:
            problems.append(f"cell ({fix.row}, {fix.col}) is given two different values")
    box_rows, box_cols = reading.box or _default_box(n)
    units: dict[tuple, list[tuple[int, int]]] = defaultdict(list)
    for (row, col), value in seen.items():
        if value:
            for unit in (("row", row), ("column", col),
                         ("box", row // box_rows, col // box_cols)):
                units[(unit, value)].append((row, col))
    for (unit, value), cells in units.items():
        if len(cells) > 1:
            problems.append(f"{value} is set twice in {unit[0]} {unit[1:]}: cells {cells}")
    if fixes.cage_sums and reading.kind != "killer":
        problems.append("cage sums apply only to killer sudoku")
    if fixes.walls and reading.kind != "killer":
        problems.append("cage walls apply only to killer sudoku")
    for fix in fixes.cage_sums:
        if fix.row >= n or fix.col >= n:
            problems.append(f"cage sum at ({fix.row}, {fix.col}) is outside the grid")
        elif fix.value > n * (n + 1) // 2:
            problems.append(f"cage sum {fix.value} is larger than any cage can hold")
    for fix in fixes.walls:
        if fix.row >= n or fix.col >= n or (fix.side == "right" and fix.col >= n - 1) or (
                fix.side == "down" and fix.row >= n - 1):
            problems.append(f"there is no inner wall {fix.side} of ({fix.row}, {fix.col})")
    if problems:
        raise CorrectionError("; ".join(problems))


def _default_box(n: int) -> tuple[int, int]:
    rows = int(n**0.5)
    while n % rows:
        rows -= 1
    return rows, n // rows


def apply_corrections(reading: Reading, fixes: Corrections) -> Reading:
    check_corrections(reading, fixes)
    n = reading.size
    cells = [[list(probs) for probs in row] for row in reading.cells]
    for fix in fixes.cells:
        cells[fix.row][fix.col] = certain(n, fix.value)
    sums = {tuple(s.cell): s for s in reading.cage_sums}
    for fix in fixes.cage_sums:
        sums[(fix.row, fix.col)] = CageSumReading(
            cell=(fix.row, fix.col), candidates=[SumCandidate(value=fix.value, prob=1.0)])
    walls = {"right": [list(r) for r in reading.walls_right or []],
             "down": [list(r) for r in reading.walls_down or []]}
    for fix in fixes.walls:
        if walls[fix.side]:
            walls[fix.side][fix.row][fix.col] = 1.0 if fix.present else 0.0
    return reading.model_copy(update={
        "cells": cells,
        "cage_sums": sorted(sums.values(), key=lambda s: tuple(s.cell)),
        "walls_right": walls["right"] or reading.walls_right,
        "walls_down": walls["down"] or reading.walls_down,
    })


def merge(old: Corrections | None, new: Corrections) -> Corrections:
    """Later fixes of the same reading replace earlier ones."""
    if old is None:
        return new
    cells = {(f.row, f.col): f for f in [*old.cells, *new.cells]}
    sums = {(f.row, f.col): f for f in [*old.cage_sums, *new.cage_sums]}
    walls = {(f.row, f.col, f.side): f for f in [*old.walls, *new.walls]}
    return Corrections(cells=list(cells.values()), cage_sums=list(sums.values()),
                       walls=list(walls.values()))
