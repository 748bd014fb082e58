"""Killer cage layouts from read walls: which walls to flip so that every cage holds one sum.

Cages are the connected regions of walls with p >= 0.5. When those regions do not each
hold exactly one cage sum, the least confident walls are flipped, one or two at a time
(WALL_FLIP_CANDIDATES of them), and the layouts come out most probable first.

A wall model that never saw a style can miss several walls in one picture, each merging
two cages far from the others (six at once in held-out web pictures, every one doubted by
the second sum it left inside a cage). Cages that only walls of one group of doubtful walls
join (joint_fixes) can be mended apart from the others: each wrong group gets its most
probable fixes of up to JOINT_FLIPS flips, and the groups' fixes are combined, so the
number of flips in all is not bounded by two.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import combinations

LOG_FLOOR = 1e-9
WALL_FLIP_CANDIDATES = 10
JOINT_CANDIDATES = 16  # doubtful walls among which separate wrong cages are mended together
JOINT_DOUBT = 0.4  # ... if this near 0.5 (a sure wall would join every cage into one group)
JOINT_FLIPS = 3  # at most this many flips within one group of cages
JOINT_GROUP_WALLS = 10  # a group with more doubtful walls than this is left to the pairs
JOINT_KEPT = 4  # fixes kept per group, and joint layouts kept in all (times two)


@dataclass
class Wall:
    what: str  # "wall_right" or "wall_down"
    row: int
    col: int
    prob: float  # probability that the wall is there
    fixed: bool = False

    @property
    def read(self) -> bool:
        return self.prob >= 0.5

    def log_prob(self, on: bool) -> float:
        return math.log(max(self.prob if on else 1 - self.prob, LOG_FLOOR))

    def cells(self, n: int) -> tuple[int, int]:
        a = self.row * n + self.col
        return a, a + 1 if self.what == "wall_right" else a + n

    def flip_cost(self) -> float:
        """Log-probability lost by reading the wall the other way."""
        return self.log_prob(self.read) - self.log_prob(not self.read)


def regions(n: int, walls: list[Wall], flipped: frozenset[int],
            cells: set[int] | None = None) -> list[list[int]]:
    """Cages of the walls with `flipped` read the other way (within `cells` only, when
    given: the cells of a group no wall outside it joins)."""
    parent = {i: i for i in (cells if cells is not None else range(n * n))}

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for k, w in enumerate(walls):
        if w.read != (k in flipped):
            continue  # a wall stands here
        a, b = w.cells(n)
        if a in parent and b in parent:
            parent[find(a)] = find(b)
    groups: dict[int, list[int]] = {}
    for i in sorted(parent):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def one_sum_each(cages: list[list[int]], sum_cells: set[int]) -> bool:
    return all(sum(i in sum_cells for i in cage) == 1 for cage in cages)


def joint_fixes(n: int, walls: list[Wall], sum_cells: set[int],
                candidates: list[int]) -> list[frozenset[int]]:
    """Flip sets that mend every wrong cage at once (no sum, or several), most probable
    first, where the wrong cages fall into groups that no candidate wall joins."""
    cages = regions(n, walls, frozenset())
    where = {i: g for g, cage in enumerate(cages) for i in cage}
    parent = list(range(len(cages)))

    def find(g: int) -> int:
        while parent[g] != g:
            g = parent[g]
        return g

    for k in candidates:
        a, b = walls[k].cells(n)
        parent[find(where[a])] = find(where[b])
    fixes: list[list[tuple[float, frozenset[int]]]] = []
    for root in {find(g) for g in range(len(cages))}:
        members = [cage for g, cage in enumerate(cages) if find(g) == root]
        if one_sum_each(members, sum_cells):
            continue
        cells = {i for cage in members for i in cage}
        mine = [k for k in candidates if walls[k].cells(n)[0] in cells]
        if len(mine) > JOINT_GROUP_WALLS:
            return []
        found = sorted(((sum(walls[k].flip_cost() for k in flips), frozenset(flips))
                        for size in range(1, JOINT_FLIPS + 1)
                        for flips in combinations(mine, size)
                        if one_sum_each(regions(n, walls, frozenset(flips), cells), sum_cells)),
                       key=lambda fix: fix[0])
        if not found:
            return []  # a group no flip mends: no joint layout
        fixes.append(found[:JOINT_KEPT])
    joint = [(0.0, frozenset())]
    for found in fixes:  # the best few combinations, group by group
        joint = sorted(((cost + c, flips | f) for cost, flips in joint for c, f in found),
                       key=lambda fix: fix[0])
        joint = joint[:2 * JOINT_KEPT]
    return [flips for _, flips in joint if flips]


def cage_layouts(n: int, walls: list[Wall], sum_cells: set[int]):
    """(log-prob, flipped walls, cages, sum cell per cage) for layouts where each cage holds
    exactly one cage sum, most probable first."""
    base = sum(w.log_prob(w.read) for w in walls)
    order = sorted((k for k, w in enumerate(walls) if not w.fixed),
                   key=lambda k: abs(walls[k].prob - 0.5))
    doubtful = order[:WALL_FLIP_CANDIDATES]
    flips = [frozenset()] + [frozenset(c) for size in (1, 2) for c in combinations(doubtful, size)]
    seen = set(flips)
    unsure = [k for k in order[:JOINT_CANDIDATES] if abs(walls[k].prob - 0.5) < JOINT_DOUBT]
    flips += [f for f in joint_fixes(n, walls, sum_cells, unsure) if f not in seen]
    layouts = []
    for flipped in flips:
        cages = regions(n, walls, flipped)
        heads = [[i for i in cage if i in sum_cells] for cage in cages]
        if any(len(h) != 1 for h in heads):
            continue
        lp = base - sum(walls[k].flip_cost() for k in flipped)
        layouts.append((lp, flipped, cages, [h[0] for h in heads]))
    layouts.sort(key=lambda layout: -layout[0])
    return layouts
