"""The shipped killer models load and meet their floors on fresh, unseen grids."""

from __future__ import annotations

import numpy as np

from gridsight.training.sums import Numbers, make_data
from services.recognizer.killer.cages import mirrored
from services.recognizer.killer.sums import MODEL_PATH, load_killer_model

WALL_ACCURACY_FLOOR = 0.995
DIGIT_ACCURACY_FLOOR = 0.97
NUMBER_ACCURACY_FLOOR = 0.95  # whole numbers as found, however cut (calibration: 0.98)


def test_model_is_small_and_loads():
    assert MODEL_PATH.stat().st_size < 5_000_000
    model = load_killer_model()
    assert model.temperature > 0 and model.info["grids"] >= 100


def test_fresh_grids_meet_the_floors():
    # Seeds far from the training script's; every style, print ones photographed.
    numbers = Numbers()
    ex, ey, gx, gy = make_data(range(990_000, 990_016), numbers=numbers)
    model = load_killer_model()
    p = 0.5 * (model.walls.predict_proba(ex)[:, 1] + model.walls.predict_proba(mirrored(ex))[:, 1])
    assert ((p >= 0.5) == ey).mean() >= WALL_ACCURACY_FLOOR
    digits = model.digit_proba(gx)
    assert np.allclose(digits.sum(axis=1), 1.0)
    assert (digits.argmax(axis=1) == gy).mean() >= DIGIT_ACCURACY_FLOOR
    whole = model.number_proba(np.stack(numbers.x))
    assert np.allclose(whole.sum(axis=1), 1.0) and 0 < model.number_weight < 1
    assert (whole.argmax(axis=1) == np.array(numbers.y)).mean() >= NUMBER_ACCURACY_FLOOR
