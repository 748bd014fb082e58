"""Draw a solution into the picture it came from.

Each missing digit is drawn upright into a square tile, then warped into its cell's own
quadrilateral, so it lies on the page in the same perspective as the printed digits.
Readings the solver changed (suspects) and readings with a thin margin (uncertain) get an
outline drawn just inside their cell; a doubtful cage sum gets a ring around the sum, which
stays readable. Where the solved puzzle differs from what the picture shows (a digit the
solver or a person changed, a mark taken for blank) the cell is painted over with its own
paper colour first, and the digit the answer uses is drawn instead: red when the solver
chose it, blue like the solution when a person typed it. On a half-solved page the cells
the person filled in keep their own digits (no solution is drawn over them), and each of
their digits that contradicts the solution is outlined and struck through in red, with the
right digit written small beside it. A marked cell whose answer the picture does not show
in full (a doubtful digit of the person's, pencil notes read as one, a print read unsure)
gets the answer written beside what it holds in the same way. Nothing is drawn outside
the cells it concerns.

Pictures are drawn at most `max_side` pixels long (screens need no more), and JPEG
uploads are then decoded at a reduced scale, which makes a 12 MP photo cheap. Memory is
bounded: a picture that decodes larger than HEAVY_PIXELS is drawn one at a time per
process (a 40 MP upload costs some 300 MB while drawn), and the memory is given back
afterwards.
"""

from __future__ import annotations

import io
import threading
from contextlib import nullcontext
from functools import lru_cache

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from services.contracts import Corrections, Reading, SolveResult, Suspect, symbol_text
from services.gateway.memory import give_back_memory

RGB = tuple[int, int, int]
SOLUTION_RGB: RGB = (0, 98, 214)  # a vivid blue, unlike printed black or grey
SUSPECT_RGB: RGB = (224, 52, 0)  # orange-red: a reading the solver changed
UNCERTAIN_RGB: RGB = (238, 166, 0)  # amber: a reading with a thin margin
WRONG_RGB: RGB = (214, 0, 28)  # red: a digit the person wrote that the solution contradicts
DIGIT_HEIGHT = 0.58  # share of the tile's side
KILLER_DIGIT_HEIGHT = 0.5  # smaller, clear of the cage sums in the cells' corners
DIGIT_WIDTH = 0.8  # widest share for numbers of two digits (grids of 10 and more)
FONT = "DejaVuSans-Bold.ttf"
SUM_CORNER = (0.03, 0.03, 0.52, 0.4)  # left, top, right, bottom of a cage sum, cell units
FORMATS = {"png": "PNG", "jpeg": "JPEG", "webp": "WEBP"}
HEAVY_PIXELS = 6_000_000  # decoded larger than this, a picture is drawn alone
HEAVY_DRAWING = threading.Lock()


class OverlayError(ValueError):
    """The job holds nothing that can be drawn (yet)."""


def draw_overlay(image: bytes, reading: Reading, result: SolveResult,
                 corrections: Corrections | None = None, fmt: str = "png",
                 max_side: int | None = None) -> bytes:
    """The uploaded picture with the solution drawn in, encoded as `fmt` (png, jpeg, webp),
    at most `max_side` pixels long when given."""
    source = Image.open(io.BytesIO(image))
    reduce_decoding(source, max_side)
    heavy = source.size[0] * source.size[1] > HEAVY_PIXELS
    with HEAVY_DRAWING if heavy else nullcontext():
        try:
            picture = open_picture(source, max_side)
            return draw_on(picture, reading, result, corrections, fmt)
        finally:
            if heavy:
                del source
                give_back_memory()


