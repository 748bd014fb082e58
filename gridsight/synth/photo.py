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


def _paper(img: Image.Image, lattice: np.ndarray, rng: np.random.Generator, clutter: bool,
           header_frame: bool = False):
    """The puzzle on a page with margins and, if asked, headings and a second box.

    header_frame: a ruled box holding a heading sits right on top of the grid, sharing its
    top line, so the outermost outline is the grid and the heading together.
    """
    w, h = img.size
    pad = [int(rng.uniform(0.05, 0.35) * s) for s in (w, h, w, h)]  # left, top, right, bottom
    if header_frame:
        pad[1] = max(pad[1], int(0.25 * h))
    bg = img.getpixel((1, 1))
    page = Image.new("RGB", (w + pad[0] + pad[2], h + pad[1] + pad[3]), bg)
    page.paste(img, (pad[0], pad[1]))
    if header_frame:
        _draw_header_frame(ImageDraw.Draw(page), rng, lattice + [pad[0], pad[1]], h)
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


def _draw_header_frame(draw: ImageDraw.ImageDraw, rng: np.random.Generator,
                       lattice: np.ndarray, grid_h: int) -> None:
    """A framed heading one to two cells tall, as wide as the grid, on the grid's top line."""
    (x0, y0), x1 = lattice[0, 0], lattice[0, -1][0]
    cell = (x1 - x0) / (lattice.shape[1] - 1)
    top = y0 - cell * rng.uniform(0.8, 2.0)
    width = max(1, round(cell * rng.uniform(0.04, 0.1)))
    draw.rectangle([x0, top, x1, y0], outline=(20, 20, 20), width=width)
    size = max(8, int((y0 - top) * 0.5))
    font = ImageFont.truetype(digit_fonts()[int(rng.integers(len(digit_fonts())))][1], size)
    text = " ".join(rng.choice(["SUDOKU", "No.", "214", "Hard", "Daily", "***"], size=3))
    draw.text((x0 + cell * 0.3, top + (y0 - top - size) / 2), text, fill=(20, 20, 20),
              font=font)


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
               lattice=None, header_frame: bool = False, creases: int = 0,
               stripes: int = 0, exposure: str = "normal",
               corner_shadow: bool = False,
               spur_shadow: bool = False, defocus: float = 0.0,
               lens_disk: bool = False, defocus_tilt: float = 0.0) -> tuple[Image.Image, Truth]:
    """Photograph a rendered puzzle; returns the photo and where its grid went.

    curvature: page bend as a share of the page height (0.03 is a mild bend).
    perspective: corner displacement as a share of the page side.
    rotation: the most degrees the page turns either way. fill: share of the photo's
    shorter side the page spans. blur: Gaussian sigma in photo pixels. noise: sensor noise
    sigma in grey levels. shadow, lighting: darkest share of a cast shadow and a light
    falloff. corner_shadow: a deep, sharp shadow (a hand, the phone) over the page beyond
    one of the grid's corners, its edge touching that corner. spur_shadow: a shadow
    (a hand beside the grid) in a wedge from one corner, one edge running on along a grid
    side, the other turned away from the grid: the outline runs on along that edge.
    defocus: a further Gaussian sigma as a share of the grid's cell side (an out-of-focus
    phone blurs by the cell, not by the pixel: a large grid is as soft as a small one).
    lens_disk: draw that defocus as a lens does, each point spread evenly over a disk (of
    radius twice the sigma, the same spread), not as a Gaussian: at the same spread its
    digits read far worse, and a Gaussian unsharp mask does not mend them.
    defocus_tilt: the (Gaussian) defocus varies across the grid, from (1 - tilt) to
    (1 + tilt) times `defocus` along a random direction, as on a page tilted to the lens
    (a real page was read sharp at one corner and wrong at the other).
    """
    rng = _np_rng(rng)
    lat = np.asarray(lattice if lattice is not None else img.info["lattice"], dtype=float)
    page_img, lat = _paper(img.convert("RGB"), lat, rng, clutter, header_frame)
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
    for _ in range(creases):
        photo = _crease(photo, mask, rng)
    if stripes:
        photo *= _stripes(w, h, rng, stripes)[..., None]
    if corner_shadow:
        photo *= _corner_shadow(w, h, lat, rng)[..., None]
    if spur_shadow:
        photo *= _spur_shadow(w, h, lat, rng)[..., None]
    photo = _expose(photo, exposure, rng)
    if lens_disk and defocus > 0:
        photo = _lens_blur(photo, 2.0 * defocus * _cell_side(lat))
    elif defocus_tilt > 0 and defocus > 0:
        photo = _tilted_blur(photo, blur, defocus * _cell_side(lat), defocus_tilt, lat, rng)
        blur = 0.0
    else:
        blur = float(np.hypot(blur, defocus * _cell_side(lat)))
    if blur > 0:
        photo = cv2.GaussianBlur(photo, (0, 0), blur)
    photo += rng.normal(0, noise, photo.shape) if noise > 0 else 0
    photo = np.clip(photo, 0, 255).astype(np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(photo).save(buffer, "JPEG", quality=int(jpeg_quality))
    out = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")
    return out, Truth(lattice=lat)


def _lens_blur(photo: np.ndarray, radius: float) -> np.ndarray:
    """A lens out of focus: each point spread evenly over a disk of `radius` pixels (a disk
    of radius 2 sigma spreads as far as a Gaussian of sigma), each kernel pixel covered
    by the share of its 4x4 sub-pixels inside the disk."""
    reach = int(np.ceil(radius))
    sub = (np.arange(-reach * 4, reach * 4 + 4) + 0.5) / 4 - 0.5  # sub-pixel centres
    inside = (np.hypot(sub[:, None], sub[None, :]) <= radius).astype(np.float32)
    kernel = inside.reshape(2 * reach + 1, 4, 2 * reach + 1, 4).mean(axis=(1, 3))
    return cv2.filter2D(photo, -1, kernel / kernel.sum(), borderType=cv2.BORDER_REFLECT)


def _tilted_blur(photo: np.ndarray, blur: float, spread: float, tilt: float,
                 lattice: np.ndarray, rng: np.random.Generator, levels: int = 5) -> np.ndarray:
    """`photo` blurred by a Gaussian of sigma hypot(blur, s), s rising from
    spread * (1 - tilt) at one side of the grid to spread * (1 + tilt) at the other along a
    random direction: each pixel interpolated between `levels` evenly spaced blurs."""
    h, w = photo.shape[:2]
    direction = rng.normal(size=2)
    direction /= np.linalg.norm(direction)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    along = xs * direction[0] + ys * direction[1]
    reach = lattice.reshape(-1, 2) @ direction
    position = np.clip((along - reach.min()) / max(np.ptp(reach), 1.0), 0, 1) * (levels - 1)
    blurred = np.stack([cv2.GaussianBlur(photo, (0, 0), float(np.hypot(blur, s)))
                        for s in spread * np.linspace(1 - tilt, 1 + tilt, levels)])
    low = np.minimum(position.astype(int), levels - 2)
    share = (position - low)[..., None]
    rows, cols = np.mgrid[0:h, 0:w]
    return blurred[low, rows, cols] * (1 - share) + blurred[low + 1, rows, cols] * share


def _cell_side(lattice: np.ndarray) -> float:
    """Mean side of a lattice's cells in pixels: its outer sides over the cells they span."""
    corners = np.array([lattice[0, 0], lattice[0, -1], lattice[-1, -1], lattice[-1, 0]])
    sides = np.linalg.norm(corners - np.roll(corners, 1, axis=0), axis=1)
    return float(sides.mean() / (lattice.shape[0] - 1))


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


def _crease(photo: np.ndarray, page_mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A fold across the page: a thin dark line, a light edge beside it, and a slight
    brightness step between the two halves."""
    h, w = page_mask.shape
    ys, xs = np.nonzero(page_mask > 127)
    if len(xs) == 0:
        return photo
    k = int(rng.integers(len(xs)))
    angle = rng.uniform(0, np.pi)
    normal = np.array([-np.sin(angle), np.cos(angle)])
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    distance = (xx - xs[k]) * normal[0] + (yy - ys[k]) * normal[1]
    width = rng.uniform(0.6, 1.8)
    dark = rng.uniform(0.25, 0.6) * np.exp(-(distance / width) ** 2)
    light = rng.uniform(0.05, 0.2) * np.exp(-((distance - 2.5 * width) / (2 * width)) ** 2)
    step = np.where(distance > 0, rng.uniform(0.9, 1.0), 1.0)
    factor = (1 - dark + light) * step
    factor = np.where(page_mask > 127, factor, 1.0)
    return photo * factor[..., None]


def _corner_shadow(w: int, h: int, lattice: np.ndarray,
                   rng: np.random.Generator) -> np.ndarray:
    """Brightness factor of a deep shadow filling the quadrant beyond one grid corner:
    bounded by the two grid sides through that corner, extended outwards."""
    corners = np.array([lattice[0, 0], lattice[0, -1], lattice[-1, -1], lattice[-1, 0]])
    k = int(rng.integers(4))
    corner, before, after = corners[k], corners[k - 1], corners[(k + 1) % 4]
    far = 4 * max(w, h)
    # The two sides through the corner, leaving the grid, each turned a little outwards.
    arms = []
    for other in (before, after):
        direction = (corner - other) / np.linalg.norm(corner - other)
        turn = np.deg2rad(rng.uniform(-4, 4))
        rotate = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
        arms.append(corner + far * (rotate @ direction))
    wedge = np.array([corner, arms[0], arms[0] + arms[1] - 2 * corner + corner, arms[1]])
    mask = np.zeros((h, w), np.float32)
    cv2.fillPoly(mask, [np.round(wedge).astype(np.int32)], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.8, 2.5))
    return 1.0 - rng.uniform(0.75, 0.92) * mask


def _spur_shadow(w: int, h: int, lattice: np.ndarray,
                 rng: np.random.Generator) -> np.ndarray:
    """Brightness factor of a shadow in a wedge at one grid corner (light enough for the
    paper in it to stay paper, so the local threshold draws its edge as a line): one edge runs on
    along a grid side beyond the corner, the other is turned 25-65 degrees from it towards
    the grid's side of that line, so the shadow lies beside the grid and meets it only
    at the corner."""
    corners = np.array([lattice[0, 0], lattice[0, -1], lattice[-1, -1], lattice[-1, 0]])
    k = int(rng.integers(4))
    corner, before, after = corners[k], corners[k - 1], corners[(k + 1) % 4]
    if rng.random() < 0.5:
        before, after = after, before
    along = (corner - before) / np.linalg.norm(corner - before)
    towards = after - corner
    turn = np.deg2rad(rng.uniform(25, 65)) * np.sign(along[0] * towards[1] - along[1] * towards[0])
    rotate = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    far = 4 * max(w, h)
    wedge = np.array([corner, corner + far * along, corner + far * (rotate @ along)])
    mask = np.zeros((h, w), np.float32)
    cv2.fillPoly(mask, [np.round(wedge).astype(np.int32)], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.8, 2.5))
    return 1.0 - rng.uniform(0.3, 0.55) * mask


def _stripes(w: int, h: int, rng: np.random.Generator, count: int) -> np.ndarray:
    """Brightness factor of `count` parallel soft shadow bands at a random angle."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, np.pi)
    along = xx * np.cos(angle) + yy * np.sin(angle)
    period = rng.uniform(0.08, 0.3) * max(w, h)
    phase = rng.uniform(0, 2 * np.pi)
    wave = 0.5 + 0.5 * np.sin(2 * np.pi * along / period + phase)
    depth = rng.uniform(0.25, 0.6)
    bands = np.clip((wave - 0.5) * 4, 0, 1)  # soft-edged bands, half the period wide
    limit = np.clip(along - along.min() - count * period, 0, 1) == 0  # only `count` bands
    return 1.0 - depth * bands * limit


def _expose(photo: np.ndarray, exposure: str, rng: np.random.Generator) -> np.ndarray:
    """Under-exposed, faded (low contrast, lifted blacks) or inverted (a negative)."""
    if exposure == "dark":
        return photo * rng.uniform(0.15, 0.35)
    if exposure == "faded":
        contrast = rng.uniform(0.25, 0.45)
        return photo * contrast + (1 - contrast) * rng.uniform(150, 220)
    if exposure == "inverted":
        return 255.0 - photo
    return photo


def turned(image: Image.Image, truth: Truth, quarter_turns: int) -> tuple[Image.Image, Truth]:
    """The photo turned clockwise by `quarter_turns` x 90 degrees in its pixels, and where
    its grid went (the lattice keeps its rows and columns: row 0 is still the puzzle's)."""
    k = quarter_turns % 4
    w, h = image.size
    lat = truth.lattice.copy()
    for _ in range(k):  # one clockwise turn: (x, y) -> (h - 1 - y, x)
        lat = np.stack([h - 1 - lat[..., 1], lat[..., 0]], axis=-1)
        w, h = h, w
    turns = {0: None, 1: Image.Transpose.ROTATE_270, 2: Image.Transpose.ROTATE_180,
             3: Image.Transpose.ROTATE_90}
    out = image if k == 0 else image.transpose(turns[k])
    return out, Truth(lattice=lat)


def jpeg_with_orientation(image: Image.Image, orientation: int, quality: int = 90) -> bytes:
    """JPEG bytes of `image` carrying an EXIF orientation tag (1-8), true or not: phones held
    flat over a page often record one that does not match the pixels."""
    exif = Image.Exif()
    exif[0x0112] = orientation
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "JPEG", quality=quality, exif=exif.tobytes())
    return buffer.getvalue()
