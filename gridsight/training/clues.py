"""Training data and fitting for the nonogram clue digit model (scripts/train_clues.py).

Nonograms with random clue lists are drawn by gridsight.synth.nonogram_render in the
styles the reader was built on (the held-out style never), in fonts on the training side
of the held-out split only, with widened looks; a share is photographed. Each picture is
read by the recognizer's own code (read_picture with find_nonogram, as a real upload is),
and the glyphs of every line whose count of numbers is right are labelled with the digits
drawn. Nothing here reads real pictures.
"""

from __future__ import annotations

import io
import multiprocessing
import random
import time
from dataclasses import replace
from functools import partial

import numpy as np
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler

from gridsight.synth.fonts import font_family
from gridsight.synth.nonogram_render import (
    HELD_OUT_FAMILIES,
    HELD_OUT_STYLES,
    NONOGRAM_STYLES,
    nonogram_fonts,
    render_nonogram,
)
from gridsight.synth.photo import photograph
from gridsight.training.digits import fit_temperature
from services.contracts import NonogramPuzzle
from services.recognizer.cells.classifier import DigitModel
from services.recognizer.cells.glyphs import glyph_features, split_glyph
from services.recognizer.errors import RecognitionError
from services.recognizer.nonogram.clues import PAIR, digits_of, find_nonogram, read_nonogram
from services.recognizer.nonogram.reading import read_picture

SIDES = (10, 15, 20, 25, 30)
PHOTO_SHARE = 0.6


def random_line(rng: random.Random, length: int) -> list[int]:
    """A clue that fits a line of `length`: a few numbers, often one long run (two-digit
    numbers are rare in drawn pictures, but must be learnt), sometimes none."""
    if rng.random() < 0.05:
        return []
    runs, room = [], length
    while room > 0 and len(runs) < 8:
        longest = room if not runs else room - 1
        if longest < 1:
            break
        value = rng.randint(1, longest) if rng.random() < 0.35 else \
            rng.randint(1, min(longest, 5))
        runs.append(value)
        room -= value + (1 if len(runs) > 1 else 0)
        if rng.random() < 0.3:
            break
    return runs


def random_clues(rng: random.Random, width: int, height: int) -> NonogramPuzzle:
    """Clue lists for a width x height grid; no picture need satisfy them (only their ink
    is learnt)."""
    return NonogramPuzzle(rows=[random_line(rng, width) for _ in range(height)],
                          cols=[random_line(rng, height) for _ in range(width)])


def widened_style(rng: random.Random):
    """A training style with its proportions varied."""
    base = NONOGRAM_STYLES[rng.choice(sorted(NONOGRAM_STYLES))]
    return replace(base, digit_height=rng.uniform(0.42, 0.66),
                   thin=base.thin * rng.uniform(0.6, 1.5), thick=base.thick * rng.uniform(0.7, 1.4))


