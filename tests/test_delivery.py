"""Delivery guarantees with real processes: Redis restarts and workers that die."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest
import redis

from gridsight.stack import ROOT, Stack, free_port, wait_for_redis, worker_command
from gridsight.synth.puzzles import make_nonogram, make_sudoku
from services.contracts import SOLVE_LARGE_QUEUE, SOLVE_TYPED_QUEUE
from tests.conftest import wait_for_job


class PersistentRedis:
    """A redis-server with its append-only file in a folder, restartable in place."""

    def __init__(self, folder: Path):
        self.folder, self.port = folder, free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.folder), "--appendonly", "yes", "--appendfsync", "always",
             "--save", "", "--maxmemory-policy", "noeviction"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_redis(self.url)

    def stop(self) -> None:
        redis.Redis.from_url(self.url).shutdown(nosave=False)
        self.process.wait(timeout=10)


def typed_in(seed: int) -> tuple[str, list[list[int]]]:
    givens, solution = make_sudoku(random.Random(seed))
    return "".join(str(v or ".") for row in givens for v in row), solution


def post_text(http: httpx.Client, text: str) -> str:
    response = http.post("/v1/jobs", content=text, headers={"content-type": "text/plain"})
    assert response.status_code == 202
    return response.json()["id"]


@pytest.fixture()
def persistent_stack(tmp_path, monkeypatch):
    server = PersistentRedis(tmp_path)
    server.start()
    monkeypatch.setenv("REDIS_URL", server.url)
    monkeypatch.setenv("GRIDSIGHT_SOLVE_SECONDS", str(SLOW_SOLVE_SECONDS))
    monkeypatch.setenv("GRIDSIGHT_READS_PER_MINUTE", "0")  # polled every 50 ms
    with Stack() as stack:
        base = stack.start_service(workers=False)
        with httpx.Client(base_url=base, timeout=10) as http:
            yield server, stack, http
    if server.process.poll() is None:
        server.process.terminate()
        server.process.wait()


def start_solver(stack: Stack, queue: str = SOLVE_TYPED_QUEUE) -> subprocess.Popen:
    worker = subprocess.Popen(worker_command(queue), cwd=ROOT, env=stack.environment())
    stack.processes.append(worker)
    return worker


def test_finished_and_queued_jobs_survive_a_redis_restart(persistent_stack):
    server, stack, http = persistent_stack
    worker = start_solver(stack)
    first, first_solution = typed_in(61)
    done_id = post_text(http, first)
    assert wait_for_job(http, done_id)["status"] == "solved"
    worker.terminate()
    worker.wait(timeout=20)

    second, second_solution = typed_in(62)
    queued_id = post_text(http, second)
    assert http.get(f"/v1/jobs/{queued_id}").json()["status"] == "queued"

    server.stop()
    assert http.get("/healthz").status_code == 503  # says so instead of hanging
    assert http.get(f"/v1/jobs/{done_id}").status_code == 503  # not a 500
    refused = http.post("/v1/jobs", content=second, headers={"content-type": "text/plain"})
    assert refused.status_code == 503 and refused.headers["retry-after"]
    server.start()

    finished = http.get(f"/v1/jobs/{done_id}").json()
    assert finished["status"] == "solved" and finished["result"]["solution"] == first_solution
    assert http.get(f"/v1/jobs/{queued_id}").json()["status"] == "queued"
    start_solver(stack)
    job = wait_for_job(http, queued_id, seconds=60)
    assert job["status"] == "solved" and job["result"]["solution"] == second_solution


SLOW_SOLVE_SECONDS = 6


@pytest.fixture()
def slow_puzzle() -> dict:
    """A large random nonogram: many solutions, seconds of search to tell them apart."""
    puzzle, _ = make_nonogram(random.Random(5), 120, 120)
    return puzzle.model_dump(mode="json")


def pool_children(worker: subprocess.Popen) -> list[int]:
    listing = subprocess.run(["ps", "-o", "pid=", "--ppid", str(worker.pid)],
                             capture_output=True, text=True).stdout
    return [int(pid) for pid in listing.split()]


def test_a_job_survives_its_worker_being_killed(persistent_stack, slow_puzzle):
    """SIGKILL the pool process in the middle of a solve: the task is redelivered."""
    _, stack, http = persistent_stack
    worker = start_solver(stack, SOLVE_LARGE_QUEUE)  # 120x120 is a large typed-in puzzle
    deadline = time.monotonic() + 60
    while not pool_children(worker):
        assert time.monotonic() < deadline, "worker pool never started"
        time.sleep(0.1)
    job_id = http.post("/v1/jobs", json=slow_puzzle).json()["id"]
    while http.get(f"/v1/jobs/{job_id}").json()["status"] != "solving":
        assert time.monotonic() < deadline, "job never started solving"
        time.sleep(0.02)
    time.sleep(0.5)
    killed = pool_children(worker)
    for pid in killed:
        os.kill(pid, signal.SIGKILL)
    job = wait_for_job(http, job_id, seconds=120)
    assert job["status"] in ("solved", "needs_review", "failed") and job["result"], job
    # The first attempt died with its process; the job finished on a second delivery.
    attempts = redis.Redis.from_url(os.environ["REDIS_URL"]).get(
        f"gridsight:attempts:{job_id}:solving:1")
    assert killed and int(attempts) == 2
