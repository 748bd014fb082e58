"""Screenshots' cells read by the screens' own cell-kind model (cells/kinds.py's
SCREEN_MODEL_PATH, scripts/train_screen_kinds.py): the gate that sends a grid to it
(print_look.rendered), its colour features, and the shipped artefact's floor on app
screenshots of every theme family, the held-out one too, at seeds training never uses."""

from __future__ import annotations

import io
import random

import cv2
import numpy as np
import pytest

from gridsight.synth.app_screens import FAMILIES, HELD_OUT_FAMILY, app_screen
from gridsight.synth.half_solved import half_solved_page
from gridsight.synth.photo import photograph
from services.recognizer import recognize
from services.recognizer.cells.ink import (
    COLOUR_FEATURES,
    FAINT_FEATURES,
    faint_ink_features,
    ink_colour_features,
    ink_tones,
)
from services.recognizer.cells.kinds import CELL, SCREEN_MODEL_PATH, load_kind_model
from services.recognizer.cells.print_look import rendered
from services.recognizer.grid.decode import decode, decode_colour
from services.recognizer.grid.straighten import straighten
from tests.recognizer.test_app_screens import read_states, truth_kinds


def encoded(image, form: str) -> bytes:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, form, **({"quality": 85} if form == "JPEG" else {}))
    return buffer.getvalue()


def looked_at(data: bytes, lattice) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """rendered()'s arguments for a picture whose grid is at `lattice` (its pixels)."""
    gray, scale, _ = decode(data)
    lattice = np.asarray(lattice, float) / scale
    return gray, lattice, straighten(decode_colour(data, gray.shape), lattice, CELL)


@pytest.mark.parametrize("form", ["PNG", "JPEG"])
def test_a_screenshot_is_rendered_and_its_photograph_is_not(form):
    screen = app_screen(6_200_001, "light", chrome=False)
    assert rendered(*looked_at(encoded(screen.image, form), screen.image.info["lattice"]))
    photo, truth = photograph(screen.image, rng=6_200_001)
    assert not rendered(*looked_at(encoded(photo, "JPEG"), truth.lattice))


def test_a_screenshot_of_large_bold_digits_is_rendered():
    # Its big digits' joins and bowls once stayed dark after the paper's closing, so
    # several cells looked shaded and the grid went to the photos' model.
    screen = app_screen(361, "sampled")
    assert "screen_kinds" in recognize(encoded(screen.image, "PNG")).stages


def test_a_flat_page_with_a_shadows_edge_across_is_no_screen():
    page = half_solved_page(130, light_pencil=True, entry_share=0.5, shadow_edges=1)
    assert not rendered(*looked_at(encoded(page.image, "PNG"), page.image.info["lattice"]))


def test_the_persons_coloured_digits_stand_apart_from_the_givens_in_ink():
    screen = app_screen(6_200_002, "light", chrome=False, entry_share=0.4)
    colour = cv2.cvtColor(np.asarray(screen.image.convert("RGB")), cv2.COLOR_RGB2BGR)
    features = ink_colour_features(ink_tones(
        straighten(colour, np.asarray(screen.image.info["lattice"], float), CELL)))
    assert features.shape == (81, COLOUR_FEATURES)
    kinds = truth_kinds(screen).ravel()
    apart = features[:, -2]  # from the page's most neutral ink
    assert apart[kinds == 2].min() > apart[kinds == 1].max()
    assert (features[kinds == 0, -1] == 0).all() and (features[kinds > 0, -1] == 1).all()


def test_the_shipped_screen_model_loads_with_its_colour_columns():
    model = load_kind_model(SCREEN_MODEL_PATH)
    assert SCREEN_MODEL_PATH.exists() and model.colour and model.hand is None
    members = model.network if isinstance(model.network, tuple) else (model.network,)
    assert len(members) == model.info.get("members", 1)
    assert all(net.coefs_[-1].shape[1] == 20 for net in members)


