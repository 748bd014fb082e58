"""The whole path: a rendered picture over HTTP → gateway → Redis → recognizer worker →
solver worker → job result, checked against the renderer's ground truth."""

from __future__ import annotations

import io
import json
import random

import numpy as np
import pytest

from gridsight.synth.photo import photograph
from gridsight.synth.puzzles import make_nonogram, make_sudoku
from gridsight.synth.render import render_sudoku
from tests.conftest import wait_for_job


def png(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


@pytest.mark.parametrize("seed, style", [(11, "screenshot"), (12, "app"), (13, "bold")])
def test_screenshot_is_solved_end_to_end(client, seed, style):
    givens, solution = make_sudoku(random.Random(seed))
    picture = png(render_sudoku(givens, style=style, seed=seed))

    response = client.post("/v1/jobs", files={"image": ("shot.png", picture, "image/png")},
                           data={"kind": "auto"})
    assert response.status_code == 202
    created = response.json()
    assert created["status"] == "queued"
    assert response.headers["location"] == f"/v1/jobs/{created['id']}"

    job = wait_for_job(client, created["id"])
    assert job["status"] == "solved", job.get("error") or job["result"]
    assert job["result"]["verdict"] == "unique"
    assert job["result"]["solution"] == solution
    assert job["result"]["puzzle"]["givens"] == givens
    cells = job["reading"]["cells"]
    assert len(cells) == 9 and all(abs(sum(p) - 1) < 1e-3 for row in cells for p in row)
    assert set(job["timings"]) >= {"recognize", "solve"}


@pytest.mark.parametrize("seed, curvature", [(14, 0.0), (15, 0.04)])
def test_phone_photo_is_solved_end_to_end(client, seed, curvature):
    """A photographed page (perspective, clutter, blur, light, JPEG; bent when curved)."""
    givens, solution = make_sudoku(random.Random(seed))
    page = render_sudoku(givens, style="newspaper", seed=seed, cell_px=44, jitter=0.04)
    photo, _ = photograph(page, rng=np.random.default_rng(seed), curvature=curvature,
                          fill=(0.6, 0.9))
    buffer = io.BytesIO()
    photo.convert("RGB").save(buffer, "JPEG", quality=88)

    response = client.post("/v1/jobs", files={"image": ("photo.jpg", buffer.getvalue(),
                                                        "image/jpeg")})
    job = wait_for_job(client, response.json()["id"])
    assert job["status"] in ("solved", "needs_review"), job.get("error")
    assert job["result"]["solution"] == solution
    assert job["reading"]["image_size"] == list(photo.size)


def test_typed_in_sudoku_goes_straight_to_the_solver(client):
    givens, solution = make_sudoku(random.Random(5))
    line = "".join(str(v or ".") for row in givens for v in row)
    response = client.post("/v1/jobs", content=line, headers={"content-type": "text/plain"})
    assert response.status_code == 202
    job = wait_for_job(client, response.json()["id"])
    assert job["status"] == "solved"
    assert job["result"]["solution"] == solution
    assert job["reading"] is None  # never went through the recognizer


def test_nonogram_json_is_solved(client):
    puzzle, picture = make_nonogram(random.Random(3), 8, 6)
    seed_style = {"Rows": ["_".join(map(str, r)) or "0" for r in puzzle.rows],
                  "Cols": ["_".join(map(str, c)) or "0" for c in puzzle.cols],
                  "kind": "nonogram"}
    response = client.post("/v1/jobs", content=json.dumps(seed_style),
                           headers={"content-type": "application/json"})
    job = wait_for_job(client, response.json()["id"])
    assert job["status"] in ("solved", "needs_review")
    solved = job["result"]["solution"]
    rows = [[len(run) for run in line.split(".") if run] for line in solved]
    cols = [[len(run) for run in "".join(col).split(".") if run] for col in zip(*solved)]
    assert rows == puzzle.rows and cols == puzzle.cols
    if job["result"]["verdict"] == "unique":
        assert solved == picture


def test_impossible_typed_in_puzzle_fails_with_a_reason(client):
    line = "11" + "." * 79  # two 1s in the first row
    response = client.post("/v1/jobs", content=line, headers={"content-type": "text/plain"})
    job = wait_for_job(client, response.json()["id"])
    assert job["status"] == "failed"
    assert job["result"]["verdict"] == "none"
    assert job["error"]


def test_unparseable_typed_in_puzzle_fails_with_a_reason(client):
    response = client.post("/v1/jobs", content="12345", headers={"content-type": "text/plain"})
    job = wait_for_job(client, response.json()["id"])
    assert job["status"] == "failed"
    assert job["error"] and "internal" not in job["error"]


def test_metrics_count_jobs_stages_and_requests(client):
    givens, _ = make_sudoku(random.Random(7))
    line = "".join(str(v or ".") for row in givens for v in row)
    job = wait_for_job(client, client.post("/v1/jobs", content=line, headers={
        "content-type": "text/plain"}).json()["id"])
    assert job["status"] == "solved"
    text = client.get("/metrics").text
    figures = {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1])
               for line in text.splitlines() if line and not line.startswith("#")}
    assert figures['gridsight_jobs_total{status="solved"}'] >= 1
    assert figures['gridsight_stage_seconds_count{stage="solve"}'] >= 1
    assert 'gridsight_queue_depth{queue="recognize"}' in figures
    assert figures['gridsight_http_requests_total{method="POST",route="/v1/jobs",'
                   'status="202"}'] >= 1