def draw_on(picture: Image.Image, reading: Reading, result: SolveResult,
            corrections: Corrections | None, fmt: str) -> bytes:
    if result.kind == "nonogram":
        return encode(Image.fromarray(nonogram_drawn(picture, reading, result)), fmt)
    quads = scaled_quads(reading, picture.size)
    solution = solution_grid(result, reading.size)
    height = KILLER_DIGIT_HEIGHT if result.kind == "killer" else DIGIT_HEIGHT
    canvas = np.asarray(picture).copy()
    answered = set()  # cells whose answer is drawn in full
    for row, col, value, colour, cover in digits_to_draw(reading, result, solution,
                                                          corrections):
        if cover:
            paint_over(canvas, quads[row, col])
        paint_digit(canvas, quads[row, col], symbol_text(value, result.symbols), colour,
                    height)
        answered.add((row, col))
    n = reading.size
    wrong = {(w.row, w.col) for w in result.wrong_entries if 0 <= w.row < n and 0 <= w.col < n}
    for suspect, colour in marked_cells(result):
        if not (0 <= suspect.row < n and 0 <= suspect.col < n) or (
                suspect.row, suspect.col) in wrong:
            continue
        quad = quads[suspect.row, suspect.col]
        if suspect.what == "cage_sum":
            ring_sum(canvas, quad, colour)
        elif suspect.what == "cell":
            outline_cell(canvas, quad, colour)
            answer = solution[suspect.row][suspect.col]
            if (suspect.row, suspect.col) not in answered and answer:
                # A reading to check still shows the answer: what the cell holds (the
                # person's digit, their notes, a print read unsure) stays as it is, and
                # the answer goes beside it, inside the outline that asks for a look.
                paint_digit(canvas, cell_part(quad, RIGHT_DIGIT_BOX), symbol_text(
                    answer, result.symbols), SOLUTION_RGB)
        else:
            mark_wall(canvas, quad, suspect.what, colour)
    for w in sorted(result.wrong_entries, key=lambda w: (w.row, w.col)):
        if (w.row, w.col) not in wrong:
            continue
        quad = quads[w.row, w.col]
        outline_cell(canvas, quad, WRONG_RGB)
        strike_through(canvas, quad, WRONG_RGB)
        # The right digit beside the crossed-out one, small, in the cell's top right.
        paint_digit(canvas, cell_part(quad, RIGHT_DIGIT_BOX), symbol_text(w.correct,
                    result.symbols), SOLUTION_RGB)
    return encode(Image.fromarray(canvas), fmt)


# Where the answer is written beside what a cell holds (a wrong or doubtful digit).
RIGHT_DIGIT_BOX = (0.55, 0.04, 0.96, 0.45)


NONOGRAM_INSET = 0.12  # share of the cell left clear round a filled square


def nonogram_drawn(picture: Image.Image, reading: Reading, result: SolveResult) -> np.ndarray:
    """The picture with each cell the solution fills painted as a blue square; the cells a
    person already filled stay as they are, and marks the solution contradicts are
    outlined in red. (Clue numbers the solver changed are listed in `suspects`.)"""
    height, width = reading.height or 0, reading.width or 0
    quads = np.asarray(reading.cell_quads or [], dtype=np.float64)
    if quads.shape != (height, width, 4, 2) or not result.solution:
        raise OverlayError("the reading has no cell positions for this nonogram")
    if reading.image_size is not None and tuple(reading.image_size) != tuple(picture.size):
        quads = quads * (np.asarray(picture.size, dtype=np.float64)
                         / np.asarray(reading.image_size))
    marks = result.entries or [[0] * width for _ in range(height)]
    canvas = np.asarray(picture).copy()
    for r, row in enumerate(result.solution):
        for c, cell in enumerate(row):
            if cell != "#" or marks[r][c] == 1:
                continue
            quad = quads[r, c]
            centre = quad.mean(axis=0)
            inner = centre + (quad - centre) * (1 - 2 * NONOGRAM_INSET)
            cv2.fillConvexPoly(canvas, np.rint(inner * 16).astype(np.int32), SOLUTION_RGB,
                               lineType=cv2.LINE_AA, shift=4)
    for w in result.wrong_entries:
        if 0 <= w.row < height and 0 <= w.col < width:
            outline_cell(canvas, quads[w.row, w.col], WRONG_RGB)
    return canvas


