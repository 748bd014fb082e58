"""Printed sudoku photos damaged on purpose, each kind of damage at graded strengths.

A page is rendered, damaged where the damage lies in the print (faint ink, a halftone
dot screen), photographed (gridsight.synth.photo), then damaged where the damage lies in
the picture (impulse or sensor noise, a negative, under- or over-exposure, shadow bands,
a shadow ramp, heavy JPEG, blur) and sent as JPEG. `degraded_photo` keeps the givens
and the unique solution, so a reading can be scored exactly.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

from gridsight.synth.fonts import digit_fonts
from gridsight.synth.photo import photograph
from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import STYLES, render_sudoku

# Per kind, the parameter of strengths 1, 2, 3 (mild, strong, severe):
STRENGTHS: dict[str, tuple[float, float, float]] = {
    "salt and pepper": (0.01, 0.03, 0.06),  # share of pixels turned black or white
    "gaussian noise": (12.0, 20.0, 30.0),  # sigma in grey levels
    "inverted": (1.0, 0.7, 0.5),  # contrast kept by the negative
    "faint print": (0.5, 0.35, 0.22),  # share of the ink's darkness left
    "halftone dots": (0.8, 0.6, 0.45),  # dot screen: largest share of a dot cell inked
    "dark": (0.35, 0.2, 0.12),  # light reaching the sensor
    "faded": (0.45, 0.3, 0.2),  # contrast kept, blacks lifted towards the paper
    "shadow stripes": (0.35, 0.5, 0.65),  # depth of the bands
    "shadow gradient": (0.5, 0.7, 0.85),  # darkest share of the ramp
    "jpeg": (25.0, 12.0, 6.0),  # JPEG quality
    "blur": (1.5, 2.5, 3.5),  # Gaussian sigma in photo pixels
}
KINDS = ("clean", *STRENGTHS)


@dataclass
class DegradedPhoto:
    data: bytes  # the JPEG sent
    givens: np.ndarray  # 9x9, 0 = blank
    solution: np.ndarray  # the unique answer
    kind: str
    strength: int  # 0 for clean, else 1-3


def degraded_photo(seed: int, kind: str, strength: int) -> DegradedPhoto:
    """A printed sudoku (unique answer, random face and style) photographed and damaged by
    `kind` at `strength` (1-3; "clean" has none)."""
    rng = random.Random(seed)
    givens, solution = make_sudoku(rng)
    fonts = [path for _, path in digit_fonts()]
    image = render_sudoku(givens, font=rng.choice(fonts), style=rng.choice(sorted(STYLES)),
                          cell_px=rng.randint(30, 64), seed=seed, jitter=rng.uniform(0, 0.05))
    np_rng = np.random.default_rng(seed)
    level = STRENGTHS[kind][strength - 1] if kind != "clean" else 0.0
    lattice = image.info["lattice"]
    if kind == "faint print":
        image = faint(image, level)
    elif kind == "halftone dots":
        image = halftone(image, level, pitch=rng.choice([3, 4, 5]))
    photo, _ = photograph(image, rng=np_rng, lattice=lattice, fill=(0.6, 0.95), rotation=10,
                          out_size=rng.choice([(1024, 768), (1600, 1200)]))
    pixels = np.asarray(photo).astype(np.float32)
    quality = 90
    if kind == "jpeg":
        quality = int(level)
    elif kind not in ("clean", "faint print", "halftone dots"):
        pixels = damaged(pixels, kind, level, np_rng)
    buffer = io.BytesIO()
    Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8)).save(buffer, "JPEG",
                                                                   quality=quality)
    return DegradedPhoto(buffer.getvalue(), np.asarray(givens), np.asarray(solution), kind,
                         strength if kind != "clean" else 0)


def faint(image: Image.Image, left: float) -> Image.Image:
    """The print's ink lightened towards its paper: `left` of each pixel's darkness stays."""
    pixels = np.asarray(image).astype(np.float32)
    paper = pixels[1, 1]
    out = Image.fromarray(np.clip(paper - (paper - pixels) * left, 0, 255).astype(np.uint8))
    out.info.update(image.info)
    return out


def halftone(image: Image.Image, coverage: float, pitch: int) -> Image.Image:
    """The print's ink laid as a screen of round dots `pitch` pixels apart, each dot at most
    `coverage` of its square, as cheap newsprint shows solid grey and black under a lens."""
    pixels = np.asarray(image).astype(np.float32)
    paper = pixels[1, 1]
    h, w = pixels.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    # Distance to the nearest dot centre, as a share of the largest inked radius.
    dx = (xs % pitch) - (pitch - 1) / 2
    dy = (ys % pitch) - (pitch - 1) / 2
    radius = np.sqrt(coverage / np.pi) * pitch
    inked = (np.hypot(dx, dy) <= radius).astype(np.float32)[..., None]
    out = pixels * inked + paper * (1 - inked)
    result = Image.fromarray(np.clip(out, 0, 255).astype(np.uint8))
    result.info.update(image.info)
    return result


def damaged(pixels: np.ndarray, kind: str, level: float,
            rng: np.random.Generator) -> np.ndarray:
    """A photo (float RGB) damaged in the picture by `kind` at `level` (STRENGTHS)."""
    h, w = pixels.shape[:2]
    if kind == "salt and pepper":
        hit = rng.random((h, w)) < level
        white = rng.random((h, w)) < 0.5
        out = pixels.copy()
        out[hit & white] = 255.0
        out[hit & ~white] = 0.0
        return out
    if kind == "gaussian noise":
        return pixels + rng.normal(0, level, pixels.shape)
    if kind == "inverted":
        return 255.0 - (pixels - 128.0) * level - 128.0
    if kind == "dark":
        return pixels * level
    if kind == "faded":
        return pixels * level + (1 - level) * rng.uniform(170, 225)
    if kind == "shadow stripes":
        return pixels * _bands(h, w, level, rng)[..., None]
    if kind == "shadow gradient":
        return pixels * _ramp(h, w, level, rng)[..., None]
    if kind == "blur":
        return cv2.GaussianBlur(pixels, (0, 0), level)
    raise ValueError(f"unknown damage {kind!r}")


def _bands(h: int, w: int, depth: float, rng: np.random.Generator) -> np.ndarray:
    """Brightness factor of sharp-edged parallel shadow bands (blinds, a railing) across
    the whole photo at a random angle, `depth` deep."""
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    along = xs * np.cos(angle) + ys * np.sin(angle)
    period = rng.uniform(0.1, 0.25) * max(w, h)
    edge = rng.uniform(1.0, 6.0)  # penumbra in pixels
    phase = (along / period + rng.uniform(0, 1)) % 1.0
    inside = np.clip((np.minimum(phase, rng.uniform(0.3, 0.6) - phase) * period) / edge + 0.5,
                     0, 1)
    return 1.0 - depth * inside


def _ramp(h: int, w: int, depth: float, rng: np.random.Generator) -> np.ndarray:
    """Brightness factor falling from 1 to 1 - `depth` across the photo in a random
    direction, bending a little (a lamp to one side)."""
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    direction = rng.normal(size=2)
    direction /= np.linalg.norm(direction)
    ramp = xs * direction[0] + ys * direction[1]
    ramp = (ramp - ramp.min()) / max(1e-6, float(np.ptp(ramp)))
    return 1.0 - depth * ramp ** rng.uniform(0.7, 1.5)
