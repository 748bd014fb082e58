"""Checks a claimed answer against the rules from scratch, sharing no code with the solver.

Used by the tests (and the benchmark) as an independent referee. Each function returns a
list of broken rules in words; an empty list means the answer is right.
"""

from __future__ import annotations


def sudoku_errors(solution: list[list[int]], givens: list[list[int]] | None,
                  box: tuple[int, int], cages: list[tuple[list[tuple[int, int]], int]] = ()
                  ) -> list[str]:
    n = len(solution)
    errors = []
    if any(len(row) != n for row in solution):
        return ["the answer is not square"]
    want = set(range(1, n + 1))
    groups: dict[str, list[int]] = {}
    for r in range(n):
        groups[f"row {r}"] = solution[r]
    for c in range(n):
        groups[f"col {c}"] = [solution[r][c] for r in range(n)]
    br, bc = box
    for r0 in range(0, n, br):
        for c0 in range(0, n, bc):
            groups[f"box at {r0},{c0}"] = [solution[r0 + i][c0 + j]
                                          for i in range(br) for j in range(bc)]
    for name, values in groups.items():
        if set(values) != want:
            errors.append(f"{name} holds {sorted(values)}")
    for r in range(n):
        for c in range(n):
            if givens and givens[r][c] and givens[r][c] != solution[r][c]:
                errors.append(f"given {givens[r][c]} at {r},{c} became {solution[r][c]}")
    for cells, total in cages:
        values = [solution[r][c] for r, c in cells]
        if sum(values) != total or len(set(values)) != len(values):
            errors.append(f"cage {cells} holds {values}, sum should be {total}")
    return errors


def nonogram_errors(picture: list[str], rows: list[list[int]], cols: list[list[int]]
                    ) -> list[str]:
    if len(picture) != len(rows) or any(len(line) != len(cols) for line in picture):
        return ["the picture has the wrong size"]

    def runs(line: str) -> list[int]:
        out, count = [], 0
        for ch in line + ".":
            if ch == "#":
                count += 1
            elif count:
                out.append(count)
                count = 0
        return out

    errors = []
    for r, line in enumerate(picture):
        if runs(line) != [n for n in rows[r] if n]:
            errors.append(f"row {r} reads {runs(line)}, clue {rows[r]}")
    for c in range(len(cols)):
        line = "".join(row[c] for row in picture)
        if runs(line) != [n for n in cols[c] if n]:
            errors.append(f"col {c} reads {runs(line)}, clue {cols[c]}")
    return errors
