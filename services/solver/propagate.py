"""Candidate propagation for sudoku grids: naked and hidden singles over bit masks.

A cell's candidates are an int whose bit d-1 is set when digit d is still possible.
Singles are sound deductions, so a grid that propagation fills in completely has
exactly one solution; a grid it empties has none.
"""

from __future__ import annotations

from services.solver.grid import Geometry


def bit(d: int) -> int:
    return 1 << (d - 1)


def digit(mask: int) -> int:
    """The digit of a single-candidate mask."""
    return mask.bit_length()


def digits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length())
        mask ^= low
    return out


def is_single(mask: int) -> bool:
    return mask != 0 and mask & (mask - 1) == 0


def initial_candidates(givens: list[list[int]] | None, geo: Geometry) -> list[int]:
    cands = [geo.full] * geo.cells
    if givens:
        for r, row in enumerate(givens):
            for c, v in enumerate(row):
                if v:
                    cands[r * geo.size + c] = bit(v)
    return cands


def propagate(cands: list[int], geo: Geometry, changed: list[int] | None = None,
              fresh: list[int] | None = None) -> bool:
    """Apply singles in place until nothing changes; False when the grid breaks.
    `changed`: the only cells whose single digit may still be in their peers (all
    cells when None). `fresh`: when the candidates were propagated before and only these
    cells changed since, the only cells whose units may hold a hidden single."""
    peers, units, full = geo.peers, geo.units, geo.full
    masks_of, unit_bits = geo.unit_masks, geo.unit_bits
    if 0 in cands:
        return False
    stack = [i for i in (range(len(cands)) if changed is None else changed)
             if not cands[i] & (cands[i] - 1)]
    # Units whose cells changed since they were last looked at for hidden singles (bit u
    # for unit u): the others would show nothing new.
    if fresh is None:
        dirty = (1 << len(units)) - 1
    else:
        dirty = 0
        for i in fresh:
            dirty |= unit_bits[i]
    memo = _LONE
    while True:
        while stack:
            i = stack.pop()
            m = cands[i]
            for p in peers[i]:
                pm = cands[p]
                if pm & m:
                    pm ^= m
                    if not pm:
                        return False
                    cands[p] = pm
                    dirty |= unit_bits[p]
                    if not pm & (pm - 1):
                        stack.append(p)
        # Hidden singles: a digit with one possible place in a unit goes there. Units in
        # order, each seeing what the ones before it placed (a cell left with two lone
        # digits of a unit and nothing else is not caught here, so the order matters).
        ahead = dirty
        while ahead:
            low = ahead & -ahead
            dirty ^= low
            u = low.bit_length() - 1
            key = masks_of[u](cands)
            only = memo.get(key)
            if only is None:
                if len(memo) > LONE_LIMIT:
                    memo.clear()
                only = memo[key] = lone_digits(key, full)
            if only:
                if only < 0:
                    return False  # a digit with no place left
                for i in units[u]:
                    m = cands[i]
                    hit = m & only
                    if hit and hit != m:
                        if hit & (hit - 1):
                            return False  # two digits can only go in this one cell
                        cands[i] = hit
                        dirty |= unit_bits[i]
                        stack.append(i)
            ahead = dirty & (-2 << u)  # the dirty units after this one
        if not stack:
            return True


# lone_digits by a unit's masks (the masks' count tells the grid's size, so its full)
_LONE: dict[tuple[int, ...], int] = {}
LONE_LIMIT = 1 << 17  # entries kept before it starts again


def lone_digits(masks: tuple[int, ...], full: int) -> int:
    """The digits with one place among a unit's masks, but for those of cells down to
    that one digit (nothing to do there); -1 when a digit has no place."""
    once = twice = single = 0
    for m in masks:
        twice |= once & m
        once |= m
        if not m & (m - 1):
            single |= m
    return once & ~twice & ~single if once == full else -1


def solved(cands: list[int]) -> bool:
    return all(m & (m - 1) == 0 for m in cands)


def to_grid(cands: list[int], size: int) -> list[list[int]]:
    return [[digit(cands[r * size + c]) for c in range(size)] for r in range(size)]


def search(cands: list[int], geo: Geometry, limit: int = 2,
           max_nodes: int | None = None) -> tuple[list[list[int]], bool]:
    """Depth-first search with propagation; up to `limit` solutions (as candidate lists).

    Returns (solutions, complete): complete is False when max_nodes ran out first.
    """
    found: list[list[int]] = []
    nodes = 0

    def visit(state: list[int]) -> bool:
        nonlocal nodes
        nodes += 1
        if max_nodes is not None and nodes > max_nodes:
            return False
        if not propagate(state, geo):
            return True
        best, best_count = -1, 99
        for i, m in enumerate(state):
            if m & (m - 1):
                n = m.bit_count()
                if n < best_count:
                    best, best_count = i, n
                    if n == 2:
                        break
        if best < 0:
            found.append(state)
            return True
        for d in digits(state[best]):
            child = state.copy()
            child[best] = bit(d)
            if not visit(child):
                return False
            if len(found) >= limit:
                return True
        return True

    complete = visit(cands.copy())
    return found, complete
