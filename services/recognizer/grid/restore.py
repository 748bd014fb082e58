"""Damaged pictures mended before the grid is looked for, each mend gated on cheap evidence.

A clean photo pays only for the measurements (a millisecond or so on the working
picture) and enters no restoration stage (stages.py records those entered). Inverted,
dark and faded pictures are already read by grid/exposure.py.

Fitted on bench/degraded.py's pictures (gridsight.synth.degrade, seeds 1000-1004 and the
bench's default seeds): on clean photos at most 0.0001 of the sampled pixels lie far from
their 3x3 median; salt and pepper of 1 % of pixels (after the JPEG and the shrink to the
working size) shows 0.003-0.009, strong sensor noise (sigma 30) at most 0.001.
"""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.stages import enter

IMPULSE_STEP = 70  # grey levels off its 3x3 median that make a pixel an impulse
IMPULSE_SHARE = 0.002  # a picture with more impulses than this share is median filtered
MAX_PASSES = 3  # median passes at most, each only while impulses remain


def impulse_share(gray: np.ndarray) -> float:
    """Share of pixels far from their 3x3 median, on the middle of the picture (where a
    grid lies; a sample keeps it cheap)."""
    h, w = gray.shape
    sample = gray[h // 3:2 * h // 3, w // 4:3 * w // 4]
    if sample.size == 0:
        return 0.0
    median = cv2.medianBlur(sample, 3)
    return float((cv2.absdiff(sample, median) > IMPULSE_STEP).mean())


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
    for _ in range(mends.count("impulse noise")):
        picture = cv2.medianBlur(picture, 3)
    return picture
