"""Chains over candidates: simple colouring, X-chains and alternating inference chains.

A node is one candidate, cell * size + (digit - 1). A strong link joins two nodes of which
at least one is true (the only two places of a digit in a unit, the only two digits of a
cell); a weak link joins two nodes that cannot both be true (two digits of one cell, one
digit in two cells that see each other). Starting from "A is false", strong and weak links
in turn give "Z is true": so A or Z is true, and any candidate that sees both is false.
"""

from __future__ import annotations

from collections import deque

from services.solver.logic.board import Board, Step, bit, describe_removal, eliminations_step

MAX_NODES = 20  # longest chain, in candidates, a person is asked to follow


class Links:
    def __init__(self, board: Board, one_digit: int | None = None):
        size = board.size
        self.board = board
        self.size = size
        self.strong: dict[int, set[int]] = {}
        self.alive: list[int] = []
        for cell, mask in enumerate(board.cands):
            if board.values[cell]:
                continue
            ds = [d for d in range(1, size + 1) if mask & bit(d)]
            if one_digit is not None:
                ds = [d for d in ds if d == one_digit]
            self.alive.extend(cell * size + d - 1 for d in ds)
            if one_digit is None and len(ds) == 2:
                a, b = cell * size + ds[0] - 1, cell * size + ds[1] - 1
                self.strong.setdefault(a, set()).add(b)
                self.strong.setdefault(b, set()).add(a)
        for unit in board.lay.geo.units:
            for d in range(1, size + 1):
                if one_digit is not None and d != one_digit:
                    continue
                where = board.cells_with(unit, d)
                if len(where) == 2:
                    a, b = where[0] * size + d - 1, where[1] * size + d - 1
                    self.strong.setdefault(a, set()).add(b)
                    self.strong.setdefault(b, set()).add(a)
        self.one_digit = one_digit
        self._weak: dict[int, list[int]] = {}

    def weak(self, node: int) -> list[int]:
        """Nodes that cannot be true with `node` (all alive candidates, not only linked ones)."""
        if node in self._weak:
            return self._weak[node]
        size, board = self.size, self.board
        cell, d = divmod(node, size)
        b = 1 << d
        out = [p * size + d for p in board.lay.geo.peers[cell]
               if not board.values[p] and board.cands[p] & b]
        if self.one_digit is None:
            out += [cell * size + e for e in range(size)
                    if e != d and board.cands[cell] & (1 << e)]
        self._weak[node] = out
        return out

    def say(self, node: int) -> str:
        cell, d = divmod(node, self.size)
        return f"{self.board.name(cell)} is {d + 1}"

    def say_not(self, node: int) -> str:
        cell, d = divmod(node, self.size)
        return f"{self.board.name(cell)} is not {d + 1}"


def find_chain(board: Board, one_digit: int | None = None, max_nodes: int = MAX_NODES,
               shortest: bool = True) -> tuple[list[int], list[tuple[int, int]]] | None:
    """(chain nodes A..Z, eliminations) of a chain that removes something, or None."""
    links = Links(board, one_digit)
    best = None
    for start in sorted(links.strong):
        found = _chain_from(links, start, max_nodes if best is None else len(best[0]) - 1)
        if found and (best is None or len(found[0]) < len(best[0])):
            best = found
            if not shortest or len(best[0]) <= 4:
                break
    return best


def _chain_from(links: Links, start: int, max_nodes: int):
    """Breadth first from 'start is false': the first true node that forces a removal."""
    size = links.size
    around_start = set(links.weak(start))
    # state: (node, is_true); parent pointers rebuild the chain
    parent: dict[tuple[int, bool], tuple[int, bool] | None] = {(start, False): None}
    depth = {(start, False): 1}
    queue = deque([(start, False)])
    while queue:
        state = queue.popleft()
        node, on = state
        if depth[state] >= max_nodes:
            continue
        nexts = links.weak(node) if on else links.strong.get(node, ())
        for nxt in nexts:
            nstate = (nxt, not on)
            if nstate in parent:
                continue
            if on and nxt not in links.strong:
                continue  # a false node leads on only through a strong link
            parent[nstate] = state
            depth[nstate] = depth[state] + 1
            if not on and nxt != start:
                elims = [x for x in links.weak(nxt) if x in around_start and x != start]
                if elims:
                    chain = [nxt]
                    back = state
                    while back is not None:
                        chain.append(back[0])
                        back = parent[back]
                    chain.reverse()
                    return chain, [(x // size, x % size + 1) for x in elims]
            queue.append(nstate)
    return None


def _chain_text(links: Links, chain: list[int]) -> str:
    parts = [f"if {links.say_not(chain[0])}"]
    for k, node in enumerate(chain[1:], start=1):
        parts.append(links.say(node) if k % 2 else links.say_not(node))
    return ", then ".join(parts)


def chain_step(board: Board, technique: str, one_digit_only: bool) -> Step | None:
    digits = range(1, board.size + 1) if one_digit_only else [None]
    for d in digits:
        found = find_chain(board, d)
        if not found:
            continue
        chain, elims = found
        links = Links(board, d)
        cells = [n // board.size for n in chain]
        ends = f"{links.say(chain[0])} or {links.say(chain[-1])}"
        text = (f"Follow the chain: {_chain_text(links, chain)}. So {ends}; either way "
                f"{describe_removal(board, elims)} can go.")
        step = eliminations_step(technique, text, cells, elims,
                                 [n % board.size + 1 for n in chain])
        if step:
            return step
    return None


def x_chain(board: Board) -> Step | None:
    return chain_step(board, "X-chain", True)


def aic(board: Board) -> Step | None:
    return chain_step(board, "AIC", False)


def simple_colouring(board: Board) -> Step | None:
    """Two-colour a digit's strong links; a colour that meets itself in a unit is false."""
    peers = board.lay.peer_sets
    for d in range(1, board.size + 1):
        links = Links(board, d)
        graph = {n // board.size: {m // board.size for m in ms}
                 for n, ms in links.strong.items()}
        seen: dict[int, int] = {}
        for root in sorted(graph):
            if root in seen:
                continue
            colour = {root: 0}
            queue = deque([root])
            while queue:
                c = queue.popleft()
                for nb in graph[c]:
                    if nb not in colour:
                        colour[nb] = 1 - colour[c]
                        queue.append(nb)
            seen.update(colour)
            if len(colour) < 3:
                continue
            groups = [[c for c, k in colour.items() if k == side] for side in (0, 1)]
            for group in groups:
                clash = next(((a, b) for a in group for b in group if a < b and b in peers[a]),
                             None)
                if clash:
                    elims = [(c, d) for c in group]
                    text = (f"Colouring the {d}s by their strong links puts {board.name(clash[0])} "
                            f"and {board.name(clash[1])} in one colour although they see each "
                            f"other, so that colour is false: {describe_removal(board, elims)} "
                            f"removed.")
                    return eliminations_step("simple colouring", text, sorted(colour), elims, [d])
            both = [(i, d) for i in range(board.size * board.size)
                    if i not in colour and not board.values[i] and board.cands[i] & bit(d)
                    and peers[i] & set(groups[0]) and peers[i] & set(groups[1])]
            if both:
                text = (f"Colouring the {d}s by their strong links, one of the two colours is "
                        f"true; {describe_removal(board, both)} sees both colours and goes.")
                return eliminations_step("simple colouring", text, sorted(colour), both, [d])
    return None
