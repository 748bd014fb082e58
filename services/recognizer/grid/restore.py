"""Damaged pictures mended before the grid is looked for, each mend gated on cheap evidence.

A clean photo pays only for the measurements (a millisecond or so on the working
picture) and enters no restoration stage (stages.py records those entered). Inverted,
dark and faded pictures are already read by grid/exposure.py.

Fitted on gridsight.synth.degrade's pictures (seeds 1000-1004) and rendered screenshots
of each style: on clean photos and screenshots at most 0.0001 of the sampled pixels lie
beyond all 8 of their neighbours (a thin line's pixels do not: the line runs on), salt and
pepper of 1 % of pixels (after the JPEG and the shrink to the working size) shows
0.003-0.009, strong sensor noise (sigma 30) at most 0.0005.
Shadow: the paper's brightness at the grid's cell centres (a closing removes the ink),
its 5th over its 95th percentile: 0.67-0.92 on clean photos (seeds 6000-6007), 0.51 and
above on the real dev photos (../shared/data/sudoku_photos_dev; flattening the three at
0.51-0.54 misread a digit of one), 0.44-0.62 under shadow bands of depth 0.35 (mostly
left unflattened), 0.20-0.48 under deeper bands.
"""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.errors import RecognitionError
from services.recognizer.grid.exposure import locate_through_blur
from services.recognizer.grid.lattice import cell_side
from services.recognizer.grid.tuning import (
    GUESSED_CELL,
    IMPULSE_SHARE,
    IMPULSE_STEP,
    INK_REACH,
    MAX_PASSES,
    SHADOWED,
    SHRINK,
)
from services.recognizer.stages import enter


def impulse_share(gray: np.ndarray) -> float:
    """Share of pixels lighter or darker than all 8 of their neighbours by IMPULSE_STEP,
    on the middle of the picture (where a grid lies; a sample keeps it cheap)."""
    h, w = gray.shape
    sample = gray[h // 3:2 * h // 3, w // 4:3 * w // 4]
    if sample.size == 0:
        return 0.0
    lightest = cv2.dilate(sample, _RING).astype(np.int16)
    darkest = cv2.erode(sample, _RING).astype(np.int16)
    value = sample.astype(np.int16)
    return float(((value - lightest > IMPULSE_STEP) | (darkest - value > IMPULSE_STEP)).mean())


_RING = np.ones((3, 3), np.uint8)
_RING[1, 1] = 0  # the 8 neighbours, not the pixel


def restored(gray: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """(the working picture mended, the mends applied, one name a pass): impulse noise
    (salt and pepper) median filtered while it is measured. A picture with none is
    returned as it is."""
    mends: list[str] = []
    while len(mends) < MAX_PASSES and impulse_share(gray) > IMPULSE_SHARE:
        if not mends:
            enter("restore: impulse noise")
        gray = cv2.medianBlur(gray, 3)
        mends.append("impulse noise")
    return gray, mends


def mended_as(picture: np.ndarray, mends: list[str]) -> np.ndarray:
    """Another decoding of the same upload (the colour picture) mended as `restored`
    mended the grey one."""
    for mend in mends:
        if mend == "impulse noise":
            picture = cv2.medianBlur(picture, 3)
        elif mend[0] == "shadow":
            picture = flattened(picture, mend[1])
    return picture


def _closed_paper(gray: np.ndarray, cell: float, shrink: int = SHRINK) -> np.ndarray:
    """The paper's brightness, `shrink` times smaller: the dark ink closed over."""
    h, w = gray.shape[:2]
    small = gray if shrink == 1 else cv2.resize(
        gray, (max(1, w // shrink), max(1, h // shrink)), interpolation=cv2.INTER_AREA)
    reach = max(3, int(round(INK_REACH * cell / shrink)) | 1)
    return cv2.morphologyEx(small, cv2.MORPH_CLOSE,
                            cv2.getStructuringElement(cv2.MORPH_RECT, (reach, reach)))


def shade_ratio(gray: np.ndarray, lattice: np.ndarray) -> float:
    """The grid's paper at its cell centres, 5th over 95th percentile (1: evenly lit), on
    the grid's bounding box only."""
    x0, y0 = np.maximum(np.floor(lattice.reshape(-1, 2).min(axis=0)).astype(int), 0)
    x1, y1 = np.ceil(lattice.reshape(-1, 2).max(axis=0)).astype(int) + 1
    box = gray[y0:y1, x0:x1]
    if box.shape[0] < 2 * SHRINK or box.shape[1] < 2 * SHRINK:
        return 1.0
    paper = _closed_paper(box, cell_side(lattice))
    centres = ((lattice[:-1, :-1] + lattice[1:, 1:]) / 2 - [x0, y0]).reshape(-1, 2) / SHRINK
    cols = np.clip(centres[:, 0].astype(int), 0, paper.shape[1] - 1)
    rows = np.clip(centres[:, 1].astype(int), 0, paper.shape[0] - 1)
    low, high = np.percentile(paper[rows, cols].astype(np.float32), [5, 95])
    return float(low / max(high, 1.0))


def flattened(picture: np.ndarray, cell: float) -> np.ndarray:
    """`picture` (grey or colour, dark ink on light paper) divided by its paper's
    brightness: shadows and light falloff taken out, the ink kept. At full size: a
    shadow's sharp edge estimated coarser would stay behind as a line."""
    channels = cv2.split(picture) if picture.ndim == 3 else [picture]
    out = []
    for channel in channels:
        paper = _closed_paper(channel, cell, shrink=1).astype(np.float32)
        out.append(np.clip(channel.astype(np.float32) * 240.0 / np.maximum(paper, 8.0), 0,
                           255).astype(np.uint8))
    return cv2.merge(out) if picture.ndim == 3 else out[0]


def locate_in_shade(gray: np.ndarray, mends: list
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(picture with dark ink, corners, lattice, the picture in the upload's polarity) as
    exposure.locate_through_blur finds them; where the grid's paper is measured to lie in
    deep shadow in some cells (or no grid is found), the picture is flattened
    (`flattened`) and the grid found again there, and ("shadow", cell) added to `mends`."""
    try:
        picture, corners, lattice = locate_through_blur(gray)
    except RecognitionError as error:
        cell = GUESSED_CELL * min(gray.shape[:2])
        enter("restore: shadow")
        try:
            found = locate_through_blur(flattened(gray, cell))
        except RecognitionError:
            raise error from None
        mends.append(("shadow", cell))
        return (*found, found[0])
    if shade_ratio(picture, lattice) >= SHADOWED:
        return picture, corners, lattice, gray
    enter("restore: shadow")
    inverted = picture is not gray
    cell = cell_side(lattice)
    try:
        again = locate_through_blur(flattened(picture, cell))
    except RecognitionError:
        return picture, corners, lattice, gray
    if again[2].shape != lattice.shape:
        return picture, corners, lattice, gray
    mends.append(("shadow", cell))
    return (*again, 255 - again[0] if inverted else again[0])
