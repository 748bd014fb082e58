"""Training of the orientation model: which quarter turn stands a cell's digit upright.

Every inked cell of a grid is shown in its four quarter turns, labelled with the clockwise
turns that stand it upright again. Grids come from the digit training's synthetic
screenshots and photos, plus the real training photos when ../shared/data is present.
"""

from __future__ import annotations

import time

import numpy as np
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler

from gridsight.training.digits import sample_grid, training_fonts
from gridsight.training.real_photos import half_solved_grids
from services.recognizer.cells.classifier import DigitModel
from services.recognizer.cells.features import read_grid_cells
from services.recognizer.grid.straighten import straighten

SEED_BASE = 3_000_000  # far from the digit model's training seeds


def turned_cells(gray: np.ndarray, lattice: np.ndarray,
                 inked: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Features of the inked cells in each quarter turn of the grid, and the clockwise
    turns (0-3) that stand each one upright."""
    straight = straighten(gray, lattice)
    xs, ys = [], []
    for turn in range(4):
        view = np.ascontiguousarray(np.rot90(straight, -turn))
        features = read_grid_cells(view)[0]
        keep = np.rot90(inked, -turn).ravel()
        xs.append(features[keep])
        ys.append(np.full(int(keep.sum()), (4 - turn) % 4))
    return np.concatenate(xs), np.concatenate(ys)


def make_turned(seeds, fonts) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for seed in seeds:
        sample = sample_grid(seed, fonts, stroke_share=0.1)
        if sample is None:
            continue
        gray, lattice, givens = sample
        x, y = turned_cells(gray, lattice, givens > 0)
        xs.append(x)
        ys.append(y)
    return np.concatenate(xs), np.concatenate(ys)


def real_turned() -> tuple[np.ndarray, np.ndarray, int]:
    xs, ys, photos = [], [], 0
    for _, gray, lattice, labels in half_solved_grids():
        x, y = turned_cells(gray, lattice, labels > 0)
        xs.append(x)
        ys.append(y)
        photos += 1
    if not xs:
        return np.zeros((0, 0), np.float32), np.zeros(0, int), 0
    return np.concatenate(xs), np.concatenate(ys), photos


def train(grids: int = 400, seed: int = 0, log=print) -> DigitModel:
    """Train from scratch; deterministic for a given seed."""
    started = time.perf_counter()
    fonts = training_fonts()
    x, y = make_turned(range(SEED_BASE + seed * 10_000, SEED_BASE + seed * 10_000 + grids), fonts)
    xr, yr, photos = real_turned()
    if photos:
        x, y = np.concatenate([x, xr]), np.concatenate([y, yr])
    log(f"turned cells: {len(y)} ({len(yr)} from {photos} real photos), "
        f"{time.perf_counter() - started:.0f} s to make")
    scaler = StandardScaler().fit(x)
    network = MLPClassifier(hidden_layer_sizes=(64,), alpha=1e-3, batch_size=256,
                            learning_rate_init=1e-3, max_iter=30, random_state=seed)
    network.fit(scaler.transform(x), y)
    model = DigitModel(scaler=scaler, network=network, temperature=1.0, info={})
    model.info = {"cells": int(len(y)), "real_photos": photos, "real_cells": int(len(yr)),
                  "grids": grids, "seed": seed,
                  "train_accuracy": float((model.predict_proba(x).argmax(1) == y).mean())}
    log(f"trained: {model.info}")
    return model
