"""A printed killer a person wrote on by hand (digits in a dark pen, a row of pencil notes,
one digit wrong), posted over HTTP: gateway -> Redis -> recognizer worker -> solver worker.
The cages are solved from the print; the person's digits and notes come back as such,
none of them as givens, and the wrong digit is named."""

from __future__ import annotations

import io
import random

from gridsight.synth.killer_render import in_progress, render_killer
from gridsight.synth.puzzles import make_killer
from tests.conftest import wait_for_job


def test_a_killer_written_on_by_hand_lists_entries_notes_and_the_wrong_digit(client):
    puzzle, solution = make_killer(random.Random(41))
    marks = in_progress(solution, random.Random(42), entry_share=0.35, notes_share=0.12,
                        wrong=1)
    buffer = io.BytesIO()
    render_killer(puzzle, style="print", seed=41, cell_px=60, marks=marks,
                  by_hand=True).save(buffer, "PNG")
    response = client.post("/v1/jobs", files={"image": ("killer.png", buffer.getvalue(),
                                                        "image/png")}, data={"kind": "auto"})
    assert response.status_code == 202
    job = wait_for_job(client, response.json()["id"])
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
