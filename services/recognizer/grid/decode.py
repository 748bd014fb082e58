"""Bytes to a greyscale working image, refusing what is not a picture or far too big."""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

import cv2
import numpy as np
from PIL import Image

from services.recognizer.errors import RecognitionError
from services.recognizer.grid.tuning import WORK_SIDE
from services.settings import get_settings

MAX_PIXELS = get_settings().max_image_pixels  # the gateway's limit: what it lets in is read

# PIL reads the header lazily; beyond this it refuses to decode at all.
Image.MAX_IMAGE_PIXELS = MAX_PIXELS


# Decoding a big JPEG shrunk by 2, 4 or 8 at once is far cheaper than shrinking it after.
GREY_FLAGS = {1: cv2.IMREAD_GRAYSCALE, 2: cv2.IMREAD_REDUCED_GRAYSCALE_2,
              4: cv2.IMREAD_REDUCED_GRAYSCALE_4, 8: cv2.IMREAD_REDUCED_GRAYSCALE_8}
COLOUR_FLAGS = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2,
                4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


def _reduction(width: int, height: int, side: int = WORK_SIDE) -> int:
    """The largest of 1, 2, 4, 8 that keeps the picture at least `side` long."""
    reduce = 1
    while max(width, height) // (reduce * 2) >= side and reduce < 8:
        reduce *= 2
    return reduce


def decode(data: bytes, work_side: int = WORK_SIDE) -> tuple[np.ndarray, float, tuple[int, int]]:
    """(grey working image at most `work_side` long, original pixels per working pixel,
    original (width, height))."""
    if not data:
        raise RecognitionError("the upload is empty: send a photo or screenshot of the puzzle "
                               "(JPEG or PNG)")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            width, height = Image.open(io.BytesIO(data)).size
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise RecognitionError(f"the image is too large (over {MAX_PIXELS // 1_000_000} "
                               "megapixels): send a smaller photo") from None
    except Exception:
        raise RecognitionError("this is not an image we can read: send a JPEG or PNG photo "
                               "or screenshot of the puzzle") from None
    if width * height > MAX_PIXELS:
        raise RecognitionError(f"the image is too large (over {MAX_PIXELS // 1_000_000} "
                               "megapixels): send a smaller photo")
    gray = cv2.imdecode(np.frombuffer(data, np.uint8),
                        GREY_FLAGS[_reduction(width, height, work_side)])
    if gray is None:
        raise RecognitionError("this image could not be decoded: send a JPEG or PNG photo "
                               "or screenshot of the puzzle")
    if gray.dtype != np.uint8:  # 16-bit PNGs
        gray = (gray / 257).astype(np.uint8)
    h, w = gray.shape[:2]
    # EXIF rotation may have swapped the sides relative to the header.
    original = (width, height) if (w >= h) == (width >= height) else (height, width)
    long_side = max(w, h)
    if long_side > work_side:
        factor = work_side / long_side
        gray = cv2.resize(gray, (max(1, round(w * factor)), max(1, round(h * factor))),
                          interpolation=cv2.INTER_AREA)  # a long strip keeps 1 pixel
    scale = max(original) / max(gray.shape[:2])
    return gray, scale, original


def decode_colour(data: bytes, shape: tuple[int, int]) -> np.ndarray:
    """The picture in colour (BGR) at the working size `shape` (rows, columns), for
    data that decode() has read."""
    width, height = Image.open(io.BytesIO(data)).size
    colour = cv2.imdecode(np.frombuffer(data, np.uint8),
                          COLOUR_FLAGS[_reduction(width, height, max(WORK_SIDE, *shape))])
    if colour is None:  # decode() read it; a colour decode failing would be a codec quirk
        raise RecognitionError("this image could not be decoded in colour: send a JPEG or "
                               "PNG photo or screenshot of the puzzle")
    return cv2.resize(colour, (shape[1], shape[0]), interpolation=cv2.INTER_AREA)


@dataclass
class Region:
    """A part of the upload decoded at up to full resolution: grey and colour pictures,
    and where their pixels lie in the upload (upload = region pixel * scale + origin)."""

    gray: np.ndarray
    colour: np.ndarray
    scale: float
    origin: tuple[float, float]


def decode_region(data: bytes, box: tuple[int, int, int, int], max_side: int = WORK_SIDE
                  ) -> Region | None:
    """The upload's pixels inside `box` (x0, y0, x1, y1, in upload pixels), at full
    resolution or shrunk to `max_side`; None if the picture cannot be decoded whole (the
    caller keeps its working picture). OpenCV turns it by its EXIF orientation, as in
    decode()."""
    colour = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if colour is None:
        return None
    h, w = colour.shape[:2]
    x0, y0 = max(0, int(box[0])), max(0, int(box[1]))
    x1, y1 = min(w, int(np.ceil(box[2]))), min(h, int(np.ceil(box[3])))
    if x1 - x0 < 16 or y1 - y0 < 16:
        return None
    colour = colour[y0:y1, x0:x1]
    factor = min(1.0, max_side / max(x1 - x0, y1 - y0))
    if factor < 1.0:
        colour = cv2.resize(colour, (max(1, round((x1 - x0) * factor)),
                                     max(1, round((y1 - y0) * factor))),
                            interpolation=cv2.INTER_AREA)
    gray = cv2.cvtColor(colour, cv2.COLOR_BGR2GRAY)
    return Region(gray, colour, (x1 - x0) / colour.shape[1], (float(x0), float(y0)))
