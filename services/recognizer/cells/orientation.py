"""Which way up: the quarter turn that stands the puzzle's digits upright.

A phone held flat over a page records an arbitrary EXIF orientation, and pages are also
photographed turned in the pixels themselves. The orientation model reads, for each inked
cell, how many clockwise quarter turns stand its digit upright (from the same cell
features as the digit model); the grid takes the turn its cells agree on. The picture as
shown (EXIF tag applied) wins unless a turn is clearly more likely, so the tag only
breaks ties.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import joblib
import numpy as np

from services.recognizer.cells.classifier import DigitModel
from services.recognizer.cells.tuning import MIN_INKED
from services.recognizer.cells.tuning import TURN_MARGIN as MARGIN

MODEL_PATH = Path(__file__).parents[1] / "models" / "orientation.joblib"


@cache
def load_orientation_model(path: Path = MODEL_PATH) -> DigitModel:
    return joblib.load(path)


def turn_lattice(lattice: np.ndarray, quarter_turns: int) -> np.ndarray:
    """The lattice indexed by the puzzle's rows and columns once the view turns clockwise
    `quarter_turns` times: new[r, c] = old[n - c, r] per turn."""
    return np.ascontiguousarray(np.rot90(lattice, -quarter_turns, axes=(0, 1)))


def turn_picture(picture: np.ndarray, quarter_turns: int) -> np.ndarray:
    """The picture turned clockwise `quarter_turns` times."""
    return np.ascontiguousarray(np.rot90(picture, -quarter_turns, axes=(0, 1)))


def turn_points(points: np.ndarray, quarter_turns: int, shape: tuple[int, ...]) -> np.ndarray:
    """Points (x, y) of a picture of `shape` (rows, columns) where they land once the
    picture turns clockwise `quarter_turns` times (a negative count turns it back)."""
    points = np.asarray(points, float).copy()
    height, width = shape[:2]
    for _ in range(quarter_turns % 4):  # one clockwise turn: (x, y) -> (height - 1 - y, x)
        points = np.stack([height - 1 - points[..., 1], points[..., 0]], axis=-1)
        height, width = width, height
    return points


def turn_log_likelihoods(features: np.ndarray, inked: np.ndarray) -> np.ndarray | None:
    """Log-likelihood of each clockwise quarter turn (0-3) over the inked cells, or None
    when too few cells hold ink. `features` are the cells' digit-model features."""
    if inked.sum() < MIN_INKED:
        return None
    probs = load_orientation_model().predict_proba(features[inked])
    return np.log(probs + 1e-9).sum(axis=0)


def upright_turns(features: np.ndarray, inked: np.ndarray) -> int:
    """Clockwise quarter turns (0-3) that stand the puzzle upright."""
    scores = turn_log_likelihoods(features, inked)
    if scores is None:
        return 0
    best = int(np.argmax(scores))
    return best if scores[best] > scores[0] + MARGIN else 0