def test_faint_ink_tells_hairline_candidates_from_a_blank_cell_and_a_line_edge():
    """A candidate lighter than the stroke level still shows in the faint ink features; a
    blank cell shows none, nor does one whose inset a grid line's edge crosses (a
    lattice a little off)."""
    gray = np.full((9 * CELL, 9 * CELL), 255, np.uint8)
    gray[::CELL, :] = 0
    gray[:, ::CELL] = 0
    gray[5 * CELL + 10:5 * CELL + 18, 12:14] = 190  # a hairline '1' in cell (5, 0)
    gray[CELL + 6, CELL:2 * CELL] = 120  # an edge across cell (1, 1)
    features = faint_ink_features(gray)
    assert features.shape == (81, FAINT_FEATURES)
    assert (features[45] > 0).all()
    assert (features[0] == 0).all() and (features[10] == 0).all()


@pytest.fixture(scope="module")
def family_reads() -> dict[str, tuple[float, int, int]]:
    """Per family: (share of cell states right, screenshots read wholly right, count)."""
    out = {}
    for i, family in enumerate(FAMILIES):
        right = perfect = 0
        count = 4
        for k in range(count):
            screen = app_screen(6_300_000 + 100 * i + k, family,
                                chrome=random.Random(k).random() < 0.5)
            reading = recognize(encoded(screen.image, "JPEG" if k == 3 else "PNG"), "auto")
            assert "screen_kinds" in reading.stages
            state, kind = read_states(reading)
            good = (state == np.array(screen.labels)) & (kind == truth_kinds(screen))
            right += int(good.sum())
            perfect += bool(good.all())
        out[family] = (right / (81 * count), perfect, count)
    return out


@pytest.mark.parametrize("family", FAMILIES)
def test_app_screenshots_of_every_family_are_read_cell_by_cell(family, family_reads):
    share, perfect, count = family_reads[family]
    floor = 0.97 if family == HELD_OUT_FAMILY else 0.975
    assert share >= floor, (family, share)
    assert perfect >= count // 2, (family, perfect)


def test_a_screenshots_few_digits_in_an_ink_of_their_own_are_the_persons():
    """Six of the person's digits, two of them wrong, in an ink apart from the print: on a
    screen that is the person's writing however few they are, the mistakes named."""
    from services.solver import solve_page

    named = 0
    for seed in range(100, 104):
        page = half_solved_page(seed, wrong=2, entry_share=0.1, notes_share=0.0)
        reading = recognize(encoded(page.image, "PNG"), "sudoku")
        assert "screen_kinds" in reading.stages
        kind = np.asarray(reading.cell_kinds).argmax(-1)
        assert ((np.array(page.entries) > 0) == (kind == 2)).all()
        result = solve_page(reading)
        assert result.solution == page.solution
        listed = {(w.row, w.col, w.written, w.correct) for w in result.wrong_entries}
        doubtful = {(u.row, u.col, u.read, u.chosen) for u in result.uncertain}
        assert set(page.wrong) <= listed | doubtful
        named += set(page.wrong) <= listed
    assert named >= 3


def test_the_persons_digits_in_a_colour_near_the_grounds_grey_are_read_by_value():
    """Magenta entries on a dark ground: their grey stands so near the ground's that the
    picture-wide digit reading takes them for blank cells; read at each cell's own
    contrast, every one keeps its value."""
    dark = {"grounds": (28, 28, 28), "pages": (24, 24, 24), "givens": (235, 235, 235),
            "entries": (205, 20, 190), "bands": (48, 48, 48), "same": (56, 56, 56),
            "selected": (80, 50, 60), "notes": (110, 140, 110), "lines": (85, 85, 85),
            "box_lines": (150, 150, 120)}
    for seed in (300, 301):
        screen = app_screen(seed, "sampled", recolour=dark, entry_share=0.5)
        reading = recognize(encoded(screen.image, "PNG"), "auto")
        state, kind = read_states(reading)
        entries = np.array(screen.entries) > 0
        assert (kind[entries] == 2).all()
        assert (state[entries] == np.array(screen.entries)[entries]).all()
