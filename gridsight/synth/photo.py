"""Turn a rendered puzzle into a phone photo of a printed page, keeping the ground truth.

The page gets a margin with clutter (headings, another box), bends like a page that does
not lie flat, then is seen in perspective on a cluttered table, under uneven light and a
shadow, through a blurry, noisy lens and JPEG. `Truth` says where every grid line
intersection ended up in the photo.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from gridsight.synth.fonts import digit_fonts

WORDS = ("sudoku", "puzzle", "medium", "hard", "fill", "each", "row", "column", "box", "with",
         "digits", "1", "to", "9", "solution", "page", "weekend", "no.", "42", "answers",
         "the", "crossword", "across", "down", "tomorrow")


@dataclass
class Truth:
    lattice: np.ndarray  # (n+1, n+1, 2) grid line intersections (x, y) in the photo

    @property
    def corners(self) -> np.ndarray:
        """Grid corners TL, TR, BR, BL."""
        lat = self.lattice
        return np.array([lat[0, 0], lat[0, -1], lat[-1, -1], lat[-1, 0]])

    @property
    def cell_centers(self) -> np.ndarray:
        lat = self.lattice
        return (lat[:-1, :-1] + lat[:-1, 1:] + lat[1:, 1:] + lat[1:, :-1]) / 4


def _np_rng(rng) -> np.random.Generator:
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, random.Random):
        return np.random.default_rng(rng.randrange(2**32))
    return np.random.default_rng(rng)


def _random_text(draw: ImageDraw.ImageDraw, rng: np.random.Generator, box, fonts,
                 colour) -> None:
    x0, y0, x1, y1 = box
    if x1 - x0 < 20 or y1 - y0 < 10:
        return
    height = int(rng.integers(10, max(11, min(40, (y1 - y0) // 2 + 11))))
    font = ImageFont.truetype(fonts[int(rng.integers(len(fonts)))][1], height)
    y = y0
    while y + height < y1:
        words = " ".join(rng.choice(WORDS, size=int(rng.integers(2, 9))))
        draw.text((x0 + int(rng.integers(0, 20)), y), words, fill=colour, font=font)
        y += int(height * rng.uniform(1.2, 2.5))


def _paper(img: Image.Image, lattice: np.ndarray, rng: np.random.Generator, clutter: bool):
    """The puzzle on a page with margins and, if asked, headings and a second box."""
    w, h = img.size
    pad = [int(rng.uniform(0.05, 0.35) * s) for s in (w, h, w, h)]  # left, top, right, bottom
    bg = img.getpixel((1, 1))
    page = Image.new("RGB", (w + pad[0] + pad[2], h + pad[1] + pad[3]), bg)
    page.paste(img, (pad[0], pad[1]))
    if clutter:
        draw = ImageDraw.Draw(page)
        fonts = digit_fonts()
        ink = tuple(int(v) for v in rng.integers(0, 90, 3))
        _random_text(draw, rng, (0, 0, page.width, pad[1]), fonts, ink)
        _random_text(draw, rng, (0, pad[1] + h, page.width, page.height), fonts, ink)
        if pad[2] > 40:  # a box of another puzzle or an advert beside the grid
            x0 = pad[0] + w + int(pad[2] * 0.2)
            y0 = pad[1] + int(rng.uniform(0, 0.5) * h)
            draw.rectangle([x0, y0, page.width - 5, y0 + int(rng.uniform(0.2, 0.5) * h)],
                           outline=ink, width=int(rng.integers(1, 4)))
    return page, lattice + np.array([pad[0], pad[1]], dtype=float)


def _bend(page: np.ndarray, lattice: np.ndarray, curvature: float,
          rng: np.random.Generator):
    """Bend the page: rows sag by up to `curvature` of the page height, columns bow less."""
    if curvature <= 0:
        return page, lattice
    h, w = page.shape[:2]
    amp_y = curvature * h * rng.choice([-1, 1])
    amp_x = curvature * w * rng.uniform(-0.5, 0.5)
    phase = rng.uniform(-0.3, 0.3)

    def dy(x):
        return amp_y * np.sin(np.pi * (x / w + phase))

    def dx(y):
        return amp_x * np.sin(np.pi * y / h)

    # The bend is defined by where each photo pixel looks in the flat page ...
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float32), np.arange(h, dtype=np.float32))
    map_x = (xs - dx(ys)).astype(np.float32)
    map_y = (ys - dy(xs)).astype(np.float32)
    border = tuple(int(v) for v in page[1, 1])
    bent = cv2.remap(page, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                     borderValue=border)
    # ... so a flat point's new place solves X = x + dx(Y), Y = y + dy(X): iterate.
    px, py = lattice[..., 0], lattice[..., 1]
    bx, by = px.copy(), py.copy()
    for _ in range(30):
        bx, by = px + dx(by), py + dy(bx)
    return bent, np.stack([bx, by], axis=-1)


def _table(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A cluttered background: a tinted gradient, boxes, lines and stray text."""
    w, h = size
    base = rng.integers(40, 230, 3).astype(np.float32)
    grad = np.linspace(rng.uniform(0.6, 1.0), rng.uniform(0.6, 1.0), w, dtype=np.float32)
    canvas = (grad[None, :, None] * base[None, None, :]).repeat(h, axis=0)
    image = Image.fromarray(np.clip(canvas, 0, 255).astype(np.uint8))
    draw = ImageDraw.Draw(image)
    for _ in range(int(rng.integers(2, 9))):
        x0, y0 = int(rng.integers(0, w)), int(rng.integers(0, h))
        x1, y1 = x0 + int(rng.integers(20, w // 2)), y0 + int(rng.integers(20, h // 2))
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        if rng.random() < 0.5:
            draw.rectangle([x0, y0, x1, y1], fill=colour)
        else:
            draw.rectangle([x0, y0, x1, y1], outline=colour, width=int(rng.integers(1, 6)))
    for _ in range(int(rng.integers(0, 5))):
        colour = tuple(int(v) for v in rng.integers(0, 256, 3))
        draw.line([tuple(int(v) for v in rng.integers(0, max(w, h), 2)) for _ in range(2)],
                  fill=colour, width=int(rng.integers(1, 5)))
    _random_text(draw, rng, (0, 0, w, h // 3), digit_fonts(), (20, 20, 20))
    return np.asarray(image).copy()


def photograph(img: Image.Image, *, rng, curvature: float = 0.0, perspective: float = 0.08,
               rotation: float = 8.0, fill: tuple[float, float] = (0.45, 0.85),
               blur: float = 1.0, noise: float = 4.0, shadow: float = 0.35,
               lighting: float = 0.3, jpeg_quality: int = 80, clutter: bool = True,
               out_size: tuple[int, int] = (1024, 768),
               lattice=None) -> tuple[Image.Image, Truth]:
    """Photograph a rendered puzzle; returns the photo and where its grid went.

    curvature: page bend as a share of the page height (0.03 is a mild bend).
    perspective: corner displacement as a share of the page side.
    rotation: the most degrees the page turns either way. fill: share of the photo's
    shorter side the page spans. blur: Gaussian sigma in photo pixels. noise: sensor noise
    sigma in grey levels. shadow, lighting: darkest share of a cast shadow and a light
    falloff.
    """
    rng = _np_rng(rng)
    lat = np.asarray(lattice if lattice is not None else img.info["lattice"], dtype=float)
    page_img, lat = _paper(img.convert("RGB"), lat, rng, clutter)
    page = np.asarray(page_img).copy()
    page, lat = _bend(page, lat, curvature, rng)

    w, h = out_size
    ph, pw = page.shape[:2]
    scale = rng.uniform(*fill) * min(w, h) / max(pw, ph)
    angle = np.deg2rad(rng.uniform(-rotation, rotation))
    src = np.array([[0, 0], [pw, 0], [pw, ph], [0, ph]], dtype=np.float32)
    centred = (src - [pw / 2, ph / 2]) * scale
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    quad = centred @ rot.T
    quad += rng.uniform(-perspective, perspective, (4, 2)) * max(pw, ph) * scale
    # Centre the page in the photo, with some slack to either side.
    span = quad.max(0) - quad.min(0)
    slack = np.maximum(np.array([w, h]) - span, 0)
    quad += -quad.min(0) + rng.uniform(0.2, 0.8, 2) * slack
    homography = cv2.getPerspectiveTransform(src, quad.astype(np.float32))

    photo = _table(out_size, rng) if clutter else np.full((h, w, 3), 90, np.uint8)
    warped = cv2.warpPerspective(page, homography, (w, h), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((ph, pw), 255, np.uint8), homography, (w, h))
    photo = np.where(mask[..., None] > 127, warped, photo).astype(np.float32)
    lat = cv2.perspectiveTransform(lat.reshape(-1, 1, 2), homography).reshape(lat.shape)

    photo *= _light(w, h, rng, shadow, lighting)[..., None]
    if blur > 0:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    photo += rng.normal(0, noise, photo.shape) if noise > 0 else 0
    photo = np.clip(photo, 0, 255).astype(np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(photo).save(buffer, "JPEG", quality=int(jpeg_quality))
    out = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")
    return out, Truth(lattice=lat)


def _light(w: int, h: int, rng: np.random.Generator, shadow: float,
           lighting: float) -> np.ndarray:
    """Brightness factor per pixel: a linear falloff times a soft-edged shadow."""
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    direction = rng.normal(size=2)
    direction /= np.linalg.norm(direction)
    ramp = (xs * direction[0] + ys * direction[1]) / max(w, h)
    ramp = (ramp - ramp.min()) / max(1e-6, ramp.max() - ramp.min())
    light = 1.0 - lighting * rng.uniform(0.3, 1.0) * ramp
    if shadow > 0 and rng.random() < 0.7:
        mask = np.zeros((h, w), np.uint8)
        points = rng.uniform([-0.2 * w, -0.2 * h], [1.2 * w, 1.2 * h], (4, 2)).astype(np.int32)
        cv2.fillConvexPoly(mask, cv2.convexHull(points), 255)
        soft = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), max(w, h) * 0.02)
        light *= 1.0 - shadow * rng.uniform(0.4, 1.0) * soft
    return light
