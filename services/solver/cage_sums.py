"""What a killer's own arithmetic rules out of its cage sum readings, before any search.

Each row, column and box holds every digit once, so any union of consecutive rows,
columns or boxes (a region of k units) adds up to k * n(n+1)/2: 45 * k on a 9x9, 405 for
the whole grid. The cages wholly inside a region (W) and the cells that cages crossing
its edge leave inside it (the innies) share that total; the cages that touch the region
(W and the crossing ones) add up to it plus the cells they have outside (the outies):

    sum(W) + innies = 45k        sum(W + crossing) - outies = 45k

The innies and outies are a few cells whose sum is bounded (cells that see each other
hold distinct digits), so each region gives two ranges on sums of cage sums, and a
region made of whole cages an exact equation. A cage of m cells holds m distinct digits,
so its sum lies in [m(m+1)/2, m(2n-m+1)/2]. Each doubtful sum keeps only the candidates
that some choice of the other sums' candidates fits into every range (arc consistency,
by the sets of totals the candidates can reach), each rule again whenever one of its
members is narrowed, until nothing changes.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from functools import lru_cache

from services.solver.cages import reachable
from services.solver.grid import Geometry
from services.solver.propagate import initial_candidates
from services.solver.sudoku import propagate_all

IMPLIED_CELLS = 4  # innies or outies of up to this many cells that see each other: a cage


@dataclass(frozen=True)
class SumRule:
    """The sums of `cages` add up to a total in [low, high]."""

    cages: tuple[int, ...]
    low: int
    high: int


def cell_sum_bounds(geo: Geometry, cells, owner: dict[int, int]) -> tuple[int, int]:
    """Bounds on the sum of `cells`: they are split into groups of cells that see each
    other (one row, column, box or cage), and each group of m holds m distinct digits."""
    groups: list[list[int]] = []
    for i in cells:
        for group in groups:
            if all(j in geo.peers[i] or owner[j] == owner[i] for j in group):
                group.append(i)
                break
        else:
            groups.append([i])
    n = geo.size
    low = sum(len(g) * (len(g) + 1) // 2 for g in groups)
    high = sum(len(g) * (2 * n - len(g) + 1) // 2 for g in groups)
    return low, high


def regions(geo: Geometry) -> list[frozenset[int]]:
    """Unions of consecutive rows, of consecutive columns, and rectangles of boxes (the
    whole grid among them), as sets of cells."""
    n, (br, bc) = geo.size, geo.box
    out = set()
    for first in range(n):
        for last in range(first, n):
            out.add(frozenset(r * n + c for r in range(first, last + 1) for c in range(n)))
            out.add(frozenset(r * n + c for c in range(first, last + 1) for r in range(n)))
    for top in range(0, n, br):
        for bottom in range(top + br, n + 1, br):
            for left in range(0, n, bc):
                for right in range(left + bc, n + 1, bc):
                    out.add(frozenset(r * n + c for r in range(top, bottom)
                                      for c in range(left, right)))
    return sorted(out, key=lambda cells: (len(cells), sorted(cells)))


@dataclass(frozen=True)
class RegionSplit:
    """How the cages meet one region: sums(whole) + innies = total, and
    sums(whole + crossing) - outies = total."""

    total: int
    whole: tuple[int, ...]
    crossing: tuple[int, ...]
    innies: tuple[int, ...]
    outies: tuple[int, ...]


def region_splits(geo: Geometry, cages: list[list[int]]) -> list[RegionSplit]:
    """Each region's split, for cages that cover the grid (none otherwise)."""
    owner = {i: k for k, cage in enumerate(cages) for i in cage}
    if len(owner) != geo.cells:
        return []  # cages that leave cells out: no region total holds
    unit_total = geo.size * (geo.size + 1) // 2
    out = []
    for region in regions(geo):
        touched = sorted({owner[i] for i in region})
        whole = tuple(k for k in touched if all(i in region for i in cages[k]))
        crossing = tuple(k for k in touched if k not in whole)
        out.append(RegionSplit(
            unit_total * len(region) // geo.size, whole, crossing,
            tuple(i for k in crossing for i in cages[k] if i in region),
            tuple(i for k in crossing for i in cages[k] if i not in region)))
    return out


def sum_rules(geo: Geometry, cages: list[list[int]]) -> list[SumRule]:
    """The ranges the 45 rule puts on sums of cage sums, one pair per region."""
    owner = {i: k for k, cage in enumerate(cages) for i in cage}
    rules: dict[tuple[int, ...], tuple[int, int]] = {}

    def add(members: tuple[int, ...], low: int, high: int) -> None:
        if members in rules:
            old = rules[members]
            low, high = max(low, old[0]), min(high, old[1])
        rules[members] = (low, high)

    for split in region_splits(geo, cages):
        total = split.total
        if split.whole:
            low, high = cell_sum_bounds(geo, split.innies, owner) if split.innies else (0, 0)
            add(split.whole, total - high, total - low)
        if split.crossing:
            low, high = cell_sum_bounds(geo, split.outies, owner)
            add(tuple(sorted(split.whole + split.crossing)), total + low, total + high)
    return [SumRule(members, low, high) for members, (low, high) in rules.items()]


def bits(values) -> int:
    out = 0
    for v in values:
        out |= 1 << v
    return out


def add_sets(a: int, values: list[int]) -> int:
    """The totals a + v for each total a in the bit set `a` and each v in `values`."""
    out = 0
    for v in values:
        out |= a << v
    return out


