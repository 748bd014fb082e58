"""Every job ends, even when Redis restarts or dies under it, or a worker vanishes with
its task. Real processes: a restartable redis-server with its
append-only file, the gateway and the workers."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time

import httpx
import pytest

from gridsight.stack import ROOT, Stack, worker_command
from gridsight.synth.puzzles import make_nonogram
from gridsight.synth.render import render_sudoku
from services.contracts import SOLVE_LARGE_QUEUE
from tests.test_delivery import PersistentRedis, pool_children, post_text, typed_in
from tests.test_end_to_end import png

FINAL = {"solved", "needs_review", "failed"}


@pytest.fixture()
def restartable(request, tmp_path, monkeypatch):
    """Gateway and workers over a Redis the test may stop, kill and start again; short
    limits so that the sweep acts within seconds (a test's `limits` mark changes them)."""
    server = PersistentRedis(tmp_path)
    server.start()
    limits = request.node.get_closest_marker("limits")
    for name, value in {"REDIS_URL": server.url, "GRIDSIGHT_SOLVE_SECONDS": "3",
                        "GRIDSIGHT_RECOGNIZE_SECONDS": "20",
                        "GRIDSIGHT_STALL_GRACE_SECONDS": "2", "GRIDSIGHT_SWEEP_SECONDS": "1",
                        "GRIDSIGHT_JOBS_PER_MINUTE": "0",
                        "GRIDSIGHT_READS_PER_MINUTE": "0",
                        "GRIDSIGHT_HEARTBEAT_FILE": str(tmp_path / "alive"),
                        **(limits.kwargs if limits else {})}.items():
        monkeypatch.setenv(name, value)
    with Stack() as stack:
        base = stack.start_service()
        with httpx.Client(base_url=base, timeout=10) as http:
            yield server, stack, http
    if server.process.poll() is None:
        server.process.terminate()
        server.process.wait()


def job_state(http: httpx.Client, job_id: str) -> dict | None:
    """The job, or None while the gateway cannot reach Redis (503)."""
    try:
        response = http.get(f"/v1/jobs/{job_id}")
    except httpx.TransportError:
        return None
    return response.json() if response.status_code == 200 else None


def wait_for_end(http: httpx.Client, job_ids: list[str], seconds: float) -> dict[str, dict]:
    deadline, ended, last = time.monotonic() + seconds, {}, {}
    while len(ended) < len(job_ids):
        for job_id in job_ids:
            if job_id not in ended:
                job = job_state(http, job_id)
                if job is not None:
                    last[job_id] = job["status"]
                    if job["status"] in FINAL:
                        ended[job_id] = job
        if time.monotonic() > deadline:
            stuck = {j: last.get(j) for j in job_ids if j not in ended}
            raise AssertionError(f"{len(stuck)} jobs never ended: {stuck}")
        time.sleep(0.2)
    return ended


def slow_nonogram(http: httpx.Client) -> str:
    """A random 200x200 nonogram, whose solve runs to its time limit; started solving."""
    puzzle, _ = make_nonogram(random.Random(5), 200, 200)
    job_id = http.post("/v1/jobs", json=puzzle.model_dump(mode="json")).json()["id"]
    deadline = time.monotonic() + 60
    while (job_state(http, job_id) or {}).get("status") != "solving":
        assert time.monotonic() < deadline, "the nonogram never started solving"
        time.sleep(0.02)
    return job_id


def post_picture(http: httpx.Client, seed: int) -> str:
    from gridsight.synth.puzzles import make_sudoku

    givens, _ = make_sudoku(random.Random(seed))
    picture = png(render_sudoku(givens, style="screenshot", seed=seed))
    response = http.post("/v1/jobs", files={"image": ("shot.png", picture, "image/png")})
    assert response.status_code == 202
    return response.json()["id"]


def test_jobs_in_flight_when_redis_restarts_or_dies_all_end(restartable):
    server, _, http = restartable
    expected = {}
    for seed in range(70, 76):
        text, solution = typed_in(seed)
        expected[post_text(http, text)] = solution
    pictures = [post_picture(http, seed) for seed in (80, 81, 82)]
    # A solve in flight finishes while Redis is away: its outcome must still be stored.
    stopped_under = slow_nonogram(http)
    server.stop()  # redis-cli shutdown
    time.sleep(3)
    server.start()
    killed_under = slow_nonogram(http)
    for seed in range(90, 94):
        text, solution = typed_in(seed)
        expected[post_text(http, text)] = solution
    server.process.kill()  # kill -9
    server.process.wait()
    time.sleep(1)
    server.start()

    ended = wait_for_end(http, [*expected, *pictures, stopped_under, killed_under], 60)
    for job_id, solution in expected.items():
        assert ended[job_id]["status"] == "solved", ended[job_id]
        assert ended[job_id]["result"]["solution"] == solution
    for job_id in pictures:
        assert ended[job_id]["status"] == "solved", ended[job_id]
    for job_id in (stopped_under, killed_under):
        assert ended[job_id]["result"]["verdict"] in ("unknown", "multiple"), ended[job_id]


def test_a_job_whose_worker_vanished_is_swept_and_ends(restartable):
    """The whole worker (main process and pool) dies mid-solve: Redis would hand its
    message out again only after the visibility timeout (900 s). The sweep queues the job
    again once its stage outlived the task's hard limit (3 + 5 s) and the grace (2 s)."""
    _, stack, http = restartable
    worker = stack.workers[SOLVE_LARGE_QUEUE]
    job_id = slow_nonogram(http)
    for pid in [*pool_children(worker), worker.pid]:
        os.kill(pid, signal.SIGKILL)
    worker.wait()
    replacement = subprocess.Popen(worker_command(SOLVE_LARGE_QUEUE), cwd=ROOT,
                                   env=stack.environment())
    stack.processes.append(replacement)
    started = time.monotonic()
    job = wait_for_end(http, [job_id], 45)[job_id]
    assert job["result"]["verdict"] in ("unknown", "multiple"), job
    assert time.monotonic() - started < 30
    # The sweep thread also keeps the workers' heartbeat file (compose's healthcheck).
    assert time.time() - os.path.getmtime(os.environ["GRIDSIGHT_HEARTBEAT_FILE"]) < 5


OUTAGE_RECOGNIZE_SECONDS = 8


@pytest.mark.limits(GRIDSIGHT_RECOGNIZE_SECONDS=str(OUTAGE_RECOGNIZE_SECONDS),
                    GRIDSIGHT_STALL_GRACE_SECONDS="60")
def test_a_picture_cut_off_by_a_redis_outage_is_read_again_not_failed(restartable):
    """Redis frozen (SIGSTOP) longer than the reading's hard limit: the reading task
    waits on Redis and is stopped at its limit. That is no fault of the picture: the job
    is queued again at once (the sweep's grace is long here, so the sweep plays no part),
    keeps its upload, and ends solved."""
    server, _, http = restartable
    warm = post_picture(http, 83)  # the reader loads its models on its first picture
    assert wait_for_end(http, [warm], 60)[warm]["status"] == "solved"
    job_id = post_picture(http, 84)
    deadline = time.monotonic() + 30
    while (job_state(http, job_id) or {}).get("status") != "recognizing":
        assert time.monotonic() < deadline, "the picture was never read"
        time.sleep(0.02)
    server.process.send_signal(signal.SIGSTOP)
    try:
        time.sleep(OUTAGE_RECOGNIZE_SECONDS + 5)
    finally:
        server.process.send_signal(signal.SIGCONT)
    job = wait_for_end(http, [job_id], 60)[job_id]
    assert job["status"] == "solved", job
    assert http.get(f"/v1/jobs/{job_id}/image").status_code == 200
