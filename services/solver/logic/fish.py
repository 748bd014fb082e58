"""Fish: a digit whose places in n rows lie in n columns (or the reverse).

n = 2 is the X-wing, 3 the swordfish, 4 the jellyfish. The digit must fill those n
columns from the n rows, so it leaves the columns' other cells.
"""

from __future__ import annotations

from itertools import combinations

from services.solver.logic.board import Board, Step, bit, describe_removal, eliminations_step

NAMES = {2: "X-wing", 3: "swordfish", 4: "jellyfish"}


def fish(board: Board, n: int) -> Step | None:
    size, places = board.size, board.places()
    for d in range(1, size + 1):
        b = bit(d)
        for base_is_row in (True, False):
            # positions[k] = the cross-line indices where d can go in base line k
            positions = {}
            for k in range(size):
                where = ([i % size for i in places[k][d]] if base_is_row
                         else [i // size for i in places[size + k][d]])
                if 2 <= len(where) <= n:
                    positions[k] = where
            for bases in combinations(sorted(positions), n):
                cover = sorted({j for k in bases for j in positions[k]})
                if len(cover) != n:
                    continue
                elims, proof = [], []
                for j in cover:
                    for k in range(size):
                        i = k * size + j if base_is_row else j * size + k
                        if board.values[i] or not board.cands[i] & b:
                            continue
                        (proof if k in bases else elims).append(i)
                elims = [(i, d) for i in elims]
                base_word, cover_word = ("rows", "columns") if base_is_row else ("columns", "rows")
                text = (f"In {base_word} {', '.join(str(k + 1) for k in bases)} the {d} can "
                        f"only go in {cover_word} {', '.join(str(j + 1) for j in cover)}, so "
                        f"those {cover_word} get their {d} from these {base_word}: "
                        f"{describe_removal(board, elims)} removed.")
                step = eliminations_step(NAMES[n], text, proof, elims, [d])
                if step:
                    return step
    return None
