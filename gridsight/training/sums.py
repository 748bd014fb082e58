"""Synthetic training data for the killer models: walls per edge, sum digits per glyph.

Grids come from gridsight.synth.killer_render in every style with random variations,
a share of them photographed, and are cut up by the same code the recognizer runs. Labels
come from the puzzle drawn; nothing here reads real pictures.
"""

from __future__ import annotations

import io
import random
import time
from dataclasses import dataclass, field
from functools import cache

import cv2
import numpy as np
from PIL import Image
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler

from gridsight.synth.killer_render import in_progress, pick_sum_font, render_killer, widen
from gridsight.synth.killer_styles import TRAINED_STYLES, vary
from gridsight.synth.photo import photograph
from gridsight.synth.puzzles import make_killer
from gridsight.training.digits import to_work
from services.recognizer.cells.glyphs import glyph_features, split_glyph
from services.recognizer.grid.outlines import binarize, find_grid
from services.recognizer.killer.cage_lattice import killer_lattice, thin_ink
from services.recognizer.killer.cages import edge_profiles, mirrored, straighten_at, wall_ink
from services.recognizer.killer.sum_finding import find_sums
from services.recognizer.killer.sum_tuning import MAYBE_PAIR, SUM_CELL
from services.recognizer.killer.sums import (
    KillerModel,
    digit_reading,
    digit_width,
    number_features,
    whole_number_proba,
)


def photo_options(rng: random.Random) -> dict:
    """A phone photo of a printed killer: the grid fills much of the picture."""
    return dict(curvature=rng.choice([0, 0, 0.01, 0.02]), perspective=rng.uniform(0, 0.06),
                rotation=rng.uniform(0, 6), fill=(0.75, 0.95), blur=rng.uniform(0.3, 1.0),
                noise=rng.uniform(0, 5), shadow=rng.uniform(0, 0.4),
                jpeg_quality=rng.randint(60, 95), out_size=(1024, 768))


PROGRESS_SHARE = 0.3  # training grids drawn as puzzles in progress
HUGE_SHARE = 0.15  # training grids of few huge cages (make_killer(huge=True)) with givens


def cell_size(rng: random.Random) -> int:
    """Cell side in pixels: mostly phone and web sizes, some large (sums up to ~30 px)."""
    return rng.randint(36, 72) if rng.random() < 0.75 else rng.randint(72, 110)


def jpeg(image: Image.Image, quality: int) -> Image.Image:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "JPEG", quality=quality)
    return Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")


def sample_killer(seed: int, style: str | None = None, photo: bool | None = None,
                  styles=None, exclude_families: frozenset[str] = frozenset()):
    """(grey picture, truth lattice, image info with walls and sums, puzzle, solution).

    The style is drawn from `styles` (default: every trained style), widened (grounds,
    grain, insets); sum faces from the families not in `exclude_families` (for
    leave-one-family-out evaluation). A share of the puzzles is in progress (the person's
    digits and notes drawn in), a share of the screenshots is saved as JPEG.
    """
    rng = random.Random(seed)
    name = style or rng.choice(sorted(styles or TRAINED_STYLES))
    puzzle, solution = make_killer(rng)
    # Drawn on a side stream: every other grid stays as it was.
    side = random.Random(f"huge {seed}")
    if side.random() < HUGE_SHARE:
        puzzle, solution = make_killer(side, givens=True, huge=True)
    look = widen(vary(TRAINED_STYLES[name], rng), rng)
    font = pick_sum_font(look, rng, exclude_families)
    marks = in_progress(solution, rng, rng.uniform(0.1, 0.5), rng.uniform(0.05, 0.25)) \
        if rng.random() < PROGRESS_SHARE else None
    image = render_killer(puzzle, style=look, seed=seed, cell_px=cell_size(rng),
                          margin=rng.randint(6, 40), sum_font=font, marks=marks)
    info = dict(image.info, style=name)
    truth = np.asarray(info["lattice"], float)
    if photo if photo is not None else name == "print":
        image, t = photograph(image, rng=np.random.default_rng(seed), **photo_options(rng))
        truth = t.lattice
    elif rng.random() < 0.3:
        image = jpeg(image, rng.randint(55, 95))
    gray = cv2.cvtColor(np.asarray(image.convert("RGB")), cv2.COLOR_RGB2GRAY)
    gray, truth = to_work(gray, truth)
    return gray, truth, info, puzzle, solution


