"""recognize(): picture bytes in, a Reading with a probability for every cell out.

The stages in order: decode (grid/decode.py), the nonogram branch (nonogram/), the grid
located (grid/), stood upright and its digits read (cells/), then the killer reader
(killer/) where the picture may be one, the kind decided, and half-solved pages' cell kinds
(cells/half_solved.py). This module only sequences them.
"""

from __future__ import annotations

import time

import cv2
import numpy as np

from services.contracts import Reading
from services.recognizer.cells.digits import classic_givens, digit_view, read_cells, stand_upright
from services.recognizer.cells.features import read_grid_cells
from services.recognizer.cells.half_solved import half_solved_reading, print_only_fields
from services.recognizer.cells.kinds import CELL as KINDS_CELL
from services.recognizer.cells.print_look import cage_free, plainly_printed, rendered
from services.recognizer.cells.symbols import read_symbols
from services.recognizer.cells.tuning import CLASSIC_CONFIDENCE
from services.recognizer.errors import RecognitionError
from services.recognizer.grid.decode import decode, decode_colour
from services.recognizer.grid.exposure import brightened
from services.recognizer.grid.full_resolution import full_resolution_grid
from services.recognizer.grid.lattice import SIZE, corners_of
from services.recognizer.grid.restore import locate_in_shade, mended_as, restored
from services.recognizer.grid.shape import box_fields
from services.recognizer.grid.straighten import straighten
from services.recognizer.grid.tuning import FINER_GAIN, FINER_SIDE, WORK_SIDE
from services.recognizer.killer.kind import decide, min_heads
from services.recognizer.killer.marks import read_marks
from services.recognizer.killer.page import (
    killer_as_shown,
    killer_evidence,
    numbers_found,
    read_upright_killer,
)
from services.recognizer.killer.reading import cage_walls_seen, killer_cells, reading_fields
from services.recognizer.nonogram.reading import nonogram_reading
from services.recognizer.stages import enter, recording

# Sides at which a picture may be a killer: the killer reader and the kind evidence run
# there. Other sides are read as classic grids.
KILLER_SIDES = (6, 9)


def _finer(image: bytes, scale: float, decoded: np.ndarray
           ) -> tuple[np.ndarray, float, list] | None:
    """(grey picture, scale, mends) of the upload looked at again, mended, for a picture
    whose grid was not found at its working size (`decoded`: decode()'s picture): one
    shrunk to it is decoded at up to FINER_SIDE; one much smaller than WORK_SIDE is
    enlarged to it (a small web capture's faint lines, a pixel wide, break up where the
    outline is followed). None when the picture is about the working size already."""
    if scale >= FINER_GAIN:
        enter("finer_decode")
        gray, finer_scale, _ = decode(image, FINER_SIDE)
    elif max(decoded.shape) * FINER_GAIN <= WORK_SIDE:
        enter("enlarged_decode")
        factor = WORK_SIDE / max(decoded.shape)
        gray = cv2.resize(decoded, (round(decoded.shape[1] * factor),
                                    round(decoded.shape[0] * factor)),
                          interpolation=cv2.INTER_LINEAR)
        finer_scale = scale * max(decoded.shape) / max(gray.shape)
    else:
        return None
    gray, mends = restored(gray)
    return gray, finer_scale, mends


def _points(array: np.ndarray) -> list:
    return [(round(float(x), 2), round(float(y), 2)) for x, y in array]


def recognize(image: bytes, kind: str = "auto") -> Reading:
    """Read a classic or killer sudoku from a photo or screenshot (JPEG, PNG, ...).

    kind="auto" tells the two apart (see killer/kind.py for what a wrong explicit kind does).
    The grid's side (4, 6, 8, 9, 12 or 16) and box shape come from its lines (grid/shape.py);
    killers are read at the sides in KILLER_SIDES (6x6 and 9x9). The Reading's `stages`
    names the costly stages entered (stages.py).
    """
    with recording() as stages:
        reading = _recognize(image, kind)
    reading.stages = stages
    return reading


