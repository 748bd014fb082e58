"""networks.scaled and networks.network_proba give to the bit what scikit-learn's
StandardScaler.transform and MLPClassifier.predict_proba give: on the shipped sum
reader's networks with the feature rows a killer's reading asks them, on random rows of
each float dtype, and on small networks of two and of many classes."""

from __future__ import annotations

import io
import random

import numpy as np
import pytest
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler

from gridsight.synth.killer_render import render_killer
from gridsight.synth.puzzles import make_killer
from services.recognizer import recognize
from services.recognizer.cells.classifier import load_model
from services.recognizer.cells.kinds import load_kind_model
from services.recognizer.killer import sums
from services.recognizer.killer.sums import load_killer_model
from services.recognizer.networks import network_proba, scaled


def killer_rows(monkeypatch) -> list[np.ndarray]:
    """The feature rows the sum reader scales while it reads a rendered killer."""
    asked = []

    def recording(scaler, x):
        asked.append(np.array(x, copy=True))
        return scaled(scaler, x)

    monkeypatch.setattr(sums, "scaled", recording)
    puzzle, _ = make_killer(random.Random(12))
    buffer = io.BytesIO()
    render_killer(puzzle, seed=12).save(buffer, "PNG")
    assert recognize(buffer.getvalue(), "auto").kind == "killer"
    return asked


def assert_same(scaler, network, x):
    ours = network_proba(network, scaled(scaler, x))
    theirs = network.predict_proba(scaler.transform(x))
    assert ours.dtype == theirs.dtype
    assert np.array_equal(ours, theirs)


def test_the_sum_readers_networks_read_a_killers_rows_as_scikit_learn_does(monkeypatch):
    model = load_killer_model()
    rows = killer_rows(monkeypatch)
    assert len(rows) >= 20
    widths = {len(scaler.mean_): (scaler, network)
              for scaler, network in (model.digits, model.numbers)}
    for x in rows:
        assert_same(*widths[x.shape[1]], x)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64])
def test_random_rows_of_each_dtype(dtype):
    model = load_killer_model()
    rng = np.random.default_rng(3)
    for scaler, network in (model.digits, model.numbers):
        for count in (1, 2, 7):
            x = rng.normal(0, 3, (count, len(scaler.mean_)))
            assert_same(scaler, network, (x * 10).astype(dtype) if dtype is np.int64
                        else x.astype(dtype))


@pytest.mark.parametrize("classes", [2, 5])
def test_small_networks_of_two_and_of_many_classes(classes):
    rng = np.random.default_rng(classes)
    x = rng.normal(size=(200, 6))
    y = (x[:, 0] * 2 + x[:, 1]).argsort().argsort() * classes // len(x)
    scaler = StandardScaler().fit(x)
    network = MLPClassifier((8, 4), max_iter=60, random_state=0).fit(scaler.transform(x), y)
    assert network.out_activation_ == ("logistic" if classes == 2 else "softmax")
    assert_same(scaler, network, rng.normal(size=(9, 6)))


def test_the_cell_readers_scalers_scale_as_scikit_learn_does():
    rng = np.random.default_rng(5)
    digit_scaler = load_model().scaler
    kind_model = load_kind_model()
    for scaler in (digit_scaler, kind_model.scaler, kind_model.hand.scaler):
        for dtype in (np.float64, np.float32):
            x = rng.normal(0, 2, (11, len(scaler.mean_))).astype(dtype)
            ours, theirs = scaled(scaler, x), scaler.transform(x)
            assert ours.dtype == theirs.dtype
            assert np.array_equal(ours, theirs)
