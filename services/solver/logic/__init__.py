"""A logical solver that works as a person does: the next step, explained, and a rating."""

from services.solver.logic.board import Board, Step
from services.solver.logic.path import Path, next_step, solve_path

__all__ = ["Board", "Path", "Step", "next_step", "solve_path"]
