"""Long polling: GET /v1/jobs/{id}?wait=N answers when the job ends, without client polls."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
import redis.asyncio as aioredis

from services.gateway import waiting
from services.jobs import JobStore
from tests.conftest import wait_for_job

SUDOKU = ("53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79")


def test_one_long_poll_returns_the_finished_job(client):
    job_id = client.post("/v1/jobs", content=SUDOKU.encode(),
                         headers={"content-type": "text/plain"}).json()["id"]
    job = client.get(f"/v1/jobs/{job_id}", params={"wait": 30}).json()
    assert job["status"] == "solved"
    assert job["result"]["solution"][0] == [5, 3, 4, 6, 7, 8, 9, 1, 2]


def test_a_job_that_does_not_end_is_answered_when_the_wait_is_up(client, redis_url):
    # A job record no task was sent for stays queued: the answer comes after the wait.
    store = JobStore(redis.Redis.from_url(redis_url), 60)
    job = store.create("sudoku")
    started = time.monotonic()
    answer = client.get(f"/v1/jobs/{job.id}", params={"wait": 1.5}).json()
    assert answer["status"] == "queued"
    assert 1.4 <= time.monotonic() - started < 10


def test_a_change_during_the_wait_is_answered(client, redis_url):
    store = JobStore(redis.Redis.from_url(redis_url), 60)
    job = store.create("sudoku")
    timer = threading.Timer(0.5, lambda: store.update(job.id, status="failed", error="test"))
    timer.start()
    answer = client.get(f"/v1/jobs/{job.id}", params={"wait": 30}).json()
    timer.join()
    assert answer["status"] == "failed" and answer["error"] == "test"


@pytest.mark.parametrize("wait", ["-1", "61", "soon"])
def test_bad_wait_is_422(client, wait):
    job_id = client.post("/v1/jobs", content=SUDOKU.encode(),
                         headers={"content-type": "text/plain"}).json()["id"]
    response = client.get(f"/v1/jobs/{job_id}", params={"wait": wait})
    assert response.status_code == 422
    assert response.headers["content-type"].startswith("application/problem+json")
    wait_for_job(client, job_id)


def test_long_poll_of_unknown_job_is_404(client):
    response = client.get("/v1/jobs/" + "y" * 24, params={"wait": 5})
    assert response.status_code == 404


def test_the_published_change_wakes_the_waiter_before_any_recheck(redis_url, monkeypatch):
    """In process: with rechecks an hour apart, only the Redis message can wake the waiter."""
    monkeypatch.setattr(waiting, "RECHECK_SECONDS", 3600)
    store = JobStore(redis.Redis.from_url(redis_url), 60)
    job = store.create("sudoku")

    def subscribers() -> int:
        return sum(int(c["psub"]) > 0 for c in store.redis.client_list())

    subscribers_before = subscribers()  # the running gateway's subscription, if any

    async def scenario() -> tuple[bytes, float]:
        events = waiting.JobEvents(aioredis.Redis.from_url(redis_url))
        waiter = asyncio.create_task(events.wait_until_final(job.id, 3600))
        deadline = time.monotonic() + 10
        while subscribers() <= subscribers_before:  # until ours is up too
            assert time.monotonic() < deadline, "the waiter never subscribed"
            await asyncio.sleep(0.05)
        started = time.monotonic()
        await asyncio.to_thread(store.update, job.id, status="solved")
        document = await asyncio.wait_for(waiter, 10)
        events.listener.cancel()
        return document, time.monotonic() - started

    # A loop of its own in a thread: other tests (the browser's) may leave one running here.
    with ThreadPoolExecutor(1) as thread:
        document, seconds = thread.submit(asyncio.run, scenario()).result()
    assert b'"status":"solved"' in document
    assert seconds < 10
