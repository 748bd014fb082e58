"""Killer cages: checks that they make a puzzle, and the digit sets a cage sum allows."""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from services.solver.errors import PuzzleError
from services.solver.grid import json_cell, ordinal

# Beyond this many digit sets a cage gets a plain sum constraint instead of one
# choice per digit set (large cages in 16x16 and 25x25 grids have thousands).
MAX_DIGIT_SETS = 200
BOX_RECTANGLES = True


@lru_cache(maxsize=4096)
def digit_sets(size: int, cells: int, total: int) -> tuple[int, ...]:
    """Bit masks of the sets of `cells` distinct digits 1..size that add up to `total`."""
    if not reachable(size, cells, total):
        return ()
    if cells > 6 and size > 9:
        return ()  # too many to list; callers fall back to a sum constraint
    return tuple(
        sum(1 << (d - 1) for d in combo)
        for combo in combinations(range(1, size + 1), cells)
        if sum(combo) == total
    )


def reachable(size: int, cells: int, total: int) -> bool:
    """Whether `cells` distinct digits 1..size can add up to `total`."""
    low = cells * (cells + 1) // 2
    high = cells * (2 * size - cells + 1) // 2
    return 1 <= cells <= size and low <= total <= high


def check_cages(cages: list[tuple[list[tuple[int, int]], int]], size: int) -> None:
    """PuzzleError, in words, unless the cages partition the grid into valid cages."""
    owner: dict[tuple[int, int], int] = {}
    for k, (cells, total) in enumerate(cages):
        label = f"the {ordinal(k + 1)} cage (sum {total})"
        if not cells:
            raise PuzzleError(f"{label} has no cells")
        for r, c in cells:
            if not (0 <= r < size and 0 <= c < size):
                raise PuzzleError(f"{label} has cell [{r}, {c}], outside the "
                                  f"{size}x{size} grid: [row, col] count from 0, to "
                                  f"{size - 1}")
            if (r, c) in owner:
                other = owner[(r, c)]
                if other == k:
                    raise PuzzleError(f"{label} lists cell {json_cell(r, c)} twice")
                raise PuzzleError(f"the {ordinal(other + 1)} and {ordinal(k + 1)} cages "
                                  f"overlap at cell {json_cell(r, c)}")
            owner[(r, c)] = k
        if not connected(cells):
            raise PuzzleError(f"{label} is not connected: its cells "
                              f"{', '.join(json_cell(r, c) for r, c in cells)} do not "
                              "touch side by side")
        if len(cells) > size:
            raise PuzzleError(f"{label} has {len(cells)} cells, but the digits of a cage "
                              f"differ, so it holds at most {size}")
        if not reachable(size, len(cells), total):
            low = len(cells) * (len(cells) + 1) // 2
            high = len(cells) * (2 * size - len(cells) + 1) // 2
            raise PuzzleError(f"{label}: {len(cells)} different digits cannot add up to "
                              f"{total} (possible sums are {low}..{high})")
    missing = [(r, c) for r in range(size) for c in range(size) if (r, c) not in owner]
    if missing:
        shown = ", ".join(json_cell(r, c) for r, c in missing[:8])
        more = f" and {len(missing) - 8} more" if len(missing) > 8 else ""
        raise PuzzleError(f"cages must cover the grid; cells not in any cage: {shown}{more}")
    expected = size * (size + 1) // 2 * size
    total = sum(t for _, t in cages)
    if total != expected:
        raise PuzzleError(f"cage sums add up to {total}, but a {size}x{size} grid adds up "
                          f"to {expected}")


def connected(cells: list[tuple[int, int]]) -> bool:
    todo = set(cells)
    stack = [cells[0]]
    todo.discard(cells[0])
    while stack:
        r, c = stack.pop()
        for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
            if n in todo:
                todo.discard(n)
                stack.append(n)
    return not todo


def region_sums(size: int, box: tuple[int, int], cages: list[tuple[list[int], int]],
                max_cells: int = 4) -> list[tuple[list[int], int]]:
    """Sums the cages imply for small groups of cells (the "45 rule" of killer solvers).

    A region (a box, or a band of consecutive rows or columns) holds each digit once per
    unit, so its total is known. Its cells outside the cages lying wholly inside it (the
    innies) add up to that total less those cages; the cells that cages poking out of it
    have outside (the outies) add up to those cages' totals less the innies. Each is
    redundant, but tells a solver much about a few cells. Cells are numbered r * size + c;
    groups of up to max_cells cells are returned, each once.
    """
    sums = [total for _, total in cages]
    out = []
    for cells, total, whole, crossing, outies in region_groups(
            size, box, tuple(tuple(cells) for cells, _ in cages), max_cells):
        innie_sum = total - sum(sums[k] for k in whole)
        out.append((list(cells), sum(sums[k] for k in crossing) - innie_sum if outies
                    else innie_sum))
    return out


@lru_cache(maxsize=256)
def region_groups(size: int, box: tuple[int, int], cages: tuple[tuple[int, ...], ...],
                  max_cells: int) -> list[tuple[tuple[int, ...], int, tuple[int, ...],
                                                 tuple[int, ...], bool]]:
    """region_sums' groups of cells, which depend on the cages' cells alone: (cells, the
    region's total, the cages wholly inside it, those crossing its edge, whether the
    cells are outies). Cached: a repair solves one layout with many choices of sums."""
    unit_total = size * (size + 1) // 2
    br, bc = box
    regions = []
    for top in range(0, size, br):  # boxes and rectangles of neighbouring boxes
        for bottom in range(top + br, size + 1, br):
            for left in range(0, size, bc):
                for right in range(left + bc, size + 1, bc):
                    if BOX_RECTANGLES or (bottom - top, right - left) == (br, bc):
                        regions.append([r * size + c for r in range(top, bottom)
                                        for c in range(left, right)])
    for first in range(size):
        for last in range(first, size - 1 if first == 0 else size):
            regions.append([r * size + c for r in range(first, last + 1) for c in range(size)])
            regions.append([r * size + c for c in range(first, last + 1) for r in range(size)])
    owner = {}
    for k, cells in enumerate(cages):
        for i in cells:
            owner[i] = k
    found: dict[tuple[int, ...], tuple] = {}
    for region in regions:
        inside_set = set(region)
        total = unit_total * len(region) // size
        touched = {owner[i] for i in region}
        whole = tuple(k for k in touched if all(i in inside_set for i in cages[k]))
        crossing = tuple(touched.difference(whole))
        innies = tuple(sorted(i for k in crossing for i in cages[k] if i in inside_set))
        outies = tuple(sorted(i for k in crossing for i in cages[k] if i not in inside_set))
        for cells, outside in ((innies, False), (outies, True)):
            if 1 <= len(cells) <= max_cells:
                found[cells] = (total, whole, crossing, outside)
    whole_cages = {tuple(sorted(cells)) for cells in cages}
    return [(cells, *how) for cells, how in found.items() if cells not in whole_cages]