def encode(picture: Image.Image, fmt: str) -> bytes:
    buffer = io.BytesIO()
    if fmt == "png":
        picture.save(buffer, "PNG", compress_level=3)
    else:
        picture.save(buffer, FORMATS[fmt], quality=85)
    return buffer.getvalue()


def digits_to_draw(reading: Reading, result: SolveResult, solution: list[list[int]],
                   corrections: Corrections | None) -> list[tuple[int, int, int, RGB, bool]]:
    """(row, col, digit, colour, cover first) for every cell whose answer the picture does
    not show: blanks get the solution; a digit the solver or a person changed gets the new
    one, drawn over the old (killer cells are never painted over: their sums sit there).
    A cell holding the person's own digit (result.entries) already shows their answer,
    right or wrong (wrong ones are marked, not overwritten)."""
    n = reading.size
    shown = [[int(np.argmax(probs)) for probs in row] for row in reading.cells]
    givens = puzzle_givens(reading, result, shown)
    typed = {(f.row, f.col) for f in (corrections.cells if corrections else [])}
    filled = result.entries or [[0] * n for _ in range(n)]
    out = []
    for r in range(n):
        for c in range(n):
            want = givens[r][c] or solution[r][c]
            if not want or (givens[r][c] and shown[r][c] == givens[r][c]):
                continue
            if not givens[r][c] and filled[r][c]:
                continue
            changed = bool(givens[r][c]) and (r, c) not in typed
            colour = SUSPECT_RGB if changed else SOLUTION_RGB
            cover = bool(shown[r][c]) and shown[r][c] != want and result.kind != "killer"
            out.append((r, c, want, colour, cover))
    return out


def puzzle_givens(reading: Reading, result: SolveResult, shown: list[list[int]]):
    """The digits the solved puzzle takes as given, after repair and corrections."""
    n = reading.size
    puzzle = result.puzzle
    if puzzle is not None and puzzle.kind != "nonogram":
        return puzzle.givens or [[0] * n for _ in range(n)]
    return shown


def reduce_decoding(picture: Image.Image, max_side: int | None) -> None:
    """Have a JPEG decode at 1/2, 1/4 or 1/8 scale directly, at no less than `max_side`
    (its `size` then tells the size it decodes at)."""
    if max_side and max(picture.size) > max_side:
        scale = max_side / max(picture.size)
        picture.draft("RGB", (round(picture.size[0] * scale), round(picture.size[1] * scale)))


def open_picture(data: bytes | Image.Image, max_side: int | None = None) -> Image.Image:
    """The upload as RGB, upright by its EXIF orientation, as browsers show it and as
    OpenCV decodes it for the recognizer; at most `max_side` pixels long when given."""
    picture = Image.open(io.BytesIO(data)) if isinstance(data, bytes) else data
    reduce_decoding(picture, max_side)
    orientation = picture.getexif().get(ORIENTATION_TAG)
    if max_side and max(picture.size) > max_side:
        # Shrunk before turning upright: no full-size copy is made (a bound box of
        # max_side either way round).
        picture.thumbnail((max_side, max_side), Image.Resampling.BILINEAR)
    picture = upright(picture, orientation)
    if picture.mode in ("RGBA", "LA", "PA") or "transparency" in picture.info:
        # Transparent screenshots: what shows through is the page's white, not black.
        picture = picture.convert("RGBA")
        flat = Image.new("RGBA", picture.size, (255, 255, 255, 255))
        picture = Image.alpha_composite(flat, picture)
    return picture.convert("RGB")


ORIENTATION_TAG = 0x0112
TURNS = {2: Image.Transpose.FLIP_LEFT_RIGHT, 3: Image.Transpose.ROTATE_180,
         4: Image.Transpose.FLIP_TOP_BOTTOM, 5: Image.Transpose.TRANSPOSE,
         6: Image.Transpose.ROTATE_270, 7: Image.Transpose.TRANSVERSE,
         8: Image.Transpose.ROTATE_90}


