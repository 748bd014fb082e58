"""Screenshots in many fonts and styles read exactly, with sound geometry."""

from __future__ import annotations

import numpy as np
import pytest

from gridsight.synth.fonts import digit_fonts
from gridsight.synth.render import render_sudoku
from services.contracts import Reading
from services.recognizer import recognize

from .conftest import givens_for, read_digits, to_bytes

# Different families; Lato is held out of the classifier's training.
CASES = [
    ("DejaVuSans", "screenshot", 48),
    ("LiberationSerif-Regular", "newspaper", 40),
    ("FreeSans", "thin", 56),
    ("Roboto-Regular", "app", 48),
    ("OpenSans-Bold", "bold", 36),
    ("NimbusRoman-Regular", "screenshot", 64),
    ("Hack-Regular", "app", 44),
    ("Lato-Regular", "screenshot", 48),
    ("Tinos-Regular", "newspaper", 30),
    # Dark mode: light lines and digits on a dark ground.
    ("Roboto-Regular", "dark", 48),
    ("DejaVuSans", "dark", 36),
]


def test_fonts_come_from_debian_packages():
    names = [name for name, _ in digit_fonts()]
    assert "DejaVuSans" in names
    assert len(names) >= 5


def test_faces_that_frame_every_glyph_are_left_out():
    """A keyboard-key face draws each digit inside a key; no puzzle prints digits so, and
    training or testing on it only teaches the reader frames."""
    from PIL import ImageFont

    from gridsight.synth.fonts import FONT_DIRS, _framed, _glyph

    keycaps = [p for root in FONT_DIRS if root.is_dir() for p in root.rglob("LinBiolinum_K*")]
    if keycaps:  # fonts-linuxlibertine is in scripts/font-packages.txt
        font = ImageFont.truetype(str(keycaps[0]), 80)
        assert _framed([_glyph(font, d) for d in "1237"])
    assert not any("LinBiolinum_K" in name for name, _ in digit_fonts())
    plain = ImageFont.truetype(dict(digit_fonts())["DejaVuSans"], 80)
    assert not _framed([_glyph(plain, d) for d in "1237"])


@pytest.mark.parametrize(("font", "style", "cell_px"), CASES)
def test_screenshot_reads_exactly(font, style, cell_px):
    givens = givens_for(hash(font) % 1000)
    image = render_sudoku(givens, font=font, style=style, cell_px=cell_px, seed=7)
    reading = recognize(to_bytes(image), "sudoku")

    assert isinstance(reading, Reading) and reading.kind == "sudoku" and reading.size == 9
    assert (read_digits(reading) == np.asarray(givens)).all()
    probs = np.asarray(reading.cells)
    assert probs.shape == (9, 9, 10)
    assert np.allclose(probs.sum(axis=-1), 1.0, atol=1e-6)
    # Corners and cell quads sit on the drawn grid, inside the image.
    truth = np.asarray(image.info["lattice"])
    quads = np.asarray(reading.cell_quads)
    assert quads.shape == (9, 9, 4, 2)
    assert np.abs(quads[:, :, 0] - truth[:-1, :-1]).max() < 0.15 * cell_px
    assert np.abs(np.asarray(reading.corners)[2] - truth[-1, -1]).max() < 0.15 * cell_px
    width, height = reading.image_size
    assert (width, height) == image.size
    assert (quads[..., 0] >= 0).all() and (quads[..., 0] < width).all()
    assert (quads[..., 1] >= 0).all() and (quads[..., 1] < height).all()
    assert set(reading.timings) >= {"decode", "grid", "cells"}


@pytest.mark.parametrize("style", ["screenshot", "newspaper", "app"])
def test_classic_grid_is_read_as_sudoku_when_kind_is_auto(style):
    image = render_sudoku(givens_for(11), font="DejaVuSans", style=style, seed=11)
    reading = recognize(to_bytes(image))
    assert reading.kind == "sudoku"
    assert (read_digits(reading) == np.asarray(givens_for(11))).all()


def test_reading_survives_json_round_trip():
    image = render_sudoku(givens_for(3), font="DejaVuSans", seed=3)
    reading = recognize(to_bytes(image), "sudoku")
    again = Reading.model_validate_json(reading.model_dump_json())
    assert read_digits(again).tolist() == read_digits(reading).tolist()


@pytest.mark.parametrize("font", ["NimbusRoman-Regular", "DejaVuSans"])
def test_classic_grid_is_told_without_the_cage_reader(font):
    # Text centred on a font's line metrics sits high in its cell (no descenders in
    # digits); such givens still make the grid classic at once, before the slow cage reader.
    givens = givens_for(7)
    image = render_sudoku(givens, font=font, style="thin", cell_px=48, seed=7)
    reading = recognize(to_bytes(image), "auto")
    assert reading.kind == "sudoku"
    assert "killer" not in reading.timings
    assert (read_digits(reading) == np.asarray(givens)).all()
