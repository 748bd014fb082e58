"""Chains over candidates: simple colouring, X-chains and alternating inference chains.

A node is one candidate, cell * size + (digit - 1). A strong link joins two nodes of which
at least one is true (the only two places of a digit in a unit, the only two digits of a
cell); a weak link joins two nodes that cannot both be true (two digits of one cell, one
digit in two cells that see each other). Starting from "A is false", strong and weak links
in turn give "Z is true": so A or Z is true, and any candidate that sees both is false.
"""

from __future__ import annotations

from collections import deque

from services.solver.logic.board import (
    Board,
    Step,
    bit,
    describe_removal,
    digits_of,
    eliminations_step,
    popcount,
)

MAX_NODES = 20  # longest chain, in candidates, a person is asked to follow
SHORT = 6  # a chain this short is taken at once, without looking for a shorter one


class Links:
    """Nodes (a digit in one cell, or in a group of cells where a box meets a line) and
    their links. A group is true when the digit is in one of its cells."""

    def __init__(self, board: Board, one_digit: int | None = None, groups: bool = True):
        size = board.size
        self.board = board
        self.size = size
        self.one_digit = one_digit
        self.nodes: list[tuple[int, frozenset[int]]] = []  # (digit, cells)
        self.index: dict[tuple[int, frozenset[int]], int] = {}
        self.strong: dict[int, set[int]] = {}
        self.by_digit: dict[int, list[int]] = {}
        wanted = range(1, size + 1) if one_digit is None else (one_digit,)
        for cell, mask in enumerate(board.cands):
            if board.values[cell]:
                continue
            ds = digits_of(mask) if one_digit is None else [d for d in wanted if mask & bit(d)]
            for d in ds:
                self.node(d, frozenset((cell,)))
            if one_digit is None and popcount(mask) == 2:
                a, b = (self.node(d, frozenset((cell,))) for d in ds)
                self._link(a, b)
        lay = board.lay
        cells = range(size * size)
        by_row, by_col, by_box = (tuple(i // size for i in cells).__getitem__,
                                  tuple(i % size for i in cells).__getitem__,
                                  lay.box_of.__getitem__)
        for u, by_digit in enumerate(board.places()):
            splits = [by_row, by_col] if u >= 2 * size else [by_box]
            for d in wanted:
                where = by_digit[d]
                if len(where) == 2:
                    self._link(*(self.node(d, frozenset((i,))) for i in where))
                    continue
                if not groups or len(where) < 3:
                    continue
                for key in splits:
                    parts: dict[int, list[int]] = {}
                    for i in where:
                        parts.setdefault(key(i), []).append(i)
                    if len(parts) == 2:
                        a, b = (self.node(d, frozenset(p)) for p in parts.values())
                        self._link(a, b)
        self._weak: dict[int, list[int]] = {}
        self._weak_cells: dict[int, int] = {}

    def node(self, d: int, cells: frozenset[int]) -> int:
        key = (d, cells)
        k = self.index.get(key)
        if k is None:
            k = self.index[key] = len(self.nodes)
            self.nodes.append(key)
            self.by_digit.setdefault(d, []).append(k)
        return k

    def _link(self, a: int, b: int) -> None:
        self.strong.setdefault(a, set()).add(b)
        self.strong.setdefault(b, set()).add(a)

    def single(self, k: int) -> tuple[int, int] | None:
        d, cells = self.nodes[k]
        return (next(iter(cells)), d) if len(cells) == 1 else None

    def weak(self, k: int) -> list[int]:
        """Nodes that cannot be true with node k."""
        found = self._weak.get(k)
        if found is not None:
            return found
        d, cells = self.nodes[k]
        peers = self.board.lay.peer_sets
        seen = None
        for i in cells:
            seen = set(peers[i]) if seen is None else seen & peers[i]
        out = [m for m in self.by_digit[d] if m != k and self.nodes[m][1] <= seen]
        if self.one_digit is None and len(cells) == 1:
            (cell,) = cells
            out += [self.index[(e, cells)] for e in range(1, self.size + 1)
                    if e != d and (e, cells) in self.index]
        self._weak[k] = out
        return out

    def weak_cells(self, k: int) -> int:
        """The one-cell nodes that cannot be true with node k, as a bit set (bit m for
        node m)."""
        found = self._weak_cells.get(k)
        if found is None:
            found = 0
            for m in self.weak(k):
                if len(self.nodes[m][1]) == 1:
                    found |= 1 << m
            self._weak_cells[k] = found
        return found

    def where(self, k: int) -> str:
        d, cells = self.nodes[k]
        if len(cells) == 1:
            return self.board.name(next(iter(cells)))
        return "one of " + "/".join(self.board.name(i) for i in sorted(cells))

    def say(self, k: int) -> str:
        return f"{self.where(k)} is {self.nodes[k][0]}"

    def say_not(self, k: int) -> str:
        d, cells = self.nodes[k]
        if len(cells) == 1:
            return f"{self.where(k)} is not {d}"
        return f"none of {'/'.join(self.board.name(i) for i in sorted(cells))} is {d}"


def find_chain(links: Links, max_nodes: int = MAX_NODES
               ) -> tuple[list[int], list[tuple[int, int]]] | None:
    """(chain nodes A..Z, eliminations) of a chain that removes something, or None.
    Short chains are looked for first, from every start, as a person would."""
    best = None
    for start in sorted(links.strong):
        found = _chain_from(links, start, max_nodes if best is None else len(best[0]) - 1)
        if found and (best is None or len(found[0]) < len(best[0])):
            best = found
            if len(best[0]) <= SHORT:
                break
    return best


def _chain_from(links: Links, start: int, max_nodes: int):
    """Breadth first from 'start is false': the first true node that forces a removal."""
    around_start = links.weak_cells(start)
    if not around_start:
        return None  # nothing sees the start: no chain from it removes anything
    strong = links.strong
    # the links' own stores first: most nodes are met again and again
    weak_of, weak_cells_of = links._weak.get, links._weak_cells.get
    # state: node * 2 + is_true; parent pointers rebuild the chain
    parent: dict[int, int | None] = {start * 2: None}
    # level by level, as a queue would take them: the nodes of odd depths are false
    # (leading on through strong links), those of even depths true
    frontier = [start]
    depth = 1
    while frontier and depth < max_nodes:
        reached = []
        if depth % 2:
            for node in frontier:
                state = node * 2
                for nxt in strong.get(node, ()):
                    nstate = nxt * 2 + 1
                    if nstate in parent:
                        continue
                    parent[nstate] = state
                    if nxt != start:
                        cells = weak_cells_of(nxt)
                        if cells is None:
                            cells = links.weak_cells(nxt)
                        if cells & around_start:
                            return _found(links, parent, nxt, state, cells & around_start)
                    reached.append(nxt)
        else:
            for node in frontier:
                state = node * 2 + 1
                nexts = weak_of(node)
                if nexts is None:
                    nexts = links.weak(node)
                for nxt in nexts:
                    nstate = nxt * 2
                    # a false node leads on only through a strong link
                    if nstate in parent or nxt not in strong:
                        continue
                    parent[nstate] = state
                    reached.append(nxt)
        frontier = reached
        depth += 1
    return None


def _found(links: Links, parent: dict, last: int, state: int, seen_both: int):
    """(the chain from the start to last, reached from state; the removals)."""
    chain = [last]
    while state is not None:
        chain.append(state >> 1)
        state = parent[state]
    chain.reverse()
    elims = []
    while seen_both:
        low = seen_both & -seen_both
        elims.append(links.single(low.bit_length() - 1))
        seen_both ^= low
    return chain, elims


def _chain_text(links: Links, chain: list[int]) -> str:
    parts = [f"if {links.say_not(chain[0])}"]
    for k, node in enumerate(chain[1:], start=1):
        parts.append(links.say(node) if k % 2 else links.say_not(node))
    return ", then ".join(parts)


def aic(board: Board) -> Step | None:
    """The shortest chain that removes something; an X-chain when it keeps to one digit."""
    links = Links(board)
    found = find_chain(links)
    if not found:
        return None
    chain, elims = found
    cells = [i for k in chain for i in links.nodes[k][1]]
    digits = [links.nodes[k][0] for k in chain]
    technique = "X-chain" if len(set(digits)) == 1 else "AIC"
    ends = f"{links.say(chain[0])} or {links.say(chain[-1])}"
    text = (f"Follow the chain: {_chain_text(links, chain)}. So {ends}; either way "
            f"{describe_removal(board, elims)} can go.")
    return eliminations_step(technique, text, cells, elims, digits)


def x_chain(board: Board) -> Step | None:
    """A chain of one digit's strong and weak links."""
    for d in range(1, board.size + 1):
        links = Links(board, d)
        found = find_chain(links)
        if found:
            chain, elims = found
            text = (f"Follow the {d}s: {_chain_text(links, chain)}. So {links.say(chain[0])} "
                    f"or {links.say(chain[-1])}; either way {describe_removal(board, elims)} "
                    f"can go.")
            return eliminations_step("X-chain", text,
                                     [i for k in chain for i in links.nodes[k][1]], elims, [d])
    return None


def simple_colouring(board: Board) -> Step | None:
    """Two-colour a digit's strong links; a colour that meets itself in a unit is false."""
    peers = board.lay.peer_sets
    for d in range(1, board.size + 1):
        links = Links(board, d, groups=False)
        graph = {links.single(n)[0]: {links.single(m)[0] for m in ms}
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
