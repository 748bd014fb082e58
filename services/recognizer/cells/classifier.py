"""The shipped digit classifier: probabilities over blank, 1..9 with a fitted temperature."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import joblib
import numpy as np

from services.recognizer.networks import logits, scaled

MODEL_PATH = Path(__file__).parents[1] / "models" / "digits.joblib"
# The same network trained with photos out of focus by the cell as well: read only on
# grids grid/focus.py calls soft, so every sharp grid keeps the main model's reading.
SOFT_MODEL_PATH = MODEL_PATH.with_name("digits_soft.joblib")
CLASSES = 10  # 0 = blank, then the digits 1..9


@dataclass
class DigitModel:
    """Scaler and network from scikit-learn, and the temperature that calibrates them."""

    scaler: object
    network: object
    temperature: float
    info: dict

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Pre-softmax scores of the network's output layer."""
        return logits(self.network, scaled(self.scaler, x))

    def predict_proba(self, x: np.ndarray) -> np.ndarray:
        return tempered_softmax(self.logits(x), self.temperature)


def tempered_softmax(logits: np.ndarray, temperature: float) -> np.ndarray:
    """Probabilities from logits divided by a calibration temperature, row by row."""
    z = logits / temperature
    z = z - z.max(axis=1, keepdims=True)
    p = np.exp(z)
    return p / p.sum(axis=1, keepdims=True)


@cache
def load_model(path: Path = MODEL_PATH) -> DigitModel:
    return joblib.load(path)


@cache
def load_soft_model(path: Path = SOFT_MODEL_PATH) -> DigitModel:
    return joblib.load(path)
