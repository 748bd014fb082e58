"""Killer pictures with known answers, made by the project's own generators."""

from __future__ import annotations

import io
import random
from functools import cache

import numpy as np

from gridsight.synth.killer_render import in_progress, render_killer
from gridsight.synth.killer_styles import ALL_STYLES, vary
from gridsight.synth.photo import photograph
from gridsight.synth.puzzles import make_killer


def to_bytes(image, fmt: str = "PNG", **options) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **options)
    return buffer.getvalue()


@cache
def killer(seed: int):
    """(puzzle, solution) for a seed."""
    return make_killer(random.Random(seed))


def screenshot(seed: int, style: str, cell_px: int = 52, **options):
    """(PNG bytes, puzzle, solution, image info) of a rendered killer."""
    puzzle, solution = killer(seed)
    image = render_killer(puzzle, style=style, seed=seed, cell_px=cell_px, **options)
    return to_bytes(image), puzzle, solution, dict(image.info)


def photo(seed: int, cell_px: int = 56):
    """(JPEG bytes, puzzle, solution, image info) of printed killer, photographed."""
    puzzle, solution = killer(seed)
    image = render_killer(puzzle, style="print", seed=seed, cell_px=cell_px)
    info = dict(image.info)
    picture, truth = photograph(image, rng=np.random.default_rng(seed), fill=(0.8, 0.95),
                                perspective=0.05, rotation=5, blur=0.7, noise=3,
                                curvature=0.01, jpeg_quality=85)
    info["lattice"] = truth.lattice
    return to_bytes(picture, "JPEG", quality=90), puzzle, solution, info


def walls_read(reading) -> tuple[np.ndarray, np.ndarray]:
    return ((np.asarray(reading.walls_right) >= 0.5).astype(int),
            (np.asarray(reading.walls_down) >= 0.5).astype(int))


def sums_read(reading) -> dict:
    return {tuple(s.cell): s.candidates[0].value for s in reading.cage_sums}


PRINTED = ("print", "web", "bold_serif")


def written_on(seed: int, style: str, entry_share: float = 0.5, notes_share: float = 0.0,
               cell_px: int = 56):
    """(PNG bytes, image info, marks) of a killer in `style` written on by hand."""
    puzzle, solution = killer(seed)
    rng = random.Random(seed)
    marks = in_progress(solution, rng, entry_share, notes_share, wrong=0)
    image = render_killer(puzzle, style=vary(ALL_STYLES[style], rng), seed=seed,
                          cell_px=cell_px, marks=marks, by_hand=True)
    return to_bytes(image), dict(image.info), marks
