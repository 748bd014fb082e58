"""App screenshots of sudoku in progress, in light and dark themes: givens, the person's
digits and pencil notes read apart (gridsight/synth/app_screens.py draws them)."""

from __future__ import annotations

import numpy as np
import pytest

from gridsight.synth.app_screens import app_screen
from gridsight.synth.half_solved import NOTES
from services.recognizer import recognize
from tests.recognizer.conftest import to_bytes

KIND_OF = {"blank": 0, "given": 1, "entry": 2, "notes": 3}


def read_states(reading) -> tuple[np.ndarray, np.ndarray]:
    """(cell states 0 / 1-9 / NOTES, kind index) as the Reading gives them."""
    assert reading.cell_kinds is not None, "no cell kinds read"
    kind = np.asarray(reading.cell_kinds).argmax(-1)
    printed = np.asarray(reading.cells)[..., 1:].argmax(-1) + 1
    entry = np.asarray(reading.entries)[..., 1:].argmax(-1) + 1
    return np.select([kind == 0, kind == 1, kind == 2], [0, printed, entry], NOTES), kind


def truth_kinds(screen) -> np.ndarray:
    out = np.zeros((9, 9), int)
    out[np.array(screen.givens) > 0] = 1
    out[np.array(screen.entries) > 0] = 2
    for r, c in screen.notes:
        out[r, c] = 3
    return out


@pytest.mark.parametrize("seed, family, chrome", [
    (6_100_001, "dark", False), (6_100_002, "dark", True)])
def test_a_dark_theme_screenshot_in_progress_gets_its_pencil_notes_read(seed, family, chrome):
    """A dark theme's grid is read ink-dark, its cells' kinds as a light theme's are."""
    screen = app_screen(seed, family, chrome=chrome, notes_share=0.3)
    reading = recognize(to_bytes(screen.image), "auto")
    assert reading.kind == "sudoku"
    state, kind = read_states(reading)
    labels = np.array(screen.labels)
    assert (state == labels).mean() >= 0.95  # digits by value, notes, blanks
    truth = truth_kinds(screen)
    assert (kind[truth == 3] == 3).mean() >= 0.9
    assert (kind[truth == 0] == 0).all()


def test_a_tall_dark_phone_screenshot_whose_thin_lines_fade_when_shrunk_is_read_finer():
    """Shrunk by its long side to the working size, the grid of this tall screenshot has
    lines under a pixel wide and faint, and no grid is found; looked at again less shrunk
    it is read."""
    screen = app_screen(96, "dark", width=1280, chrome=True)
    reading = recognize(to_bytes(screen.image), "auto")
    assert "finer_decode" in reading.stages
    assert reading.kind == "sudoku"
    state, _ = read_states(reading)
    assert (state == np.array(screen.labels)).mean() >= 0.95


def test_a_small_web_capture_whose_faint_lines_break_up_is_read_enlarged():
    """A 607-px dark web page: its grid's lines are one faint pixel wide, and the outline
    cannot be followed all the way round at the picture's own size; enlarged to the
    working size it is, and every cell is read."""
    screen = app_screen(6_740_072, "sampled")
    assert max(screen.image.size) < 700
    reading = recognize(to_bytes(screen.image), "auto")
    assert "enlarged_decode" in reading.stages
    state, kind = read_states(reading)
    assert (state == np.array(screen.labels)).all()
    assert (kind == truth_kinds(screen)).all()
    assert tuple(reading.image_size) == screen.image.size


@pytest.mark.parametrize("seed", [110, 117, 120, 144])
def test_an_app_title_bar_just_above_the_grid_does_not_pull_its_top_line(seed):
    """A light theme's thin outer line a few pixels below the app's dark title bar: the
    grid's top line is traced along its own ink, not along the bar's edge (row 0's cells
    would take the bar's edge for pencil notes)."""
    screen = app_screen(seed, "light", chrome=True)
    reading = recognize(to_bytes(screen.image), "auto")
    truth = np.asarray(screen.image.info["lattice"], float)
    cell = (truth[0, -1, 0] - truth[0, 0, 0]) / 9
    top_left = np.asarray(reading.cell_quads, float)[0, :, 0]  # row 0's top-left corners
    assert np.abs(top_left - truth[0, :9]).max() <= 0.1 * cell
