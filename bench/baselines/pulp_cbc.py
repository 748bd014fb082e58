"""The textbook 0-1 integer programme, solved by CBC through PuLP.

x[r][c][d] = 1 when cell (r, c) holds d; each cell, and each digit in each row, column
and box, sums to one; killer cages add a sum and a 'each digit at most once' row.
"""

from __future__ import annotations

import pulp


def solve(givens: list[list[int]] | None, box: tuple[int, int], size: int,
          cages: list[tuple[list[tuple[int, int]], int]] = (), time_limit: float = 30.0
          ) -> list[list[int]] | None:
    n = size
    br, bc = box
    digits = range(1, n + 1)
    prob = pulp.LpProblem("sudoku", pulp.LpMinimize)
    x = pulp.LpVariable.dicts("x", (range(n), range(n), digits), cat="Binary")
    prob += 0
    for r in range(n):
        for c in range(n):
            prob += pulp.lpSum(x[r][c][d] for d in digits) == 1
            if givens and givens[r][c]:
                prob += x[r][c][givens[r][c]] == 1
    for d in digits:
        for i in range(n):
            prob += pulp.lpSum(x[i][c][d] for c in range(n)) == 1
            prob += pulp.lpSum(x[r][i][d] for r in range(n)) == 1
        for r0 in range(0, n, br):
            for c0 in range(0, n, bc):
                prob += pulp.lpSum(x[r0 + i][c0 + j][d]
                                   for i in range(br) for j in range(bc)) == 1
    for cells, total in cages:
        prob += pulp.lpSum(d * x[r][c][d] for r, c in cells for d in digits) == total
        for d in digits:
            prob += pulp.lpSum(x[r][c][d] for r, c in cells) <= 1
    prob.solve(pulp.PULP_CBC_CMD(msg=False, timeLimit=time_limit, threads=1))
    if pulp.LpStatus[prob.status] != "Optimal":
        return None
    return [[next(d for d in digits if x[r][c][d].value() > 0.5) for c in range(n)]
            for r in range(n)]
