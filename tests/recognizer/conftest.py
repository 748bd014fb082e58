"""Pictures with known answers, made by the project's own generators."""

from __future__ import annotations

import io
import random

import numpy as np
import pytest
from PIL import Image

from gridsight.synth.grids import random_solution
from gridsight.synth.half_solved import NOTES
from gridsight.synth.photo import photograph
from gridsight.synth.render import render_sudoku
from services.recognizer.grid.decode import decode
from services.recognizer.grid.locate import locate


def givens_for(seed: int, fill: float = 0.4) -> list[list[int]]:
    rng = random.Random(seed)
    return [[v if rng.random() < fill else 0 for v in row] for row in random_solution(9, None, rng)]


def to_bytes(image: Image.Image, fmt: str = "PNG", **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


def bench_photo(seed: int, style=None, **failure_class):
    """(photo, givens, truth) drawn as bench/recognition.py draws its synthetic photos
    (random style unless `style` is given, face and cell size, a photo of a random size),
    with a failure class's photograph() options."""
    from gridsight.synth.fonts import digit_fonts
    from gridsight.synth.render import STYLES

    rng = random.Random(seed)
    givens = [[v if rng.random() < rng.uniform(0.3, 0.45) else 0 for v in row]
              for row in random_solution(9, None, rng)]
    font = rng.choice([p for _, p in digit_fonts()])
    drawn = rng.choice(sorted(STYLES))  # drawn either way: the later draws stay the same
    image = render_sudoku(givens, font=font, style=style or drawn, cell_px=rng.randint(28, 64),
                          seed=seed, jitter=rng.uniform(0, 0.05))
    photo, truth = photograph(image, rng=np.random.default_rng(seed), fill=(0.6, 0.95),
                              rotation=12,
                              out_size=rng.choice([(640, 480), (1024, 768), (1600, 1200)]),
                              **failure_class)
    return photo, givens, truth


def worst_intersection_error(data: bytes, truth) -> float:
    """The farthest located line intersection from the truth, in cells."""
    gray, scale, _ = decode(data)
    _, lattice = locate(gray)
    cell = np.linalg.norm(truth.lattice[0, -1] - truth.lattice[0, 0]) / 9
    return float((np.linalg.norm(lattice * scale - truth.lattice, axis=-1) / cell).max())


def states(reading) -> np.ndarray:
    """0 blank, 1-9 a digit of either kind, NOTES: the reading's most probable state."""
    kind = np.asarray(reading.cell_kinds).argmax(-1)
    printed = np.asarray(reading.cells)[..., 1:].argmax(-1) + 1
    entry = np.asarray(reading.entries)[..., 1:].argmax(-1) + 1
    return np.select([kind == 0, kind == 1, kind == 2], [0, printed, entry], NOTES)


def read_digits(reading) -> np.ndarray:
    return np.asarray(reading.cells).argmax(axis=-1)


def synthetic_photo_of(seed: int, style: str = "screenshot", **options):
    """(jpeg bytes, givens, truth) of a seed's grid photographed with photograph() options."""
    givens = givens_for(seed)
    image = render_sudoku(givens, style=style, seed=seed, cell_px=44, jitter=0.04)
    options.setdefault("fill", (0.6, 0.95))  # the grid fills much of the frame, as people shoot
    photo, truth = photograph(image, rng=np.random.default_rng(seed), **options)
    return to_bytes(photo, "JPEG", quality=90), np.asarray(givens), truth


@pytest.fixture(scope="session")
def synthetic_photo():
    """Make (jpeg bytes, givens, truth) for a seed, with photograph() options."""
    return synthetic_photo_of
