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
from gridsight.training.symbols import HELD_OUT_STYLE, font_split, glyph_set
from services.recognizer.cells.classifier import DigitModel
from services.recognizer.cells.features import cell_features
from services.recognizer.grid.decode import WORK_SIDE
from services.recognizer.grid.focus import focus_views
from services.recognizer.grid.lattice import refine_lattice
from services.recognizer.grid.outlines import binarize, find_grid
from services.recognizer.grid.straighten import straighten

HELD_OUT_FAMILIES = ("Lato",)  # never trained on: the test reads them as unseen fonts
STROKE_SHARE = 0.15  # grids drawn in the stroke hand (glyph variants no installed font has)
REAL_REPEAT = 3  # real cells are few next to the synthetic ones; each counts this many times
# Photos out of focus by the cell (a phone focused before or behind the page), beside the
# ordinary photos whose blur is drawn in pixels: a 640x480 grid's cells never trained
# softer than 4-6 % of their side, and a real page tilted to the lens was read wrong where
# it was softest. Seeds of their own (seed * 100 000 + DEFOCUSED_SEEDS + i).
DEFOCUSED_GRIDS = 500
DEFOCUSED_SEEDS = 20_000
DEFOCUS_SHARE = (0.03, 0.12)  # the defocus sigma as a share of the cell side
TILTED_SHARE = 0.5  # of those photos, the share whose defocus varies across the grid
DEFOCUS_TILT = 0.5
# Grids of 12 and 16 a side print their numbers as glyphs the recognizer cuts out of each
# cell (symbols.py), each read by this model: the halves of a "12", and a "12" whose
# digits touch as one glyph too. Without them the model reads such glyphs by chance: a
# retrain for soft photos read the 2 of two of five 12s as 9 and 5, and a touching "12"
# as a 1, not as its halves. Seeds of their own (seed * 100 000 + OTHER_SIDE_SEEDS + i);
# drawn in the symbol model's training fonts and styles only, so the faces it holds out
# stay unseen.
OTHER_SIDE_GRIDS = 150
OTHER_SIDE_SEEDS = 30_000
OTHER_SIDE_PHOTO_SHARE = 0.4


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
                stroke_share: float = 0.0, defocus: float = 0.0, defocus_tilt: float = 0.0
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """(grey picture, lattice the pipeline would use, givens) for one synthetic grid.

    defocus, defocus_tilt: as `photograph`'s; with a defocus the grid is always a photo.
    None when the photo came out too small or too blurred (in pixels) to read, even for
    a person.
    """
    if defocus > 0:
        photo_share = 1.0
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
            defocus=defocus, defocus_tilt=defocus_tilt, **_photo_effects(rng))
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


