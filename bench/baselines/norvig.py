"""Propagation and search in the manner of Norvig's sudoku essay.

Each cell keeps the set of digits still possible. Placing a digit removes it from the
cell's peers; a cell left with one digit places it; a unit with one place left for a
digit puts it there. When that stalls, the cell with the fewest possibilities is tried
digit by digit on copies of the state.
"""

from __future__ import annotations


class Board:
    def __init__(self, size: int, box: tuple[int, int]):
        self.size = size
        br, bc = box
        cells = [(r, c) for r in range(size) for c in range(size)]
        unit_list = ([[(r, c) for c in range(size)] for r in range(size)]
                     + [[(r, c) for r in range(size)] for c in range(size)]
                     + [[(r0 + i, c0 + j) for i in range(br) for j in range(bc)]
                        for r0 in range(0, size, br) for c0 in range(0, size, bc)])
        self.cells = cells
        self.units = {s: [u for u in unit_list if s in u] for s in cells}
        self.peers = {s: set(x for u in self.units[s] for x in u) - {s} for s in cells}

    def assign(self, values: dict, s, d: int) -> dict | None:
        for other in values[s] - {d}:
            if not self.eliminate(values, s, other):
                return None
        return values

    def eliminate(self, values: dict, s, d: int) -> dict | None:
        if d not in values[s]:
            return values
        values[s] = values[s] - {d}
        if not values[s]:
            return None
        if len(values[s]) == 1:
            (last,) = values[s]
            if not all(self.eliminate(values, p, last) for p in self.peers[s]):
                return None
        for unit in self.units[s]:
            places = [t for t in unit if d in values[t]]
            if not places:
                return None
            if len(places) == 1 and not self.assign(values, places[0], d):
                return None
        return values

    def parse(self, givens: list[list[int]]) -> dict | None:
        values = {s: set(range(1, self.size + 1)) for s in self.cells}
        for (r, c) in self.cells:
            if givens[r][c] and not self.assign(values, (r, c), givens[r][c]):
                return None
        return values

    def search(self, values: dict | None, limit: int, found: list) -> None:
        if values is None or len(found) >= limit:
            return
        if all(len(v) == 1 for v in values.values()):
            found.append(values)
            return
        _, s = min((len(values[s]), s) for s in self.cells if len(values[s]) > 1)
        for d in sorted(values[s]):
            copy = {k: set(v) for k, v in values.items()}
            self.search(self.assign(copy, s, d), limit, found)
            if len(found) >= limit:
                return


def solve(givens: list[list[int]], box: tuple[int, int], limit: int = 1) -> list:
    """Up to `limit` solutions as grids (limit=2 decides uniqueness)."""
    n = len(givens)
    board = Board(n, box)
    found: list = []
    board.search(board.parse(givens), limit, found)
    return [[[next(iter(v[(r, c)])) for c in range(n)] for r in range(n)] for v in found]
