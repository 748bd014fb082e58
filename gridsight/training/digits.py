"""Synthetic training data and training for the digit classifier.

Cells come from whole rendered grids -- screenshots and synthetic photos -- cut out by the
same straightening and preprocessing the recognizer uses, so the classifier learns what
the pipeline really hands it: off-centre digits, grid-line remnants, blur, JPEG, shadows,
bends, and lattices a little off; plus, when ../shared/data is beside the project, the
real training photos of real_photos.py (never their validation set).
"""

from __future__ import annotations

import random
import time
from dataclasses import replace
from pathlib import Path

import cv2
import joblib
import numpy as np
from scipy.optimize import minimize_scalar
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler

from gridsight.synth.fonts import digit_fonts, font_family
from gridsight.synth.grids import random_solution
from gridsight.synth.photo import photograph
from gridsight.synth.render import STROKES, STYLES, render_sudoku
from gridsight.training.real_photos import NOTES, half_solved_grids
from services.recognizer.cells import cell_features, straighten
from services.recognizer.classifier import DigitModel
from services.recognizer.decode import WORK_SIDE
from services.recognizer.grid import binarize, find_grid
from services.recognizer.lattice import refine_lattice

HELD_OUT_FAMILIES = ("Lato",)  # never trained on: the test reads them as unseen fonts
STROKE_SHARE = 0.15  # grids drawn in the stroke hand (glyph variants no installed font has)
REAL_REPEAT = 3  # real cells are few next to the synthetic ones; each counts this many times


def train_and_save(train_fn, out: Path, *args) -> None:
    """Run `train_fn(*args)`, write the model to `out` (joblib) and say how long it took."""
    started = time.perf_counter()
    model = train_fn(*args)
    out.parent.mkdir(parents=True, exist_ok=True)
    joblib.dump(model, out, compress=3)
    print(f"wrote {out} ({out.stat().st_size / 1e6:.2f} MB) "
          f"in {time.perf_counter() - started:.0f} s")


def training_fonts() -> list[str]:
    return [p for n, p in digit_fonts() if font_family(n) not in HELD_OUT_FAMILIES]


def held_out_fonts() -> list[str]:
    return [p for n, p in digit_fonts() if font_family(n) in HELD_OUT_FAMILIES]


def random_givens(rng: random.Random, fill: float) -> list[list[int]]:
    return [[v if rng.random() < fill else 0 for v in row] for row in random_solution(9, None, rng)]


def _random_style(rng: random.Random):
    base = STYLES[rng.choice(sorted(STYLES))]
    return replace(base, thin=base.thin * rng.uniform(0.5, 1.8),
                   thick=base.thick * rng.uniform(0.6, 1.6),
                   digit_height=rng.uniform(0.45, 0.72),
                   stroke=rng.choice([0.0, 0.0, 0.0, 0.01, 0.02]), serif=None)