def upright(picture: Image.Image, orientation: int | None) -> Image.Image:
    """The picture turned as its EXIF orientation says (as ImageOps.exif_transpose does,
    from an orientation read before the picture was shrunk)."""
    turn = TURNS.get(orientation or 1)
    return picture if turn is None else picture.transpose(turn)


def scaled_quads(reading: Reading, size: tuple[int, int]) -> np.ndarray:
    """Cell quadrilaterals as an (n, n, 4, 2) array in the picture's pixels."""
    n = reading.size
    if reading.cell_quads is None:
        raise OverlayError("the reading has no cell positions")
    quads = np.asarray(reading.cell_quads, dtype=np.float64)
    if quads.shape != (n, n, 4, 2):
        raise OverlayError(f"cell positions have shape {quads.shape}, expected {(n, n, 4, 2)}")
    if reading.image_size is not None and tuple(reading.image_size) != tuple(size):
        # Read from a resized copy: bring the positions back to the upload's pixels.
        quads = quads * (np.asarray(size, dtype=np.float64) / np.asarray(reading.image_size))
    return quads


def solution_grid(result: SolveResult, n: int) -> list[list[int]]:
    grid = result.solution
    if result.kind == "nonogram" or not grid:
        raise OverlayError("the job has no sudoku solution to draw")
    if len(grid) != n or any(not isinstance(row, list) or len(row) != n for row in grid):
        raise OverlayError(f"the solution is not a {n}x{n} grid")
    return grid  # type: ignore[return-value]


def marked_cells(result: SolveResult) -> list[tuple[Suspect, RGB]]:
    """Suspects first; an uncertain reading of the same cell adds nothing."""
    marks: dict[tuple[int, int], tuple[Suspect, RGB]] = {}
    for suspect in result.suspects:
        marks.setdefault((suspect.row, suspect.col), (suspect, SUSPECT_RGB))
    for suspect in result.uncertain:
        marks.setdefault((suspect.row, suspect.col), (suspect, UNCERTAIN_RGB))
    return list(marks.values())


def quad_side(quad: np.ndarray) -> float:
    return float(min(np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)))


@lru_cache(maxsize=256)
def digit_tile(text: str, side: int, height: float = DIGIT_HEIGHT) -> np.ndarray:
    """Coverage (0..1) of `text` drawn centred in a square of `side` pixels, `height` of it
    tall."""
    font_px = max(6, round(side * height * 1.35))
    font = load_font(font_px)
    left, top, right, bottom = font.getbbox(text, anchor="mm")
    shrink = min(height * side / max(1, bottom - top),
                 DIGIT_WIDTH * side / max(1, right - left))
    font = load_font(max(6, round(font_px * shrink)))
    tile = Image.new("L", (side, side), 0)
    ImageDraw.Draw(tile).text((side / 2, side / 2), text, fill=255, font=font, anchor="mm")
    return np.asarray(tile, dtype=np.float32) / 255.0


@lru_cache(maxsize=64)
def load_font(px: int) -> ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype(FONT, px)
    except OSError:  # no DejaVu on this machine: Pillow's own scalable font
        return ImageFont.load_default(px)