def clue_picture(seed: int, held_out: bool = False, photo: bool | None = None
                 ) -> tuple[bytes, NonogramPuzzle]:
    """(upload bytes, puzzle) of one drawn nonogram. held_out: the held-out style and fonts
    (for measuring only, never for fitting)."""
    rng = random.Random(seed)
    width, height = rng.choice(SIDES), rng.choice(SIDES)
    puzzle = random_clues(rng, width, height)
    if held_out:
        style = HELD_OUT_STYLES[rng.choice(sorted(HELD_OUT_STYLES))]
    else:
        style = widened_style(rng)
    font = rng.choice(nonogram_fonts(held_out))[1]
    image = render_nonogram(puzzle, style=style, font=font, seed=seed,
                            title=rng.random() < 0.5)
    buffer = io.BytesIO()
    if photo if photo is not None else rng.random() < PHOTO_SHARE:
        side = rng.choice([1600, 2000, 2400])
        image, _ = photograph(image, rng=np.random.default_rng(seed), fill=(0.75, 0.95),
                              rotation=rng.uniform(0, 6), perspective=rng.uniform(0, 0.06),
                              blur=rng.uniform(0.4, 1.8), noise=rng.uniform(0, 6),
                              shadow=rng.uniform(0, 0.4), jpeg_quality=rng.randint(60, 95),
                              out_size=(side, side * 3 // 4))
        image.save(buffer, "JPEG", quality=rng.randint(80, 95))
    else:
        image.convert("RGB").save(buffer, "PNG")
    return buffer.getvalue(), puzzle


def labelled_glyphs(data: bytes, puzzle: NonogramPuzzle) -> tuple[list, list]:
    """(glyph features, labels) of the clue numbers the reader finds in the picture, cut as
    it cuts them: digits 0..9, and PAIR for a lone glyph of a two-digit number; lines
    whose count of numbers is wrong teach nothing."""
    try:
        found = read_picture(data, "nonogram", find_nonogram)
    except RecognitionError:
        return [], []
    read = found[0]
    if (read.width, read.height) != (len(puzzle.cols), len(puzzle.rows)):
        return [], []
    x, y = [], []
    for numbers, truth in zip(read.row_numbers + read.col_numbers, puzzle.rows + puzzle.cols,
                              strict=True):
        truth = truth or [0]
        if len(numbers) != len(truth):
            continue
        for number, value in zip(numbers, truth, strict=True):
            text = str(value)
            if len(number) == 1:
                # A lone glyph is read whole too: as its digit, or as two touching ones.
                x.append(glyph_features(number[0], read.text_height))
                y.append(int(text) if len(text) == 1 else PAIR)
            glyphs = digits_of(number)
            if len(glyphs) == 1 and len(text) == 2:
                glyphs = split_glyph(glyphs[0])  # touching digits, as the reader cuts them
            if len(glyphs) != len(text) or len(number) == 1 == len(text):
                continue
            x += [glyph_features(g, read.text_height) for g in glyphs]
            y += [int(ch) for ch in text]
    return x, y


def _picture_glyphs(job: tuple[int, bool]) -> tuple[list, list]:
    return labelled_glyphs(*clue_picture(*job))


def make_data(seeds, held_out: bool = False, workers: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """(glyph features, digits) of the pictures of `seeds` (drawing a photo takes seconds:
    `workers` processes draw and read them)."""
    jobs = [(seed, held_out) for seed in seeds]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        parts = pool.map(_picture_glyphs, jobs, chunksize=4)
    gx = [f for x, _ in parts for f in x]
    gy = [d for _, y in parts for d in y]
    return np.stack(gx), np.array(gy)


def accuracy(model: DigitModel, x: np.ndarray, y: np.ndarray) -> float:
    return float((model.predict_proba(x).argmax(axis=1) == y).mean())


# The scales of a lone glyph's two-digit prior odds tried by fit_pair_odds.
PAIR_ODDS = (1.0, 0.5, 0.3, 0.2, 0.1, 0.05, 0.03)


def true_number_probs(model: DigitModel, pictures: list[tuple[bytes, NonogramPuzzle]]
                      ) -> list[float]:
    """The probability the reader, with `model`, gives each clue number's true value (lines
    whose count of numbers it got right)."""
    out = []
    for data, puzzle in pictures:
        try:
            read = read_picture(data, "nonogram", partial(read_nonogram, model=model))[0]
        except RecognitionError:
            continue
        if (read.width, read.height) != (len(puzzle.cols), len(puzzle.rows)):
            continue
        for clues, truth in zip(read.row_clues + read.col_clues, puzzle.rows + puzzle.cols,
                                strict=True):
            truth = truth or [0]
            if len(clues) == len(truth):
                out += [{c.value: c.prob for c in clue.candidates}.get(value, 0.0)
                        for clue, value in zip(clues, truth, strict=True)]
    return out


def fit_pair_odds(model: DigitModel, seeds, log=print) -> float:
    """Set model.info["pair_odds"] to the scale of the two-digit priors' odds (PAIR_ODDS)
    that minimises the NLL of the true clue numbers in the pictures of `seeds`, read whole
    by the recognizer; return it."""
    pictures = [clue_picture(seed) for seed in seeds]
    best, best_nll = 1.0, float("inf")
    for odds in PAIR_ODDS:
        model.info["pair_odds"] = odds
        probs = np.array(true_number_probs(model, pictures))
        nll = float(-np.log(np.maximum(probs, 1e-6)).mean())
        log(f"pair odds x{odds}: NLL {nll:.4f}, {len(probs)} numbers, "
            f"{(probs < 0.9).mean():.1%} of the true values under 0.9")
        if nll < best_nll:
            best, best_nll = odds, nll
    model.info["pair_odds"] = best
    return best


def calibration_seeds(seed: int, calib_pictures: int) -> range:
    base = 7_000_000 + seed * 100_000 + 50_000
    return range(base, base + calib_pictures)


def train(pictures: int = 300, calib_pictures: int = 40, seed: int = 0, log=print
          ) -> DigitModel:
    """Fit the clue digit model, its temperature and its pair odds; report its accuracy on
    pictures of the held-out style and fonts (never used to fit)."""
    assert not {font_family(n) for n, _ in nonogram_fonts(False)} & set(HELD_OUT_FAMILIES)
    started = time.perf_counter()
    base = 7_000_000 + seed * 100_000
    x, y = make_data(range(base, base + pictures))
    cx, cy = make_data(calibration_seeds(seed, calib_pictures))
    hx, hy = make_data(range(base + 80_000, base + 80_000 + calib_pictures), held_out=True)
    log(f"{len(y)} glyphs, {len(cy)} calibration, {len(hy)} held-out "
        f"({time.perf_counter() - started:.0f} s to make)")
    scaler = StandardScaler().fit(x)
    network = MLPClassifier(hidden_layer_sizes=(128,), alpha=1e-3, max_iter=200,
                            random_state=seed)
    network.fit(scaler.transform(x), y)
    model = DigitModel(scaler=scaler, network=network, temperature=1.0, info={})
    model.temperature = fit_temperature(model, cx, cy)
    model.info = {"pictures": pictures, "glyphs": int(len(y)), "seed": seed,
                  "calibration_accuracy": accuracy(model, cx, cy),
                  "held_out_accuracy": accuracy(model, hx, hy), "held_out_glyphs": int(len(hy)),
                  "temperature": model.temperature}
    fit_pair_odds(model, calibration_seeds(seed, calib_pictures), log)
    model.info["seconds"] = round(time.perf_counter() - started, 1)
    log(f"trained: {model.info}")
    return model