def make_defocused_cells(seeds, fonts: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Features and labels of the cells of photos out of focus by the cell, each grid read
    through one of the sharpened views the pipeline averages (focus.focus_views) drawn at
    random: the model sees a soft grid as the pipeline hands it over. The defocus comes
    from a stream of its own, so the grid drawn for a seed is the same with or without it."""
    xs, ys = [], []
    for seed in seeds:
        rng = np.random.default_rng([seed, 1])
        defocus = rng.uniform(*DEFOCUS_SHARE)
        tilt = DEFOCUS_TILT if rng.random() < TILTED_SHARE else 0.0
        sample = sample_grid(seed, fonts, stroke_share=STROKE_SHARE, defocus=defocus,
                             defocus_tilt=tilt)
        if sample is None:
            continue
        gray, lattice, givens = sample
        views = focus_views(straighten(gray, lattice))
        xs.append(cell_features(views[rng.integers(len(views))]))
        ys.append(givens.ravel())
    return np.concatenate(xs), np.concatenate(ys)


def make_other_side_glyphs(seeds) -> tuple[np.ndarray, np.ndarray]:
    """Features and digits (1..9) of the digit glyphs of 12x12 and 16x16 grids printing
    digits (10..16 as two glyphs, or letters after 9), each cut as the recognizer cuts it."""
    trained = set(training_fonts())
    fonts = [f for f in font_split()[0] if f in trained]
    styles = [s for s in sorted(STYLES) if s != HELD_OUT_STYLE]
    return glyph_set(seeds, fonts, styles, photo_share=OTHER_SIDE_PHOTO_SHARE,
                     vary_size=True, conventions=("digits", "hex"), digits_only=True)


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


def mean_nll(logits: np.ndarray, y: np.ndarray) -> float:
    """Mean negative log likelihood of labels `y` under the softmax of `logits`."""
    z = logits - logits.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-logp[np.arange(len(y)), y].mean())


def least_nll(logits_at, y: np.ndarray, bounds: tuple[float, float]) -> float:
    """The value within `bounds` whose logits (`logits_at(value)`) fit `y` best."""
    return float(minimize_scalar(lambda v: mean_nll(logits_at(v), y), bounds=bounds,
                                 method="bounded").x)


def fit_temperature(model: DigitModel, x: np.ndarray, y: np.ndarray) -> float:
    """The softmax temperature minimising held-out negative log likelihood."""
    logits = model.logits(x)
    return float(np.exp(least_nll(lambda log_t: logits / np.exp(log_t), y, (-3, 3))))


def fit_blank_offset(model: DigitModel, x: np.ndarray, y: np.ndarray) -> float:
    """The offset on the tempered blank logit minimising held-out negative log likelihood.

    Training on soft photos left the blanks of ordinary grids less sure than they are
    read right (a first such model: 1st percentile of p(blank) 0.89, before 0.95), and
    the solver's repair, looking for a reading with one answer, then wrote digits into
    blanks; the temperature alone, one scale for every class, does not mend that."""
    tempered = model.logits(x) / model.temperature
    blank = np.eye(tempered.shape[1])[0]
    return least_nll(lambda offset: tempered + offset * blank, y, (-5, 5))


def fold_blank_offset(model: DigitModel, offset: float) -> None:
    """Add `offset` to the model's tempered blank logit, in its output layer's bias, so
    that every reader of the model sees it."""
    model.network.intercepts_[-1][0] += offset * model.temperature


def train(train_grids: int = 500, calib_grids: int = 80, seed: int = 0,
          log=print, defocused_grids: int = 0, other_side_grids: int = 0,
          hidden: int = 256) -> DigitModel:
    """Train from scratch; deterministic for a given seed."""
    fonts = training_fonts()
    started = time.perf_counter()
    x, y = make_cells(range(seed * 100_000, seed * 100_000 + train_grids), fonts,
                      stroke_share=STROKE_SHARE)
    if defocused_grids:
        first = seed * 100_000 + DEFOCUSED_SEEDS
        xd, yd = make_defocused_cells(range(first, first + defocused_grids), fonts)
        x, y = np.concatenate([x, xd]), np.concatenate([y, yd])
    if other_side_grids:
        first = seed * 100_000 + OTHER_SIDE_SEEDS
        xg, yg = make_other_side_glyphs(range(first, first + other_side_grids))
        x, y = np.concatenate([x, xg]), np.concatenate([y, yg])
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
    network = MLPClassifier(hidden_layer_sizes=(hidden,), alpha=1e-3, batch_size=256,
                            learning_rate_init=1e-3, max_iter=60, random_state=seed)
    network.fit(scaler.transform(x), y)
    model = DigitModel(scaler=scaler, network=network, temperature=1.0, info={})
    raw = model.predict_proba(xc)
    # Calibrated on ordinary grids only: those are what nearly every photo is.
    model.temperature = fit_temperature(model, xc, yc)
    blank_offset = fit_blank_offset(model, xc, yc) if defocused_grids else 0.0
    fold_blank_offset(model, blank_offset)
    calibrated = model.predict_proba(xc)
    model.info = {
        "train_cells": int(len(y)), "calibration_cells": int(len(yc)),
        "stroke_share": STROKE_SHARE, "real_photos": real_photos,
        "real_cells": int(len(yr)), "fonts": len(fonts),
        "held_out_families": list(HELD_OUT_FAMILIES), "seed": seed,
        "calibration_accuracy": float((calibrated.argmax(1) == yc).mean()),
        "ece_before": expected_calibration_error(raw, yc),
        "ece_after": expected_calibration_error(calibrated, yc),
        "temperature": model.temperature, "blank_offset": blank_offset,
        "defocused_grids": defocused_grids, "other_side_grids": other_side_grids,
        "hidden_units": hidden,
    }
    log(f"trained in {time.perf_counter() - started:.0f} s: {model.info}")
    return model