def to_work(gray: np.ndarray, lattice: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    long_side = max(gray.shape)
    if long_side <= WORK_SIDE:
        return gray, lattice
    f = WORK_SIDE / long_side
    small = cv2.resize(gray, (round(gray.shape[1] * f), round(gray.shape[0] * f)),
                       interpolation=cv2.INTER_AREA)
    return small, lattice * f


MIN_CELL_PX = 22  # smaller cells in a photo are not legible; they would only teach noise


def _photo_effects(rng: random.Random) -> dict:
    """The failure classes real photos showed: creases, shadow stripes, dark and faded
    exposure, a framed heading on the grid (inverted pictures are read inverted back)."""
    return {"creases": rng.choice([0, 0, 0, 1, 2]), "stripes": rng.choice([0, 0, 0, 2, 4]),
            "exposure": rng.choice(["normal"] * 6 + ["dark", "faded"]),
            "header_frame": rng.random() < 0.1}


def real_cells(repeat: int = 1) -> tuple[np.ndarray, np.ndarray, int]:
    """Features and labels of the digit and blank cells of the real training photos
    (pencil-note cells left out), each repeated `repeat` times, and the photo count."""
    xs, ys, photos = [], [], 0
    for _, gray, lattice, labels in half_solved_grids():
        keep = labels.ravel() != NOTES
        xs.append(cell_features(straighten(gray, lattice))[keep])
        ys.append(labels.ravel()[keep])
        photos += 1
    if not xs:
        return np.zeros((0, 0), np.float32), np.zeros(0, int), 0
    return np.tile(np.concatenate(xs), (repeat, 1)), np.tile(np.concatenate(ys), repeat), photos


def sample_grid(seed: int, fonts: list[str], photo_share: float = 0.7, fill: float = 0.5,
                stroke_share: float = 0.0) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(grey picture, lattice the pipeline would use, givens) for one synthetic grid.

    None when the photo came out too small or too blurred to read, even for a person.
    """
    rng = random.Random(seed)
    givens = random_givens(rng, fill)
    font = STROKES if rng.random() < stroke_share else rng.choice(fonts)
    image = render_sudoku(givens, font=font, style=_random_style(rng),
                          cell_px=rng.randint(26, 64), seed=seed, jitter=rng.uniform(0, 0.12),
                          margin=rng.randint(4, 40))
    truth = np.asarray(image.info["lattice"], float)
    if rng.random() < photo_share:
        blur = rng.uniform(0.3, 2.4)
        image, t = photograph(
            image, rng=np.random.default_rng(seed), curvature=rng.choice([0, 0, 0.02, 0.05]),
            perspective=rng.uniform(0, 0.1), rotation=rng.uniform(0, 15),
            fill=(0.6, 0.95), blur=blur, noise=rng.choice([rng.uniform(0, 8), 14.0]),
            shadow=rng.uniform(0, 0.5), jpeg_quality=rng.randint(30, 95),
            out_size=rng.choice([(640, 480), (800, 600), (1024, 768)]),
            **_photo_effects(rng))
        truth = t.lattice
        cell = np.linalg.norm(truth[0, -1] - truth[0, 0]) / 9
        if cell < MIN_CELL_PX or blur > cell / 12:
            return None
    gray = cv2.cvtColor(np.asarray(image.convert("RGB")), cv2.COLOR_RGB2GRAY)
    gray, truth = to_work(gray, truth)
    cell = np.linalg.norm(truth[0, -1] - truth[0, 0]) / 9
    lattice = None
    if rng.random() < 0.5:  # the pipeline's own lattice, when it is close to the truth
        try:
            binary = binarize(gray)
            found = refine_lattice(binary, find_grid(gray, binary))
            if np.abs(found - truth).max() < 0.25 * cell:
                lattice = found
        except ValueError:
            pass
    if lattice is None:  # the truth, a little off as a found lattice would be
        lattice = truth + np.random.default_rng(seed).normal(0, 0.03 * cell, truth.shape)
    return gray, lattice, np.asarray(givens)


def make_cells(seeds, fonts: list[str], photo_share: float = 0.7, fill: float = 0.5,
               stroke_share: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels (0 = blank) of every cell of the grids made from `seeds`."""
    xs, ys = [], []
    for seed in seeds:
        sample = sample_grid(seed, fonts, photo_share, fill, stroke_share)
        if sample is None:
            continue
        gray, lattice, givens = sample
        xs.append(cell_features(straighten(gray, lattice)))
        ys.append(givens.ravel())
    return np.concatenate(xs), np.concatenate(ys)


def expected_calibration_error(probs: np.ndarray, labels: np.ndarray, bins: int = 15) -> float:
    """Mean |accuracy - confidence| over confidence bins, weighted by bin size."""
    confidence = probs.max(axis=1)
    correct = probs.argmax(axis=1) == labels
    edges = np.linspace(0, 1, bins + 1)
    total = 0.0
    for lo, hi in zip(edges[:-1], edges[1:], strict=True):
        inside = (confidence > lo) & (confidence <= hi)
        if inside.any():
            total += inside.mean() * abs(correct[inside].mean() - confidence[inside].mean())
    return float(total)


def fit_temperature(model: DigitModel, x: np.ndarray, y: np.ndarray) -> float:
    """The softmax temperature minimising held-out negative log likelihood."""
    logits = model.logits(x)

    def nll(log_t: float) -> float:
        z = logits / np.exp(log_t)
        z = z - z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        return float(-logp[np.arange(len(y)), y].mean())

    return float(np.exp(minimize_scalar(nll, bounds=(-3, 3), method="bounded").x))


def train(train_grids: int = 500, calib_grids: int = 80, seed: int = 0,
          log=print) -> DigitModel:
    """Train from scratch; deterministic for a given seed."""
    fonts = training_fonts()
    started = time.perf_counter()
    x, y = make_cells(range(seed * 100_000, seed * 100_000 + train_grids), fonts,
                      stroke_share=STROKE_SHARE)
    xc, yc = make_cells(range(seed * 100_000 + 50_000, seed * 100_000 + 50_000 + calib_grids),
                        fonts, stroke_share=STROKE_SHARE)
    xr, yr, real_photos = real_cells(REAL_REPEAT)
    if real_photos:
        x, y = np.concatenate([x, xr]), np.concatenate([y, yr])
    log(f"cells: {len(y)} training ({len(yr)} from {real_photos} real photos), {len(yc)} "
        f"calibration ({time.perf_counter() - started:.0f} s to make)")
    started = time.perf_counter()
    scaler = StandardScaler().fit(x)
    # Wide enough for 240 faces, real print and handwriting-like strokes in one model.
    network = MLPClassifier(hidden_layer_sizes=(256,), alpha=1e-3, batch_size=256,
                            learning_rate_init=1e-3, max_iter=60, random_state=seed)
    network.fit(scaler.transform(x), y)
    model = DigitModel(scaler=scaler, network=network, temperature=1.0, info={})
    raw = model.predict_proba(xc)
    model.temperature = fit_temperature(model, xc, yc)
    calibrated = model.predict_proba(xc)
    model.info = {
        "train_cells": int(len(y)), "calibration_cells": int(len(yc)),
        "stroke_share": STROKE_SHARE, "real_photos": real_photos,
        "real_cells": int(len(yr)), "fonts": len(fonts),
        "held_out_families": list(HELD_OUT_FAMILIES), "seed": seed,
        "calibration_accuracy": float((calibrated.argmax(1) == yc).mean()),
        "ece_before": expected_calibration_error(raw, yc),
        "ece_after": expected_calibration_error(calibrated, yc),
        "temperature": model.temperature,
    }
    log(f"trained in {time.perf_counter() - started:.0f} s: {model.info}")
    return model
