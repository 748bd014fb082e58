"""Classic or killer sudoku: how sure we are, and what to do when the caller said otherwise.

A killer grid has cage outlines along about half of its cell edges and a number in the
corner of a third of its cells; a classic grid has neither. The wall probabilities and the
share of cage heads whose corner holds a number give the killer probability through a
logistic curve on their mean; both must be present for a confident "killer".

An explicit kind="killer" on a picture that looks classic raises a RecognitionError saying
so. An explicit kind="sudoku" on a picture that clearly looks killer (probability at least
KILLER_OVERRIDE) is read as a killer anyway: a killer has no givens, so reading it as a
classic grid could only give an empty, useless puzzle; the Reading's kind says what was
read.
"""

from __future__ import annotations

import math

import numpy as np

from services.recognizer.errors import RecognitionError

KILLER_OVERRIDE = 0.9  # a "sudoku" request is read as killer above this probability
MIN_HEADS = 5  # fewer cage heads than this is not a killer grid


def killer_probability(walls_right: np.ndarray, walls_down: np.ndarray, heads: int,
                       heads_with_numbers: int) -> float:
    """Probability that the grid is a killer sudoku, from what the killer reader found."""
    walls = np.concatenate([np.ravel(walls_right), np.ravel(walls_down)])
    # Share of edges that are walls: about 0.4-0.75 in killer grids, near 0 in classic ones.
    wall_share = float(np.mean(walls))
    numbered = heads_with_numbers / heads if heads >= MIN_HEADS else 0.0
    evidence = min(wall_share / 0.35, 1.0) + numbered  # 0 .. 2; killer grids near 2
    return 1.0 / (1.0 + math.exp(-8.0 * (evidence - 1.0)))


def decide(requested: str, p_killer: float) -> tuple[str, float]:
    """(kind to read, confidence in it) for the kind the caller asked for."""
    if requested == "killer":
        if p_killer <= 0.5:
            raise RecognitionError(
                "this looks like a classic sudoku, not a killer sudoku: no cage outlines or "
                "cage sums were found. Send it with kind 'sudoku' or 'auto'")
        return "killer", p_killer
    if requested == "sudoku":
        if p_killer >= KILLER_OVERRIDE:
            return "killer", p_killer
        return "sudoku", 1.0 - p_killer
    if p_killer > 0.5:  # walls alone (evidence 1, p = 0.5) are not enough: numbers too
        return "killer", p_killer
    return "sudoku", 1.0 - p_killer
