"""The queues, with real workers: lanes by expected cost (a picture never waits behind
slow typed-in puzzles, which are solved on queues of their own), and /healthz telling
which queues have a live worker."""

from __future__ import annotations

import os
import random
import signal
import time

import httpx
import pytest

from gridsight.stack import Stack
from gridsight.synth.puzzles import make_nonogram, make_sudoku
from gridsight.synth.render import render_sudoku
from tests.conftest import wait_for_job, wait_until_healthy
from tests.test_end_to_end import png

SOLVE_SECONDS = 2  # each slow nonogram searches this long, then ends `failed`
SLOW_PUZZLES = 5


@pytest.fixture(scope="module")
def lanes_service():
    env = {"GRIDSIGHT_SOLVE_SECONDS": str(SOLVE_SECONDS), "GRIDSIGHT_JOBS_PER_MINUTE": "0",
           "GRIDSIGHT_READS_PER_MINUTE": "0"}
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        with Stack() as stack:
            base = stack.start_service(prefer="redis-server")
            wait_until_healthy(base, workers=True)
            with httpx.Client(base_url=base, timeout=30) as http:
                yield http, stack


def picture_seconds(http: httpx.Client, seed: int) -> float:
    givens, solution = make_sudoku(random.Random(seed))
    picture = png(render_sudoku(givens, style="screenshot", seed=seed))
    started = time.monotonic()
    created = http.post("/v1/jobs", files={"image": ("s.png", picture, "image/png")})
    assert created.status_code == 202
    job = wait_for_job(http, created.json()["id"])
    assert job["status"] == "solved" and job["result"]["solution"] == solution
    return time.monotonic() - started


def test_a_picture_does_not_wait_behind_slow_typed_in_puzzles(lanes_service):
    http, _ = lanes_service
    picture_seconds(http, 70)  # the workers' first task loads their models
    idle = picture_seconds(http, 71)
    slow = []
    for seed in range(SLOW_PUZZLES):
        puzzle, _ = make_nonogram(random.Random(seed + 5), 60, 60)
        response = http.post("/v1/jobs", json=puzzle.model_dump(mode="json"))
        assert response.status_code == 202
        slow.append(response.json()["id"])
    deadline = time.monotonic() + 30
    while http.get(f"/v1/jobs/{slow[0]}").json()["status"] != "solving":
        assert time.monotonic() < deadline, "the slow puzzles never started"
        time.sleep(0.05)
    behind = picture_seconds(http, 72)
    print(f"picture alone {idle:.2f} s, behind {SLOW_PUZZLES} slow typed-in puzzles {behind:.2f} s")
    # On one shared queue the picture's solve would wait for all of them (10 s).
    assert behind <= idle + 2, (idle, behind)
    states = [http.get(f"/v1/jobs/{job_id}").json()["status"] for job_id in slow]
    assert states.count("queued") >= SLOW_PUZZLES - 2, states  # they were still there


def seconds_until(http: httpx.Client, status: int, limit: float = 20.0) -> tuple[float, dict]:
    started = time.monotonic()
    while True:
        response = http.get("/healthz")
        if response.status_code == status:
            return time.monotonic() - started, response.json()
        assert time.monotonic() - started < limit, response.json()
        time.sleep(0.2)


def test_health_names_a_queue_whose_worker_is_frozen_or_gone(lanes_service):
    http, stack = lanes_service
    healthy = http.get("/healthz")
    assert healthy.status_code == 200, healthy.json()
    assert all(q["workers"] == 1 for q in healthy.json()["queues"].values())
    frozen = stack.workers["recognize"]
    os.kill(frozen.pid, signal.SIGSTOP)
    try:
        seconds, body = seconds_until(http, 503)
        print(f"/healthz 503 {seconds:.1f} s after the picture worker froze")
        assert seconds <= 10 and body["unserved"] == ["recognize"], body
        assert body["queues"]["recognize"]["workers"] == 0
    finally:
        os.kill(frozen.pid, signal.SIGCONT)
    seconds_until(http, 200)
    gone = stack.workers["solve-large"]
    gone.terminate()
    gone.wait(timeout=30)
    seconds, body = seconds_until(http, 503)
    assert seconds <= 10 and body["unserved"] == ["solve-large"], body
