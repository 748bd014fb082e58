"""Renderer styles modelled on other apps and sites, and the held-out sets."""

from __future__ import annotations

import random
from dataclasses import replace

import cv2
import numpy as np
import pytest

from gridsight.synth.fonts import SERIF_FAMILIES, digit_fonts, font_family
from gridsight.synth.killer_render import (
    is_bold,
    lining_figures,
    on_page,
    pick_sum_font,
    render_killer,
    widen,
)
from gridsight.synth.killer_styles import (
    ALL_STYLES,
    NEW_STYLES,
    TRAINED_STYLES,
    UNSEEN_STYLES,
    vary,
)
from gridsight.training.sums import sample_killer
from services.recognizer import recognize
from services.recognizer.killer.fills import coloured_line_walls
from services.solver import solve_reading

from .conftest import killer, screenshot, sums_read, walls_read


def test_five_new_styles_two_of_them_never_trained():
    assert len(NEW_STYLES) + len(UNSEEN_STYLES) >= 5
    assert len(UNSEEN_STYLES) >= 2
    assert not set(UNSEEN_STYLES) & set(TRAINED_STYLES)
    assert set(NEW_STYLES) <= set(TRAINED_STYLES)
    # The training sampler draws from the trained styles only.
    drawn = {sample_killer(seed)[2]["style"] for seed in range(3)}
    assert drawn <= set(TRAINED_STYLES)


@pytest.mark.parametrize("style", sorted(NEW_STYLES | UNSEEN_STYLES))
def test_new_styles_draw_with_ground_truth(style):
    puzzle, _ = killer(11)
    image = render_killer(puzzle, style=vary(ALL_STYLES[style], random.Random(2)), seed=3,
                          cell_px=48)
    assert np.asarray(image.info["lattice"]).shape == (10, 10, 2)
    assert sum(image.info["sums"].values()) == 405


def test_textured_ground_has_grain():
    puzzle, _ = killer(11)
    plain = np.asarray(render_killer(puzzle, style="web", seed=1, cell_px=50).convert("L"))
    grainy = np.asarray(render_killer(puzzle, style="textured", seed=1, cell_px=50)
                        .convert("L")).astype(float)
    # Inside one cell, away from lines and sums: flat on plain paper, grainy here.
    patch = (slice(25 + 50 * 4 + 20, 25 + 50 * 4 + 40),) * 2
    assert plain[patch].std() < 1.0
    assert grainy[patch].std() > 4.0


def test_boundaries_in_another_colour_lie_on_the_grid_lines():
    puzzle, _ = killer(13)
    image = render_killer(puzzle, style="edge_colour", seed=1, cell_px=60, margin=30)
    rgb = np.asarray(image).astype(int)
    red = (rgb[..., 0] > 150) & (rgb[..., 1] < 110) & (rgb[..., 2] < 110)
    right = np.asarray(image.info["walls_right"])
    for r in range(9):
        for c in range(8):
            x = 30 + 60 * (c + 1)
            y0, y1 = 30 + 60 * r + 15, 30 + 60 * (r + 1) - 15
            assert red[y0:y1, x - 1:x + 2].any(axis=1).all() == bool(right[r, c]), (r, c)


def test_thin_coloured_cage_lines_are_solid():
    puzzle, _ = killer(13)
    look = ALL_STYLES["thin_colour"]
    image = render_killer(puzzle, style=look, seed=1, cell_px=60, margin=30)
    rgb = np.asarray(image).astype(int)
    blue = (rgb[..., 2] - rgb[..., 0] > 80)
    right = np.asarray(image.info["walls_right"])
    inset = round(look.inset * 60)
    r, c = map(int, np.argwhere(right == 1)[0])
    x = 30 + 60 * (c + 1) - inset
    column = blue[30 + 60 * r + 20:30 + 60 * (r + 1) - 20, x - 2:x + 3].any(axis=1)
    assert column.all()  # no dash gaps


def test_bold_serif_sums_use_bold_serif_faces():
    puzzle, _ = killer(11)
    for seed in range(4):
        path = render_killer(puzzle, style="bold_serif", seed=seed, cell_px=40).info["sum_font"]
        name = next(n for n, p in digit_fonts() if p == path)
        assert font_family(name) in SERIF_FAMILIES and is_bold(name)


def test_fonts_of_held_out_families_are_never_picked():
    families = sorted({font_family(n) for n, _ in digit_fonts()})
    held = frozenset(families[::2])
    rng = random.Random(0)
    for _ in range(200):
        path = pick_sum_font(ALL_STYLES["web"], rng, held)
        assert font_family(next(n for n, p in digit_fonts() if p == path)) not in held


