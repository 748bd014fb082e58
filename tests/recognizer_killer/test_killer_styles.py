"""Issue 14: renderer styles modelled on other apps and sites, and the held-out sets."""

from __future__ import annotations

import random

import numpy as np
import pytest

from gridsight.synth.fonts import SERIF_FAMILIES, digit_fonts, font_family
from gridsight.synth.killer_render import (
    ALL_STYLES,
    NEW_STYLES,
    TRAINED_STYLES,
    UNSEEN_STYLES,
    is_bold,
    on_page,
    pick_sum_font,
    render_killer,
    vary,
)
from gridsight.training.sums import sample_killer

from .conftest import killer


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
