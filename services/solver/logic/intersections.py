"""Locked candidates: a digit confined to where a box meets a row or column."""

from __future__ import annotations

from services.solver.logic.board import Board, Step, describe_removal, eliminations_step


def _lines(board: Board):
    lay = board.lay
    for kind, lines, offset in (("row", lay.rows, 0), ("column", lay.cols, board.size)):
        for k, line in enumerate(lines):
            yield kind, offset + k, line


def pointing(board: Board) -> Step | None:
    """In a box, d only in one row (column): remove d from that line outside the box."""
    lay = board.lay
    for b, box_cells in enumerate(lay.boxes):
        for d in range(1, board.size + 1):
            where = board.cells_with(box_cells, d)
            if len(where) < 2:
                continue
            size = board.size
            lines = []
            if len({i // size for i in where}) == 1:
                lines.append(where[0] // size)
            if len({i % size for i in where}) == 1:
                lines.append(size + where[0] % size)
            for u in lines:
                line = lay.geo.units[u]
                elims = [(i, d) for i in board.cells_with(line, d) if lay.box_of[i] != b]
                text = (f"In box {b + 1} the {d} can only go in {board.unit_name(u)}, so {d} "
                        f"is removed from {board.unit_name(u)} outside box {b + 1}: "
                        f"{describe_removal(board, elims)}.")
                step = eliminations_step("pointing", text, where, elims, [d])
                if step:
                    return step
    return None


def claiming(board: Board) -> Step | None:
    """In a row (column), d only in one box: remove d from that box outside the line."""
    lay = board.lay
    for _kind, u, line in _lines(board):
        for d in range(1, board.size + 1):
            where = board.cells_with(line, d)
            if len(where) < 2:
                continue
            b = lay.box_of[where[0]]
            if any(lay.box_of[i] != b for i in where):
                continue
            elims = [(i, d) for i in board.cells_with(lay.boxes[b], d)
                     if i not in lay.unit_sets[u]]
            text = (f"In {board.unit_name(u)} the {d} can only go in box {b + 1}, so {d} is "
                    f"removed from box {b + 1} outside {board.unit_name(u)}: "
                    f"{describe_removal(board, elims)}.")
            step = eliminations_step("claiming", text, where, elims, [d])
            if step:
                return step
    return None
