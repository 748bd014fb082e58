"""The shipped classifier loads and meets its floor on fresh cells in a held-out font."""

from __future__ import annotations

import numpy as np

from gridsight.training.digits import (
    HELD_OUT_FAMILIES,
    expected_calibration_error,
    held_out_fonts,
    make_cells,
)
from services.recognizer.classifier import MODEL_PATH, load_model

ACCURACY_FLOOR = 0.99
ECE_CEILING = 0.03


def test_model_is_small_and_loads():
    assert MODEL_PATH.stat().st_size < 5_000_000
    model = load_model()
    assert model.temperature > 0
    assert set(HELD_OUT_FAMILIES) <= set(model.info["held_out_families"])


def test_held_out_font_accuracy_and_calibration():
    fonts = held_out_fonts()
    assert fonts, "the held-out font family is not installed"
    # Seeds far from the training script's, half screenshots and half photos.
    x, y = make_cells(range(900_000, 900_012), fonts, photo_share=0.5)
    probs = load_model().predict_proba(x)
    assert np.allclose(probs.sum(axis=1), 1.0)
    accuracy = (probs.argmax(axis=1) == y).mean()
    assert accuracy >= ACCURACY_FLOOR, accuracy
    assert expected_calibration_error(probs, y) <= ECE_CEILING
    # Blank is a class with a probability like the digits, not a yes/no threshold.
    assert 0 < probs[y == 0, 0].min() < 1
