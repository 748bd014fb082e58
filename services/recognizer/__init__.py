"""Reads sudoku grids from photos and screenshots: a plain library, no queue or HTTP."""

from services.recognizer.errors import RecognitionError
from services.recognizer.pipeline import recognize

__all__ = ["RecognitionError", "recognize"]
