"""A killer in progress over HTTP: gateway -> Redis -> recognizer worker -> solver worker.
The cages are solved, and the person's digits, notes and wrong digit come back."""

from __future__ import annotations

import io
import random

from gridsight.synth.killer_render import in_progress, render_killer
from gridsight.synth.puzzles import make_killer
from tests.conftest import wait_for_job


def test_killer_in_progress_lists_entries_notes_and_the_wrong_digit(client):
    puzzle, solution = make_killer(random.Random(41))
    marks = in_progress(solution, random.Random(2), entry_share=0.4, notes_share=0.15, wrong=1)
    buffer = io.BytesIO()
    render_killer(puzzle, style="app", seed=41, cell_px=56, marks=marks).save(buffer, "PNG")
    response = client.post("/v1/jobs", files={"image": ("killer.png", buffer.getvalue(),
                                                        "image/png")}, data={"kind": "auto"})
    assert response.status_code == 202
    job = wait_for_job(client, response.json()["id"])
    result = job["result"]
    assert job["reading"]["kind"] == "killer"
    assert job["status"] == "solved", result
    assert result["solution"] == solution
    assert result["entries"] == marks.entries
    assert sorted(map(tuple, result["notes"])) == sorted(marks.notes)
    (r, c) = next((r, c) for r in range(9) for c in range(9)
                  if marks.entries[r][c] and marks.entries[r][c] != solution[r][c])
    assert [(w["row"], w["col"], w["written"], w["correct"]) for w in result["wrong_entries"]] \
        == [(r, c, marks.entries[r][c], solution[r][c])]