def test_small_grid_inside_a_page_keeps_its_lattice():
    puzzle, _ = killer(11)
    grid = render_killer(puzzle, style="web", seed=1, cell_px=40)
    page = on_page(grid, random.Random(3))
    area = grid.width * grid.height / (page.width * page.height)
    assert 0.07 < area < 0.13
    moved = np.asarray(page.info["lattice"]) - np.asarray(grid.info["lattice"])
    assert np.ptp(moved[..., 0]) == 0 and np.ptp(moved[..., 1]) == 0
    x0, y0 = map(int, moved[0, 0])
    assert np.array_equal(np.asarray(page)[y0:y0 + grid.height, x0:x0 + grid.width],
                          np.asarray(grid))


def test_old_style_figures_and_keycap_faces_are_not_used_for_sums():
    names = {n: p for n, p in digit_fonts()}
    assert not lining_figures(names["FanwoodText"])  # '1' as short as an 'x'
    assert lining_figures(names["DejaVuSans"])
    rng = random.Random(0)
    picked = {pick_sum_font(ALL_STYLES["print"], rng) for _ in range(300)}
    assert names["FanwoodText"] not in picked
    assert "LinBiolinum_K" not in names  # keycap faces are no digit fonts at all


# --- Reading the new styles (the two unseen ones were never trained on) -----------------

READ_CASES = [("textured", 41), ("bold_serif", 42), ("edge_colour", 43), ("plain", 44),
              ("thin_colour", 45)]


@pytest.mark.parametrize(("style", "seed"), READ_CASES)
def test_new_styles_are_read_and_solved(style, seed):
    data, _, solution, info = screenshot(seed, style, cell_px=55)
    reading = recognize(data, "auto")
    assert reading.kind == "killer"
    right, down = walls_read(reading)
    assert (right == np.asarray(info["walls_right"])).all()
    assert (down == np.asarray(info["walls_down"])).all()
    assert sums_read(reading) == info["sums"]
    assert (np.asarray(reading.cells).argmax(axis=-1) == 0).all()
    result = solve_reading(reading)
    assert result.solution == solution
    if style in TRAINED_STYLES:
        assert result.status == "solved"
    else:  # an unseen style may leave a sum in doubt: a person confirms it
        assert result.status in ("solved", "needs_review")


def test_boundaries_in_another_colour_are_read_from_their_colour():
    # In grey the red boundaries look like the grid's own lines: the outline reader alone
    # finds almost no walls, and the grid would pass for a classic one.
    data, _, _, info = screenshot(43, "edge_colour", cell_px=55)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    lattice = np.asarray(info["lattice"], float)
    walls = coloured_line_walls(image, lattice)
    assert walls is not None
    assert ((walls[0] >= 0.5) == np.asarray(info["walls_right"])).all()
    assert ((walls[1] >= 0.5) == np.asarray(info["walls_down"])).all()
    web, _, _, web_info = screenshot(43, "web", cell_px=55)
    grey = cv2.imdecode(np.frombuffer(web, np.uint8), cv2.IMREAD_COLOR)
    assert coloured_line_walls(grey, np.asarray(web_info["lattice"], float)) is None


def test_textured_ground_is_not_read_as_digits():
    data, _, _, _ = screenshot(41, "textured", cell_px=55)
    reading = recognize(data, "killer")
    assert (np.asarray(reading.cells).argmax(axis=-1) == 0).all()


def test_training_sets_some_sums_tight_so_their_digits_touch():
    looks = [widen(vary(TRAINED_STYLES["web"], random.Random(k)), random.Random(k))
             for k in range(60)]
    tight = [look for look in looks if look.sum_tracking < 0]
    assert 5 <= len(tight) <= 40
    # Set tight, a two-digit sum is one blob of ink.
    puzzle, _ = killer(11)
    look = vary(ALL_STYLES["web"], random.Random(2))
    for tracking, touching in ((0.0, False), (-0.14, True)):
        image = render_killer(puzzle, style=replace(look, sum_tracking=tracking, outline=False,
                                                    sum_box=False, band=None, selected=None),
                              seed=3, cell_px=60, margin=0,
                              sum_font="RobotoCondensed-Bold")
        (r, c), total = max(image.info["sums"].items(), key=lambda kv: kv[1])
        assert total >= 10
        gray = np.asarray(image.convert("L"))
        corner = gray[60 * r + 6:60 * r + 30, 60 * c + 6:60 * c + 50] < 128
        count = cv2.connectedComponents(corner.astype(np.uint8), connectivity=8)[0] - 1
        assert (count == 1) == touching, (tracking, count)


def test_training_sets_some_sums_large_and_some_highlights_blue():
    looks = [widen(vary(TRAINED_STYLES["web"], random.Random(k)), random.Random(k))
             for k in range(80)]
    large = [look for look in looks if look.sum_height >= 0.25]
    assert 5 <= len(large) <= 40
    assert all(look.sum_height <= 0.35 and look.sum_box for look in large)
    blue = [look for look in looks if look.band and look.band[2] - look.band[0] >= 15]
    assert 5 <= len(blue) <= 40

