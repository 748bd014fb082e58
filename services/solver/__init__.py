"""The solver library: sudoku of any box shape, killer sudoku and nonograms.

Plain functions, no queue or web code: the Celery adapter lives in tasks.py.
"""

from services.solver.entries import solve_page
from services.solver.errors import PuzzleError
from services.solver.formats import parse_puzzles
from services.solver.repair import solve_reading
from services.solver.solve import solve_puzzle

__all__ = ["PuzzleError", "parse_puzzles", "solve_page", "solve_puzzle", "solve_reading"]
