"""Killer sudoku read from screenshots and photos, then solved after repair."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from gridsight.synth.killer_styles import STYLES
from gridsight.synth.render import render_sudoku
from services.contracts import Reading, SumCandidate
from services.recognizer import RecognitionError, recognize
from services.recognizer.killer.kind import LOOKS_KILLER
from services.solver import solve_reading

from .conftest import killer, photo, screenshot, sums_read, to_bytes, walls_read

CASES = [("app", 21), ("app", 22), ("web", 23), ("web", 24), ("colour", 26),
         ("print", 27), ("print", 28), ("dark", 29), ("dark", 30), ("fills", 31),
         ("fills", 32)]


class Readings(dict):
    """(reading, puzzle, solution, info) per (style, seed), each read when first asked for,
    so that a test process reads only the cases of the tests it runs."""

    def __missing__(self, case):
        style, seed = case
        data, puzzle, solution, info = screenshot(seed, style)
        self[case] = (recognize(data, "killer"), puzzle, solution, info)
        return self[case]


@pytest.fixture(scope="module")
def readings():
    """Each case read once per test process."""
    return Readings()


@pytest.mark.parametrize(("style", "seed"), CASES)
def test_screenshot_walls_sums_and_blanks_read_exactly(readings, style, seed):
    reading, _, _, info = readings[(style, seed)]
    assert reading.kind == "killer"
    right, down = walls_read(reading)
    assert (right == np.asarray(info["walls_right"])).all()
    assert (down == np.asarray(info["walls_down"])).all()
    assert sums_read(reading) == info["sums"]
    assert (np.asarray(reading.cells).argmax(axis=-1) == 0).all()


def test_walls_are_probabilities_not_flags(readings):
    reading, _, _, info = readings[("web", 23)]
    right = np.asarray(reading.walls_right)
    truth = np.asarray(info["walls_right"]).astype(bool)
    assert ((right > 0) & (right < 1)).all()
    assert right[truth].mean() > 0.9 and right[~truth].mean() < 0.1
    for s in reading.cage_sums:
        probs = [c.prob for c in s.candidates]
        assert probs == sorted(probs, reverse=True) and 0.98 < sum(probs) <= 1.0 + 1e-4


@pytest.mark.parametrize(("style", "seed"), [("app", 21), ("print", 27), ("dark", 29)])
def test_end_to_end_recognize_then_solve(readings, style, seed):
    reading, _, solution, _ = readings[(style, seed)]
    again = Reading.model_validate_json(reading.model_dump_json())
    result = solve_reading(again)
    assert result.solution == solution
    assert result.verdict == "unique"


def test_photographed_print_is_solved():
    data, _, solution, _ = photo(31)
    reading = recognize(data, "auto")
    assert reading.kind == "killer"
    assert solve_reading(reading).solution == solution


def _with_sum(reading: Reading, cell, candidates) -> Reading:
    fresh = [SumCandidate(**c) for c in candidates]
    sums = [s.model_copy(update={"candidates": fresh}) if tuple(s.cell) == cell else s
            for s in reading.cage_sums]
    return reading.model_copy(update={"cage_sums": sums})


def test_repair_fixes_a_misread_sum_and_names_it(readings):
    reading, _, solution, info = readings[("web", 24)]
    # A two-digit sum misread: 1 <-> 7 style confusion, the wrong value on top.
    cell, true_sum = next((c, s) for c, s in sorted(info["sums"].items()) if s >= 10)
    wrong = true_sum + 6 if true_sum + 6 <= 45 else true_sum - 6
    corrupted = _with_sum(reading, cell, [{"value": wrong, "prob": 0.7},
                                          {"value": true_sum, "prob": 0.3}])
    result = solve_reading(corrupted)
    assert result.solution == solution
    suspects = [(s.what, (s.row, s.col), s.read, s.chosen) for s in result.suspects]
    assert ("cage_sum", cell, wrong, true_sum) in suspects


def test_repair_finds_a_sum_read_as_unknown(readings):
    reading, _, solution, info = readings[("app", 22)]
    cell = sorted(info["sums"])[3]
    unknown = [{"value": v, "prob": 1 / 45} for v in range(1, 46)]
    result = solve_reading(_with_sum(reading, cell, unknown))
    assert result.solution == solution


def test_repair_finds_several_sums_read_as_unknown_quickly(readings):
    # Photos lose whole sums: six unread ones follow from the rest of the puzzle (the cage
    # sums total 405) well within a short time limit.
    reading, _, solution, info = readings[("app", 22)]
    unknown = [{"value": v, "prob": 1 / 45} for v in range(1, 46)]
    for cell in sorted(info["sums"])[::3][:6]:
        reading = _with_sum(reading, cell, unknown)
    result = solve_reading(reading, time_limit=3.0)
    assert result.solution == solution
    assert result.verdict == "unique"


def test_repair_fixes_a_misread_sum_beside_an_unread_one(readings):
    reading, _, solution, info = readings[("print", 27)]
    cells = sorted(c for c, s in info["sums"].items() if s >= 10)
    misread, unread = cells[0], cells[-1]
    true_sum = info["sums"][misread]
    wrong = true_sum + 10 if true_sum + 10 <= 45 else true_sum - 10  # a lost or added '1'
    reading = _with_sum(reading, misread, [{"value": wrong, "prob": 0.9},
                                           {"value": true_sum, "prob": 0.1}])
    reading = _with_sum(reading, unread, [{"value": v, "prob": 1 / 45} for v in range(1, 46)])
    result = solve_reading(reading, time_limit=3.0)
    assert result.solution == solution
    assert ("cage_sum", misread, wrong, true_sum) in [
        (s.what, (s.row, s.col), s.read, s.chosen) for s in result.suspects]


def test_a_thin_one_in_a_condensed_bold_face_is_read_with_the_whole_number():
    # In GilliusADF Bold Condensed the thin '1' of '11' at (2, 0) is not found as a digit
    # of its own: the digit reading alone made it '1' (the repair restored 11 and sent the
    # picture to review). The whole-number reader reads the number as found: 11.
    data, _, solution, info = screenshot(25, "colour")
    reading = recognize(data, "auto")
    sums = {tuple(s.cell): s.candidates[0].value for s in reading.cage_sums}
    assert sums[(2, 0)] == info["sums"][(2, 0)] == 11
    result = solve_reading(reading)
    assert result.solution == solution and result.status == "solved"


def test_repair_flips_a_doubtful_wall(readings):
    reading, _, solution, info = readings[("colour", 26)]
    truth = np.asarray(info["walls_right"])
    r, c = map(int, np.argwhere(truth == 0)[0])  # an open edge inside a cage
    right = np.asarray(reading.walls_right).copy()
    right[r, c] = 0.65  # read, doubtfully, as a wall
    result = solve_reading(reading.model_copy(update={"walls_right": right.tolist()}))
    assert result.solution == solution
    assert any(s.what == "wall_right" and (s.row, s.col) == (r, c) for s in result.suspects)


def test_auto_tells_killer_from_classic(readings):
    reading, *_ = readings[("app", 21)]
    data, *_ = screenshot(21, "app")
    auto = recognize(data, "auto")
    assert auto.kind == "killer" and auto.kind_confidence > 0.9
    assert reading.kind_confidence > 0.9
    givens, _ = _classic()
    classic = recognize(to_bytes(render_sudoku(givens, seed=2, cell_px=48)), "auto")
    assert classic.kind == "sudoku" and classic.kind_confidence > 0.9
    assert classic.walls_right is None and classic.cage_sums == []


@pytest.mark.parametrize("seed", [32, 33, 36])
def test_deeply_inset_dotted_cages_are_not_taken_for_givens(seed):
    # Dotted outlines well inside the cells join their sums into tall blobs that the digit
    # model reads as 1s: counted as givens, they made a killer look classic.
    dotted = replace(STYLES["web"], dash=0.02, gap=0.05, cage_width=0.03, inset=0.19)
    data, *_ = screenshot(seed, dotted, cell_px=59)
    assert recognize(data, "auto").kind == "killer"


def _classic():
    import random

    from gridsight.synth.puzzles import make_sudoku
    return make_sudoku(random.Random(5))


def test_classic_sent_as_killer_is_refused_clearly():
    givens, _ = _classic()
    with pytest.raises(RecognitionError, match="classic sudoku"):
        recognize(to_bytes(render_sudoku(givens, seed=4, cell_px=44, style="app")), "killer")


def test_killer_sent_as_sudoku_is_read_as_asked_with_a_warning():
    data, *_ = screenshot(21, "web")
    reading = recognize(data, "sudoku")
    assert reading.kind == "sudoku" and reading.warnings == [LOOKS_KILLER]


def test_unknown_kind_is_refused():
    data, *_ = screenshot(21, "web")
    with pytest.raises(RecognitionError, match="unknown puzzle kind"):
        recognize(data, "kakuro")
    assert killer(21)[0].kind == "killer"


def test_fills_under_a_highlight_band_do_not_replace_the_outlines():
    # Colour fills and outlines both drawn, a band across them: the band's edges change
    # the fills where no wall runs, and the outlines must still make the cages.
    banded = replace(STYLES["colour"], band=(215, 228, 250), selected=(175, 205, 250))
    data, _, solution, info = screenshot(34, banded, selected=(4, 4))
    reading = recognize(data, "auto")
    right, down = walls_read(reading)
    assert (right == np.asarray(info["walls_right"])).all()
    assert (down == np.asarray(info["walls_down"])).all()
    assert solve_reading(reading).solution == solution
