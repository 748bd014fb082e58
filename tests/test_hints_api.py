"""POST /v1/jobs/{id}/hint over HTTP with the real stack, and the difficulty of every
solved job: typed-in puzzles, a half-solved photo with a wrong digit, a killer."""

from __future__ import annotations

import io
import random
import time

from gridsight.synth.half_solved import half_solved_page
from gridsight.synth.puzzles import make_killer, make_sudoku
from tests.conftest import finished_job, wait_for_job

# AI Escargot: its rating walks two paths of seconds each
HARD = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."


def typed_job(client, document: dict, rated: bool = True) -> dict:
    response = client.post("/v1/jobs", json=document)
    assert response.status_code == 202, response.text
    job = wait_for_job(client, response.json()["id"])
    return wait_for_rating(client, job) if rated else job


def wait_for_rating(client, job: dict, seconds: float = 60.0) -> dict:
    """The job once its result has its difficulty (worked out after the answer)."""
    deadline = time.monotonic() + seconds
    while not job["result"].get("difficulty"):
        assert time.monotonic() < deadline, job
        time.sleep(0.1)
        job = client.get(f"/v1/jobs/{job['id']}").json()
    return job


def test_a_hard_puzzle_is_answered_before_its_rating_is_worked_out(client):
    givens = [[0 if ch == "." else int(ch) for ch in HARD[r * 9:r * 9 + 9]] for r in range(9)]
    job = typed_job(client, {"kind": "sudoku", "size": 9, "givens": givens}, rated=False)
    assert job["status"] == "solved"
    assert job["result"]["difficulty"] is None
    early = client.post(f"/v1/jobs/{job['id']}/hint")
    assert early.status_code == 409 and "not ready" in early.json()["title"], early.text
    job = wait_for_rating(client, job)
    assert job["status"] == "solved" and job["result"]["difficulty"]["steps"] > 0
    hint = client.post(f"/v1/jobs/{job['id']}/hint")
    assert hint.status_code == 200, hint.text
    assert hint.json()["rating"] == job["result"]["difficulty"]


def check_steps(steps, solution, start):
    """Every step against the solution; the placements fill what `start` leaves open."""
    placed = set()
    for step in steps:
        assert step["text"] and step["cells"]
        for p in step["placements"]:
            assert solution[p["row"]][p["col"]] == p["value"], step
            placed.add((p["row"], p["col"]))
        for e in step["eliminations"]:
            assert solution[e["row"]][e["col"]] != e["value"], step
    open_cells = {(r, c) for r, row in enumerate(start) for c, v in enumerate(row) if not v}
    assert placed == open_cells


def test_typed_in_sudoku_gets_a_difficulty_a_hint_and_the_whole_path(client):
    givens, solution = make_sudoku(random.Random(42), 9)
    job = typed_job(client, {"kind": "sudoku", "size": 9, "givens": givens})
    assert job["status"] == "solved"
    difficulty = job["result"]["difficulty"]
    assert difficulty["steps"] > 0 and difficulty["level"] in ("easy", "medium", "hard",
                                                                "expert", "extreme")
    one = client.post(f"/v1/jobs/{job['id']}/hint")
    assert one.status_code == 200, one.text
    body = one.json()
    assert len(body["steps"]) == 1 and body["remaining"] == difficulty["steps"]
    assert body["rating"] == difficulty and body["revision"] == 1
    whole = client.post(f"/v1/jobs/{job['id']}/hint", params={"all": "true"}).json()
    assert whole["steps"][0] == body["steps"][0]
    assert len(whole["steps"]) == difficulty["steps"]
    check_steps(whole["steps"], solution, givens)


def test_killer_job_hints_use_cage_techniques(client):
    puzzle, solution = make_killer(random.Random(5), 6)
    job = typed_job(client, puzzle.model_dump(mode="json"))
    assert job["status"] == "solved", job
    whole = client.post(f"/v1/jobs/{job['id']}/hint?all=true").json()
    assert "cage combinations" in {s["technique"] for s in whole["steps"]}
    check_steps(whole["steps"], solution, [[0] * 6 for _ in range(6)])


def test_half_solved_photo_names_the_wrong_entry_first(client):
    page = half_solved_page(31, wrong=1, entry_share=0.3)
    buffer = io.BytesIO()
    page.image.save(buffer, "PNG")
    job = wait_for_rating(client, finished_job(client, "page.png", buffer.getvalue()))
    result = job["result"]
    assert result["wrong_entries"], result
    assert result["difficulty"]["steps"] > 0
    first = client.post(f"/v1/jobs/{job['id']}/hint").json()["steps"][0]
    wrong = result["wrong_entries"][0]
    assert first["technique"] == "wrong entry"
    assert first["cells"] == [[wrong["row"], wrong["col"]]]
    whole = client.post(f"/v1/jobs/{job['id']}/hint?all=true").json()["steps"]
    # after the wrong digits, the path starts from the givens plus the right entries
    start = [[g or (e if e == s else 0) for g, e, s in zip(gr, er, sr, strict=True)]
             for gr, er, sr in zip(result["puzzle"]["givens"], result["entries"],
                                   result["solution"], strict=True)]
    rest = [s for s in whole if s["technique"] != "wrong entry"]
    check_steps(rest, result["solution"], start)


def test_hint_refused_for_nonograms_and_unknown_jobs(client):
    job = typed_job(client, {"kind": "nonogram", "rows": [[1], [1]], "cols": [[1], [1]]},
                    rated=False)
    response = client.post(f"/v1/jobs/{job['id']}/hint")
    assert response.status_code == 409 and "sudoku" in response.json()["detail"]
    assert client.post("/v1/jobs/" + "A" * 24 + "/hint").status_code == 404


def test_hint_refused_for_a_puzzle_with_two_solutions(client):
    givens = [[0] * 4 for _ in range(4)]
    job = typed_job(client, {"kind": "sudoku", "size": 4, "givens": givens}, rated=False)
    assert job["result"]["verdict"] == "multiple" and job["result"]["difficulty"] is None
    response = client.post(f"/v1/jobs/{job['id']}/hint")
    assert response.status_code == 409 and "one solution" in response.json()["detail"]