def _recognize(image: bytes, kind: str) -> Reading:
    if kind not in ("auto", "sudoku", "killer", "nonogram"):
        raise RecognitionError(f"unknown puzzle kind {kind!r}: choose 'auto', 'sudoku', "
                               "'killer' or 'nonogram'")
    clock = time.perf_counter()
    decoded, scale, (width, height) = decode(image)
    gray, mends = restored(decoded)  # a damaged picture mended (a clean one kept as it is)
    if kind in ("auto", "nonogram"):
        # A nonogram's clues beside its grid are told first: its grid must never be read
        # as a sudoku's (see nonogram/reading.py).
        reading = nonogram_reading(image, kind, (gray.copy(), scale, (width, height)))
        if reading is not None:
            return reading
    timings: dict[str, float] = {"decode": round(time.perf_counter() - clock, 4)}
    clock = time.perf_counter()

    def lap(stage: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[stage] = round(now - clock, 4)
        clock = now

    try:
        gray, corners, lattice, as_decoded = locate_in_shade(brightened(gray), mends)
    except RecognitionError as error:
        finer = _finer(image, scale, decoded)
        if finer is None:
            raise
        gray, scale, mends = finer
        try:
            gray, corners, lattice, as_decoded = locate_in_shade(brightened(gray), mends)
        except RecognitionError:
            raise error from None  # what the picture as a whole shows
    origin = (0.0, 0.0)
    colour = None  # decoded when a stage needs it

    def in_colour() -> np.ndarray:
        nonlocal colour
        if colour is None:
            colour = mended_as(decode_colour(image, gray.shape), mends)
        return colour

    lap("grid")
    # A mended picture is not read again from the damaged upload.
    region = None if mends else full_resolution_grid(image, lattice, scale,
                                                     gray is not as_decoded)
    if region is not None:
        region, (gray, corners, lattice) = region
        as_decoded, scale, origin, colour = region.gray, region.scale, region.origin, \
            region.colour
        lap("grid_full_resolution")
    shown = lattice  # as the picture shows it, before any turn
    lattice, turns, features = stand_upright(gray, lattice)
    corners = corners_of(lattice)
    lap("orientation")
    size = lattice.shape[0] - 1
    if size not in KILLER_SIDES:
        return _other_size_reading(gray, lattice, features, kind, scale, origin,
                                   (width, height), turns, timings, lap)
    probs, large_digits = read_cells(gray, lattice, features)
    lap("cells")
    killer, warnings, kind_extra = None, [], {}
    straight = (None, None)  # (lattice, the colour grid straightened on it), made once

    def straightened() -> np.ndarray:
        """The colour grid straightened, its ink dark on light: a grid found inverted (dark
        mode: light ink on a dark ground) has its colours inverted too, as its grey
        picture is, and the person's digits stay another colour than the givens'."""
        nonlocal straight
        if straight[0] is not lattice:
            grid = straighten(in_colour(), lattice, KINDS_CELL)
            straight = lattice, grid if gray is as_decoded else 255 - grid
        return straight[1]

    if kind == "auto" and large_digits >= classic_givens(size) and (
            cage_free(straightened(), probs)
            or not cage_walls_seen(gray, lattice, in_colour())):
        # Many large digits and no cage walls: a classic grid. (A killer in progress holds
        # many large digits too, the person's own, but shows its cages.) The cage reader,
        # the slow stage, is not asked.
        read_as, confidence = "sudoku", CLASSIC_CONFIDENCE
    elif kind == "sudoku" and large_digits >= classic_givens(size):
        read_as, confidence = "sudoku", CLASSIC_CONFIDENCE  # as asked, and it looks so
    else:
        # Boxes from the lattice found (6x6: 2x3 or 3x2), so that the killer lattice
        # traces the box lines first.
        boxes = box_fields(gray, lattice) if size != SIZE else {}
        killer = read_upright_killer(gray, in_colour(), corners, turns, size,
                                     boxes.get("box", (3, 3)))
        p_killer = killer_evidence(killer, size)
        if turns and p_killer <= 0.5:
            # Turned by the digits' vote, yet the cages' first cells do not hold the
            # numbers a killer's do in their top-left corners: the voters may have been
            # cage outline pieces (small cells, closely dashed corners and one-cell boxes
            # the digit model took for digits). A killer's sums stand it upright as
            # surely as digits do: the picture as shown is read too, and kept when it
            # is the killer the turned one is not.
            as_shown = killer_as_shown(gray, shown, in_colour(), size)
            p_shown = killer_evidence(as_shown[0], size) if as_shown is not None else 0.0
            if p_shown > 0.5:
                (killer, boxes), p_killer = as_shown, p_shown
                lattice, turns, features = shown, 0, read_grid_cells(
                    digit_view(gray, shown), size)
                probs, large_digits = read_cells(gray, lattice, features)
        read_as, confidence, warnings = decide(
            kind, p_killer, sums_found=numbers_found(killer) >= min_heads(size))
        lap("killer")
        if read_as == "killer":
            lattice = killer.lattice  # traced among the cage outlines
            probs = killer_cells(gray, lattice, killer)
            # A killer in progress: the person's digits and notes are no givens.
            sum_cells = {tuple(s.cell) for s in killer.sums} | set(killer.heads)
            probs, kind_extra = read_marks(in_colour(), gray, lattice, sum_cells, probs)
            lap("killer_cells")
    if read_as == "sudoku" and size != SIZE:
        return _other_size_reading(gray, lattice, features, "sudoku", scale, origin,
                                   (width, height), turns, timings, lap,
                                   kind_confidence=confidence, warnings=warnings)

    # Half-solved pages (cells/half_solved.py): printed givens told from the person's digits and
    # pencil notes, in light and dark themes alike (straightened()).
    if read_as == "sudoku":
        if plainly_printed(straightened(), probs):
            # A flat screenshot of print alone (cells/print_look.py): nobody wrote on it.
            kind_extra = print_only_fields(probs)
            lap("print_look")
        else:
            # A screenshot's cells are read by the screens' model, a photo's by the one
            # fitted on photographed pages; a mended picture is a photo.
            screen = not mends and rendered(gray, lattice, straightened())
            probs, kind_extra = half_solved_reading(in_colour(), lattice, probs,
                                                    straightened(), rendered=screen)
            lap("cell_kinds")

    probs = probs / probs.sum(axis=-1, keepdims=True)
    extra = reading_fields(killer) if killer is not None and read_as == "killer" else {}
    if size != SIZE:
        extra |= boxes
    return Reading(kind=read_as, kind_confidence=round(confidence, 4), size=size,
                   cells=probs.tolist(), image_size=(width, height), rotation=90 * turns,
                   warnings=warnings + extra.pop("warnings", []), timings=timings,
                   **_geometry(lattice, scale, origin, width, height), **extra, **kind_extra)


def _geometry(lattice: np.ndarray, scale: float, origin: tuple[float, float], width: int,
              height: int) -> dict:
    """Corners and cell quads back in the uploaded image's pixels, kept inside it."""
    n = lattice.shape[0] - 1
    lattice = lattice * scale + np.array(origin)
    lattice[..., 0] = np.clip(lattice[..., 0], 0, width - 1)
    lattice[..., 1] = np.clip(lattice[..., 1], 0, height - 1)
    quads = [[_points(np.array([lattice[r, c], lattice[r, c + 1], lattice[r + 1, c + 1],
                                lattice[r + 1, c]])) for c in range(n)] for r in range(n)]
    return {"corners": _points(corners_of(lattice)), "cell_quads": quads}


KILLER_SIDES_ONLY = ("this grid is {n}x{n}: killer sudoku are read from pictures at "
                     + " and ".join(f"{k}x{k}" for k in KILLER_SIDES)
                     + " only. Send it with kind 'sudoku' or 'auto', or type the cages in")


def _other_size_reading(gray: np.ndarray, lattice: np.ndarray, features: tuple, kind: str,
                        scale: float, origin: tuple[float, float],
                        image_size: tuple[int, int], turns: int,
                        timings: dict, lap, kind_confidence: float = 1.0,
                        warnings: list[str] | None = None) -> Reading:
    """A classic grid of a side other than 9: its box shape from the thick lines, its
    symbols (digits, or letters in 16x16 grids) read cell by cell."""
    n = lattice.shape[0] - 1
    if kind == "killer":
        raise RecognitionError(KILLER_SIDES_ONLY.format(n=n))
    boxes = box_fields(gray, lattice)
    probs, symbols = read_symbols(gray, lattice, features)
    lap("cells")
    width, height = image_size
    return Reading(kind="sudoku", kind_confidence=round(kind_confidence, 4), size=n,
                   symbols=symbols, cells=probs.tolist(), image_size=image_size,
                   rotation=90 * turns, warnings=[*(warnings or []), *boxes.pop("warnings")],
                   timings=timings, **boxes, **_geometry(lattice, scale, origin, width, height))
