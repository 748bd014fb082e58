"""Locked candidates: a digit confined to where a box meets a row or column."""

from __future__ import annotations

from services.solver.logic.board import Board, Step, describe_removal, eliminations_step


def _confined(board: Board, technique: str, within, across) -> Step | None:
    """In a unit of `within`, d only where it meets one unit of `across`: remove d from
    that unit outside it. Units are numbered as in the geometry (rows, columns, boxes)."""
    unit_sets, places = board.lay.unit_sets, board.places()
    for a in within:
        for d in range(1, board.size + 1):
            where = places[a][d]
            if len(where) < 2:
                continue
            for b in across:
                if not unit_sets[b].issuperset(where):
                    continue
                elims = [(i, d) for i in places[b][d] if i not in unit_sets[a]]
                text = (f"In {board.unit_name(a)} the {d} can only go in {board.unit_name(b)}, "
                        f"so {d} is removed from {board.unit_name(b)} outside "
                        f"{board.unit_name(a)}: {describe_removal(board, elims)}.")
                step = eliminations_step(technique, text, where, elims, [d])
                if step:
                    return step
    return None


def _boxes(board: Board) -> range:
    return range(2 * board.size, 3 * board.size)


def pointing(board: Board) -> Step | None:
    """In a box, d only in one row (column): remove d from that line outside the box."""
    return _confined(board, "pointing", _boxes(board), range(2 * board.size))


def claiming(board: Board) -> Step | None:
    """In a row (column), d only in one box: remove d from that box outside the line."""
    return _confined(board, "claiming", range(2 * board.size), _boxes(board))
