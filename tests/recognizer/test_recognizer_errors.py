"""Bad input gets a RecognitionError whose message says what to do."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw

from gridsight.synth.render import render_sudoku
from services.recognizer import RecognitionError, recognize

from .conftest import givens_for, to_bytes


def text_page() -> Image.Image:
    image = Image.new("RGB", (800, 600), "white")
    draw = ImageDraw.Draw(image)
    for y in range(20, 580, 30):
        draw.text((20, y), "Lorem ipsum dolor sit amet 123 456 789 " * 3, fill="black")
    return image


@pytest.mark.parametrize(("data", "advice"), [
    (b"", "empty"),
    (b"this is not a picture at all", "not an image"),
    (b"\x89PNG\r\n\x1a\n" + b"\x00" * 50, "not an image"),
])
def test_unreadable_bytes(data, advice):
    with pytest.raises(RecognitionError, match=advice):
        recognize(data)


@pytest.mark.parametrize("image", [
    Image.new("RGB", (640, 480), "black"),
    Image.new("RGB", (640, 480), "white"),
    text_page(),
    Image.fromarray(np.random.default_rng(0).integers(0, 256, (480, 640, 3), dtype=np.uint8)),
], ids=["black", "white", "text", "noise"])
def test_no_grid(image):
    with pytest.raises(RecognitionError, match="no puzzle grid was found in the picture: "
                       "photograph the whole"):
        recognize(to_bytes(image))


def test_too_many_pixels_refused_before_decoding():
    huge = Image.new("1", (8000, 6000))  # 48 megapixels, a small file
    with pytest.raises(RecognitionError, match="too large"):
        recognize(to_bytes(huge))


def test_unsupported_kinds_say_so():
    data = to_bytes(render_sudoku(givens_for(1), font="DejaVuSans"))
    with pytest.raises(RecognitionError, match="unknown puzzle kind"):
        recognize(data, "crossword")
    # Nonograms are read now; a sudoku sent as one is refused in words.
    with pytest.raises(RecognitionError, match="does not look like a nonogram"):
        recognize(data, "nonogram")


def test_error_is_a_value_error():
    assert issubclass(RecognitionError, ValueError)
