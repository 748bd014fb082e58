"""Shared fixtures: a private Redis server and the running service (real processes)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from contextlib import contextmanager

import httpx
import pytest

from gridsight.stack import ROOT, Stack, free_port, wait_healthy

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


@pytest.fixture(scope="session")
def redis_url():
    """A redis-server of the tests' own, so they never touch another Redis's data."""
    if not shutil.which("redis-server"):
        pytest.fail("redis-server is not installed; .ci/run installs it (apt-get install "
                    "redis-server)")
    with Stack() as stack:
        yield stack.start_broker(prefer="redis-server")


def wait_until_healthy(base_url: str, seconds: float = 60.0, workers: bool = False) -> None:
    if not wait_healthy(base_url, seconds, workers):
        raise TimeoutError(f"gateway at {base_url} did not become healthy")


@contextmanager
def gateway_with(redis_url: str, protocol: str | None = None, **settings: str):
    """A gateway of its own over `redis_url` with extra settings in its environment (and
    uvicorn's HTTP `protocol`, as `serve` picks it); its address once it is healthy."""
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "services.gateway.app:app",
               "--port", str(port), "--log-level", "warning"]
    if protocol:
        command += ["--http", protocol]
    gateway = subprocess.Popen(command, cwd=ROOT,
                               env=os.environ | {"REDIS_URL": redis_url, **settings})
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_healthy(base)
        yield base
    finally:
        stop(gateway, 10)


def stop(process: subprocess.Popen, seconds: float) -> None:
    """SIGTERM, then SIGKILL if the process has not ended within `seconds`."""
    process.terminate()
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def service(redis_url):
    """Gateway and both workers as separate processes against the private Redis."""
    os.environ["REDIS_URL"] = redis_url
    os.environ["GRIDSIGHT_JOBS_PER_MINUTE"] = "0"  # the suite posts many jobs from one address
    os.environ["GRIDSIGHT_READS_PER_MINUTE"] = "0"  # ... and polls them
    with Stack() as stack:
        base_url = stack.start_service()
        wait_until_healthy(base_url, workers=True)
        yield base_url


@pytest.fixture()
def client(service):
    with httpx.Client(base_url=service, timeout=30) as http:
        yield http


def finished_job(http: httpx.Client, name: str, picture: bytes, **fields: str) -> dict:
    """Upload a picture as a new job (`fields`: kind, ...), check it was accepted, and
    return the job document once it has ended."""
    mime = "image/jpeg" if name.endswith(".jpg") else "image/png"
    response = http.post("/v1/jobs", files={"image": (name, picture, mime)}, data=fields)
    assert response.status_code == 202, response.text
    return wait_for_job(http, response.json()["id"])


def wait_for_job(http: httpx.Client, job_id: str, seconds: float = 60.0) -> dict:
    """Poll a job until it reaches a final state; return the job document."""
    deadline = time.monotonic() + seconds
    seen = []
    while True:
        job = http.get(f"/v1/jobs/{job_id}").json()
        if not seen or seen[-1] != job["status"]:
            seen.append(job["status"])
        if job["status"] in ("solved", "needs_review", "failed"):
            job["_states_seen"] = seen
            return job
        if time.monotonic() > deadline:
            raise TimeoutError(f"job {job_id} stuck in {job['status']} (seen {seen})")
        time.sleep(0.05)