def sumset(a: int, b: int) -> int:
    """Every x + y for x in bit set `a` and y in bit set `b`."""
    if a.bit_count() > b.bit_count():
        a, b = b, a
    out, x = 0, 0
    while a:
        if a & 1:
            out |= b << x
        a >>= 1
        x += 1
    return out


def narrow_rule(rule: SumRule, domains: list[list[int]]) -> list[int] | None:
    """Drop from the rule's members each value no choice of the others completes to a
    total in range. Returns the members narrowed, None when a member is left empty."""
    fixed = sum(domains[k][0] for k in rule.cages if len(domains[k]) == 1)
    open_ = [k for k in rule.cages if len(domains[k]) > 1]
    low, high = rule.low - fixed, rule.high - fixed
    if not open_:
        return [] if low <= 0 <= high else None
    # prefix[i]: totals the first i open members can reach; suffix[i]: the members from i.
    prefix = [1]
    for k in open_:
        prefix.append(add_sets(prefix[-1], domains[k]))
    suffix = [1]
    for k in reversed(open_):
        suffix.append(add_sets(suffix[-1], domains[k]))
    suffix.reverse()
    window = ((1 << (high + 1)) - 1) & ~((1 << max(low, 0)) - 1) if high >= 0 else 0
    if not prefix[-1] & window:
        return None
    narrowed = []
    for i, k in enumerate(open_):
        others = sumset(prefix[i], suffix[i + 1])
        kept = [v for v in domains[k] if (others << v) & window]
        if not kept:
            return None
        if len(kept) < len(domains[k]):
            domains[k] = kept
            narrowed.append(k)
    return narrowed


def prune_sums(geo: Geometry, cages: list[list[int]],
               candidates: list[list[int]]) -> list[list[int]] | None:
    """Each cage's candidate sums that the cage size and the 45 rule leave possible (in
    the order given), or None when some cage has none left."""
    n = geo.size
    domains = [[v for v in values if reachable(n, len(cage), v)]
               for cage, values in zip(cages, candidates, strict=True)]
    if any(not d for d in domains):
        return None
    rules, rules_of = cached_rules(geo, tuple(tuple(c) for c in cages))
    # A rule is looked at again only when one of its members has been narrowed.
    waiting = deque(range(len(rules)))
    queued = [True] * len(rules)
    while waiting:
        r = waiting.popleft()
        queued[r] = False
        narrowed = narrow_rule(rules[r], domains)
        if narrowed is None:
            return None
        for k in narrowed:
            for other in rules_of[k]:
                if not queued[other]:
                    queued[other] = True
                    waiting.append(other)
    return domains


@lru_cache(maxsize=64)
def cached_rules(geo: Geometry, cages: tuple[tuple[int, ...], ...]
                 ) -> tuple[list[SumRule], list[list[int]]]:
    """The rules, and for each cage the rules it is a member of."""
    rules = sum_rules(geo, [list(c) for c in cages])
    rules_of: list[list[int]] = [[] for _ in cages]
    for r, rule in enumerate(rules):
        for k in rule.cages:
            rules_of[k].append(r)
    return rules, rules_of


def add_region_totals(model, cages: list[list[int]], sum_exprs: list) -> None:
    """The 45 rule in the repair's model (a OneHotModel): per region, the chosen sums of
    the cages inside and the innies' digits add up to its total, and so do the sums of the
    cages touching it less the outies' digits. Redundant, but the search learns from them
    what it would otherwise find cell by cell."""
    for split in cached_splits(model.geo, tuple(tuple(c) for c in cages)):
        if split.whole:
            model.require(sum(sum_exprs[k] for k in split.whole)
                          + sum(model.value_expr(i) for i in split.innies) == split.total)
        if split.crossing:
            model.require(sum(sum_exprs[k] for k in split.whole + split.crossing)
                          - sum(model.value_expr(i) for i in split.outies) == split.total)


@lru_cache(maxsize=64)
def cached_splits(geo: Geometry, cages: tuple[tuple[int, ...], ...]) -> list[RegionSplit]:
    return region_splits(geo, [list(c) for c in cages])


def settled_candidates(geo: Geometry, givens: list[int], cages: list[list[int]],
                       sums: list[list[int]]) -> list[int] | None:
    """Each cell's candidate digits (bit masks) that the certain part of a reading leaves:
    its single-valued digits, the cages whose sum has one value left, and the sums these
    imply for a region's innies or outies when every cage they depend on is settled (the
    solver's own propagation, sudoku.py). None when they contradict each other."""
    n = geo.size
    cands = initial_candidates([givens[r * n:(r + 1) * n] for r in range(n)], geo)
    sure = [(cage, values[0]) for cage, values in zip(cages, sums, strict=True)
            if len(values) == 1]
    known = {k: values[0] for k, values in enumerate(sums) if len(values) == 1}
    implied = []
    for split in cached_splits(geo, tuple(tuple(c) for c in cages)):
        cells = None
        if split.whole and split.innies and all(k in known for k in split.whole):
            cells, total = split.innies, split.total - sum(known[k] for k in split.whole)
        elif split.crossing and all(k in known for k in split.whole + split.crossing):
            cells = split.outies
            total = sum(known[k] for k in split.whole + split.crossing) - split.total
        if cells and len(cells) <= IMPLIED_CELLS and all(
                j in geo.peers[i] for a, i in enumerate(cells) for j in cells[a + 1:]):
            implied.append((list(cells), total))
    if not propagate_all(cands, geo, sure + implied):
        return None
    return cands