def paint_digit(canvas: np.ndarray, quad: np.ndarray, text: str, colour: RGB,
                height: float = DIGIT_HEIGHT) -> None:
    """Warp an upright tile holding `text` onto `quad` and blend it into `canvas`."""
    rows, cols = canvas.shape[:2]
    # Tiles about twice the cell's size, rounded so that cells of one grid share a tile.
    side = int(np.clip(round(2 * quad_side(quad) / 16) * 16, 32, 512))
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(quad.max(axis=0)).astype(int) + 1, [cols, rows])
    if x1 <= x0 or y1 <= y0:
        return  # the cell lies outside the picture
    square = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
    transform = cv2.getPerspectiveTransform(square, (quad - [x0, y0]).astype(np.float32))
    coverage = cv2.warpPerspective(digit_tile(text, side, height), transform, (int(x1 - x0),
                                   int(y1 - y0)), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    region = canvas[y0:y1, x0:x1].astype(np.float32)
    alpha = coverage[..., None]
    blended = region * (1 - alpha) + np.float32(colour) * alpha
    canvas[y0:y1, x0:x1] = np.clip(np.rint(blended), 0, 255).astype(np.uint8)


def cell_part(quad: np.ndarray, box: tuple[float, float, float, float]) -> np.ndarray:
    """The part (left, top, right, bottom in cell units) of a cell, in perspective."""
    square = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    transform = cv2.getPerspectiveTransform(square, quad.astype(np.float32))
    left, top, right, bottom = box
    corners = np.float32([[[left, top], [right, top], [right, bottom], [left, bottom]]])
    return cv2.perspectiveTransform(corners, transform)[0].astype(np.float64)


def paint_over(canvas: np.ndarray, quad: np.ndarray) -> None:
    """Cover what the cell shows, clear of its grid lines, with the cell's paper colour
    (the brightest half of its pixels: paper outweighs ink in a cell)."""
    inner = cell_part(quad, (0.1, 0.1, 0.9, 0.9))
    x0, y0 = np.maximum(np.floor(quad.min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 1
    region = canvas[y0:y1, x0:x1].reshape(-1, 3)
    if not len(region):
        return
    light = region[region.sum(axis=1) >= np.median(region.sum(axis=1))]
    paper = tuple(int(v) for v in np.median(light, axis=0))
    points = np.rint(inner * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.fillConvexPoly(canvas, points, paper, lineType=cv2.LINE_AA, shift=4)


def mark_wall(canvas: np.ndarray, quad: np.ndarray, what: str, colour: RGB) -> None:
    """A short bar along the cage wall in doubt: right of, or below, the cell."""
    box = (0.84, 0.15, 0.96, 0.85) if what == "wall_right" else (0.15, 0.84, 0.85, 0.96)
    points = np.rint(cell_part(quad, box) * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.fillConvexPoly(canvas, points, tuple(int(v) for v in colour), lineType=cv2.LINE_AA,
                       shift=4)


def ring_sum(canvas: np.ndarray, quad: np.ndarray, colour: RGB) -> None:
    """A thin ring around the corner of the cell that holds its cage sum, which stays
    readable inside it."""
    thickness = max(1, round(quad_side(quad) * 0.035))
    points = np.rint(cell_part(quad, SUM_CORNER) * 16).astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(canvas, [points], isClosed=True, color=tuple(int(v) for v in colour),
                  thickness=thickness, lineType=cv2.LINE_AA, shift=4)


def strike_through(canvas: np.ndarray, quad: np.ndarray, colour: RGB) -> None:
    """A stroke across the cell from its lower left to its upper right, over the digit."""
    thickness = max(2, round(quad_side(quad) * 0.06))
    ends = cell_part(quad, (0.2, 0.2, 0.8, 0.8))[[3, 1]]  # lower left, upper right
    points = np.rint(ends * 16).astype(np.int32)
    cv2.line(canvas, tuple(int(v) for v in points[0]), tuple(int(v) for v in points[1]),
             tuple(int(v) for v in colour), thickness=thickness, lineType=cv2.LINE_AA, shift=4)


def outline_cell(canvas: np.ndarray, quad: np.ndarray, colour: RGB) -> None:
    """A closed outline just inside the cell, clear of its grid lines and its neighbours."""
    side = quad_side(quad)
    thickness = max(2, round(side * 0.07))
    # Shrink towards the centre by the line's half width plus room for antialiasing and
    # the grid line itself.
    centre = quad.mean(axis=0)
    margin = thickness / 2 + 0.06 * side + 1.5
    factor = max(0.3, 1 - margin / max(1.0, side / 2))
    inner = centre + (quad - centre) * factor
    points = np.rint(inner * 16).astype(np.int32).reshape(-1, 1, 2)  # 4 bits of subpixel
    cv2.polylines(canvas, [points], isClosed=True, color=tuple(int(v) for v in colour),
                  thickness=thickness, lineType=cv2.LINE_AA, shift=4)