def pipeline_lattice(gray: np.ndarray, truth: np.ndarray, seed: int) -> np.ndarray:
    """The recognizer's own lattice when it is close to the truth, else the truth a bit off."""
    cell = np.linalg.norm(truth[0, -1] - truth[0, 0]) / 9
    try:
        found = killer_lattice(gray, find_grid(gray, binarize(gray)))
        if np.abs(found - truth).max() < 0.15 * cell:
            return found
    except ValueError:
        pass
    return truth + np.random.default_rng(seed).normal(0, 0.02 * cell, truth.shape)


def inks(gray: np.ndarray, lattice: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Thin-stroke ink of the straightened grid at CELL (walls) and SUM_CELL (sums)."""
    return (wall_ink(gray, lattice),
            thin_ink(straighten_at(gray, lattice, SUM_CELL), SUM_CELL))


@dataclass
class Numbers:
    """Whole numbers as the reader finds them: features, values, and (for fitting the
    mixture) the glyphs with their grid's text height and digit width."""

    x: list = field(default_factory=list)
    y: list = field(default_factory=list)
    found: list = field(default_factory=list)  # (glyphs, text height, digit width)

    def add(self, other: Numbers) -> Numbers:
        return Numbers(self.x + other.x, self.y + other.y, self.found + other.found)


def make_data(seeds, styles=None, exclude_families: frozenset[str] = frozenset(),
              numbers: Numbers | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(edge features, wall labels, glyph features, digit labels) of the grids of `seeds`;
    their whole numbers are added to `numbers` when given.

    Cage boundaries drawn on the grid lines (inset 0) look, in grey, like the grid's own
    lines: their edges teach the wall model nothing it can use, and are left out.
    """
    ex, ey, gx, gy = [], [], [], []
    for seed in seeds:
        gray, truth, info, _, _ = sample_killer(seed, styles=styles,
                                                exclude_families=exclude_families)
        lattice = pipeline_lattice(gray, truth, seed)
        ink_walls, ink_sums = inks(gray, lattice)
        if TRAINED_STYLES[info["style"]].inset > 0:
            right, down = edge_profiles(ink_walls)
            ex += [right.reshape(-1, right.shape[-1]), down.reshape(-1, down.shape[-1])]
            ey += [np.ravel(info["walls_right"]), np.ravel(info["walls_down"])]
        x, y = labelled_glyphs(ink_sums, info["sums"], numbers)
        gx += x
        gy += y
    return np.concatenate(ex), np.concatenate(ey), np.stack(gx), np.array(gy)


def labelled_glyphs(ink_sums: np.ndarray, sums: dict, numbers: Numbers | None = None
                    ) -> tuple[list, list]:
    """Glyph features and digit labels of the sums the reader finds, cut as it cuts them;
    each whole number found in a sum's cell goes to `numbers`, however it was cut."""
    gx, gy = [], []
    found = find_sums(ink_sums, list(sums))
    if not found:
        return gx, gy
    typical = float(np.median([g[0].h for g in found.values()]))
    width = digit_width(found)
    for cell, glyphs in found.items():
        text = str(sums.get(cell, ""))
        if numbers is not None and text:
            numbers.x.append(number_features(glyphs, typical))
            numbers.y.append(int(text))
            numbers.found.append((glyphs, typical, width))
        if len(glyphs) == 1 and len(text) == 2 and glyphs[0].w > MAYBE_PAIR * glyphs[0].h:
            glyphs = split_glyph(glyphs[0])  # touching digits, as the reader cuts them
        if len(text) != len(glyphs):
            continue  # not a sum cell, or cut wrongly: no label to learn from
        gx += [glyph_features(g, typical) for g in glyphs]
        gy += [int(ch) for ch in text]
    return gx, gy


@cache
def _layouts(count: int = 12) -> list:
    """A few cage layouts to draw sum sheets on (their sums are redrawn at random)."""
    return [make_killer(random.Random(90_000 + k))[0] for k in range(count)]


def sum_sheet(seed: int, styles=None, exclude_families: frozenset[str] = frozenset()):
    """(grey picture, lattice, {head: sum}) of a killer whose cage sums are random 1..45.

    Sheets are cheap (no puzzle search, no grid finding: the true lattice, a bit off) and
    give the digit model many more faces, sizes, grounds and compressions than the grids.
    """
    rng = random.Random(seed)
    name = rng.choice(sorted(styles or TRAINED_STYLES))
    layout = rng.choice(_layouts())
    puzzle = layout.model_copy(update={"cages": [
        c.model_copy(update={"sum": rng.choice([rng.randint(1, 9), rng.randint(10, 45),
                                                rng.randint(10, 45)])})
        for c in layout.cages]})
    look = widen(vary(TRAINED_STYLES[name], rng), rng)
    image = render_killer(puzzle, style=look, seed=seed, cell_px=cell_size(rng),
                          margin=rng.randint(6, 40),
                          sum_font=pick_sum_font(look, rng, exclude_families))
    sums = dict(image.info["sums"])
    truth = np.asarray(image.info["lattice"], float)
    if rng.random() < 0.5:
        image = jpeg(image, rng.randint(40, 95))
    gray = cv2.cvtColor(np.asarray(image.convert("RGB")), cv2.COLOR_RGB2GRAY)
    gray, truth = to_work(gray, truth)
    cell = np.linalg.norm(truth[0, -1] - truth[0, 0]) / 9
    lattice = truth + np.random.default_rng(seed).normal(0, 0.02 * cell, truth.shape)
    return gray, lattice, sums


def make_glyph_data(seeds, styles=None, exclude_families: frozenset[str] = frozenset(),
                    numbers: Numbers | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(glyph features, digit labels) from the sum sheets of `seeds` (whole numbers to
    `numbers`)."""
    gx, gy = [], []
    for seed in seeds:
        gray, lattice, sums = sum_sheet(seed, styles, exclude_families)
        x, y = labelled_glyphs(thin_ink(straighten_at(gray, lattice, SUM_CELL), SUM_CELL), sums,
                               numbers)
        gx += x
        gy += y
    return np.stack(gx), np.array(gy)


def fitted_temperature(model: KillerModel, attribute: str, proba, y: np.ndarray) -> float:
    """Set the model's temperature `attribute` to the t minimising the negative log
    likelihood of labels y under proba() read at t, over a log-spaced grid from 0.5 to 8."""
    best, best_nll = 1.0, float("inf")
    for t in np.exp(np.linspace(np.log(0.5), np.log(8.0), 40)):
        setattr(model, attribute, float(t))
        p = proba()[np.arange(len(y)), y]
        nll = float(-np.log(np.maximum(p, 1e-12)).mean())
        if nll < best_nll:
            best, best_nll = float(t), nll
    setattr(model, attribute, best)
    return best


def fit_number_weight(model: KillerModel, calib: Numbers) -> float:
    """The whole-number reading's share in the mixture that minimises the NLL of the true
    sums on held-apart grids (0 when it does not help)."""
    whole, digits = [], []
    for (glyphs, typical, width), value in zip(calib.found, calib.y, strict=True):
        # Both readings as the reader makes them (the whole number also set apart).
        whole.append(whole_number_proba(glyphs, typical, model, width)[value])
        reading = digit_reading(glyphs, typical, model, width)
        digits.append(reading.get(value, 0.0) / (sum(reading.values()) or 1.0))
    whole, digits = np.array(whole), np.array(digits)
    best, best_nll = 0.0, float("inf")
    for w in np.linspace(0, 0.9, 19):
        nll = float(-np.log(np.maximum((1 - w) * digits + w * whole, 1e-6)).mean())
        if nll < best_nll:
            best, best_nll = float(w), nll
    model.number_weight = best
    return best


def train(grids: int = 300, calib_grids: int = 60, seed: int = 0, log=print, styles=None,
          exclude_families: frozenset[str] = frozenset(), sheets: int | None = None
          ) -> KillerModel:
    """Train both models from scratch; deterministic up to the puzzle generator's search.

    `styles` and `exclude_families` narrow the training pictures (held-out evaluation);
    `sheets` sum sheets (default: half as many as grids) add glyphs for the digit model.
    """
    started = time.perf_counter()
    base = seed * 100_000 + 1_000
    numbers, calib_numbers = Numbers(), Numbers()
    ex, ey, gx, gy = make_data(range(base, base + grids), styles, exclude_families, numbers)
    sheets = grids // 2 if sheets is None else sheets
    if sheets:
        sx, sy = make_glyph_data(range(base + 20_000, base + 20_000 + sheets), styles,
                                 exclude_families, numbers)
        gx, gy = np.concatenate([gx, sx]), np.concatenate([gy, sy])
    _, _, cx, cy = make_data(range(base + 50_000, base + 50_000 + calib_grids), styles,
                             exclude_families, calib_numbers)
    log(f"{len(ey)} edges, {len(gy)} glyphs, {len(cy)} calibration glyphs "
        f"({time.perf_counter() - started:.0f} s to make)")
    walls = HistGradientBoostingClassifier(max_iter=200, learning_rate=0.1,
                                           random_state=seed)
    walls.fit(np.concatenate([ex, mirrored(ex)]), np.concatenate([ey, ey]))
    scaler = StandardScaler().fit(gx)
    network = MLPClassifier(hidden_layer_sizes=(96,), alpha=1e-3, max_iter=200,
                            random_state=seed)
    network.fit(scaler.transform(gx), gy)
    model = KillerModel(walls=walls, digits=(scaler, network), info={})
    raw_accuracy = float((model.digit_proba(cx).argmax(axis=1) == cy).mean())
    fitted_temperature(model, "temperature", lambda: model.digit_proba(cx), cy)
    # The whole-number reader, on the same pictures' numbers as the reader finds them.
    number_scaler = StandardScaler().fit(np.stack(numbers.x))
    number_network = MLPClassifier(hidden_layer_sizes=(128,), alpha=1e-3, max_iter=200,
                                   random_state=seed)
    number_network.fit(number_scaler.transform(np.stack(numbers.x)), np.array(numbers.y))
    model.numbers = (number_scaler, number_network)
    numbers_x, ny = np.stack(calib_numbers.x), np.array(calib_numbers.y)
    number_accuracy = float((model.number_proba(numbers_x).argmax(axis=1) == ny).mean())
    fitted_temperature(model, "number_temperature", lambda: model.number_proba(numbers_x), ny)
    fit_number_weight(model, calib_numbers)
    model.info = {"grids": grids, "sheets": sheets, "edges": int(len(ey)),
                  "glyphs": int(len(gy)), "seed": seed,
                  "calibration_glyph_accuracy": raw_accuracy,
                  "temperature": model.temperature, "numbers": len(numbers.y),
                  "calibration_number_accuracy": number_accuracy,
                  "number_temperature": model.number_temperature,
                  "number_weight": model.number_weight,
                  "seconds": round(time.perf_counter() - started, 1)}
    log(f"trained: {model.info}")
    return model
