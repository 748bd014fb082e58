"""A killer in progress over HTTP: gateway -> Redis -> recognizer worker -> solver worker.
The cages are solved from the print, the person's digits and notes come back as such
(none of them as givens), and the wrong digit is named: in an app's screenshot (entries
in a colour of their own) and on a printed killer written on by hand (a dark pen's
digits and a row of pencil notes)."""

from __future__ import annotations

import io
import random

import pytest

from gridsight.synth.killer_render import in_progress, render_killer
from gridsight.synth.puzzles import make_killer
from tests.conftest import finished_job

CASES = {
    "app screenshot": dict(marks_seed=2, entry_share=0.4, notes_share=0.15,
                           style="app", cell_px=56, by_hand=False),
    "print written on by hand": dict(marks_seed=42, entry_share=0.35, notes_share=0.12,
                                     style="print", cell_px=60, by_hand=True),
}


@pytest.mark.parametrize("case", CASES)
def test_killer_in_progress_lists_entries_notes_and_the_wrong_digit(client, case):
    spec = CASES[case]
    puzzle, solution = make_killer(random.Random(41))
    marks = in_progress(solution, random.Random(spec["marks_seed"]),
                        entry_share=spec["entry_share"], notes_share=spec["notes_share"],
                        wrong=1)
    buffer = io.BytesIO()
    render_killer(puzzle, style=spec["style"], seed=41, cell_px=spec["cell_px"], marks=marks,
                  by_hand=spec["by_hand"]).save(buffer, "PNG")
    job = finished_job(client, "killer.png", buffer.getvalue(), kind="auto")
    result = job["result"]
    assert job["reading"]["kind"] == "killer"
    assert job["status"] == "solved", result
    assert result["solution"] == solution
    assert not any(map(any, result["puzzle"]["givens"] or [[0]]))  # the person's: no givens
    assert result["entries"] == marks.entries
    assert sorted(map(tuple, result["notes"])) == sorted(marks.notes)
    (r, c) = next((r, c) for r in range(9) for c in range(9)
                  if marks.entries[r][c] and marks.entries[r][c] != solution[r][c])
    assert [(w["row"], w["col"], w["written"], w["correct"]) for w in result["wrong_entries"]] \
        == [(r, c, marks.entries[r][c], solution[r][c])]
