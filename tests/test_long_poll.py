"""Long polling: GET /v1/jobs/{id}?wait=N answers when the job ends, without client polls."""

from __future__ import annotations

import asyncio
import os
import signal
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import redis
import redis.asyncio as aioredis

from gridsight.stack import Stack
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


# Many long polls at once: a gateway and a Redis of their own, no
# workers, so the jobs polled stay queued and only the waiting mechanism is at work.
@pytest.fixture()
def quiet_gateway(monkeypatch):
    monkeypatch.delenv("REDIS_URL", raising=False)
    with Stack() as stack:
        base = stack.start_service(prefer="redis-server", workers=False)
        url = stack.redis_url
        monkeypatch.setenv("REDIS_URL", url)
        store = JobStore(redis.Redis.from_url(url), 600)
        job_ids = [store.create("sudoku").id for _ in range(3)]
        # One long poll first, so that the gateway's subscription is up.
        assert httpx.get(f"{base}/v1/jobs/{job_ids[0]}", params={"wait": 0.5}).status_code == 200
        yield base, store, job_ids, stack.processes[0]


def long_polls(base: str, job_ids: list[str], count: int, wait: float,
               meanwhile=None) -> list[int]:
    """`count` concurrent long polls of the jobs, all on their own connections; the
    status of each (599 when no answer came), while `meanwhile` runs in a thread."""
    async def burst() -> list:
        limits = httpx.Limits(max_connections=count, max_keepalive_connections=0)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
            polls = [http.get(f"/v1/jobs/{job_ids[i % len(job_ids)]}", params={"wait": wait})
                     for i in range(count)]
            side = asyncio.to_thread(meanwhile) if meanwhile else asyncio.sleep(0)
            answers = await asyncio.gather(*polls, side, return_exceptions=True)
            return answers[:count]

    with ThreadPoolExecutor(1) as thread:  # a loop of its own (see above)
        answers = thread.submit(asyncio.run, burst()).result()
    return [a.status_code if isinstance(a, httpx.Response) else 599 for a in answers]


def gets(store: JobStore) -> int:
    return int(store.redis.info("commandstats").get("cmdstat_get", {}).get("calls", 0))


def test_300_long_polls_of_jobs_that_do_not_move_share_their_reads(quiet_gateway):
    base, store, job_ids, _ = quiet_gateway
    before = gets(store)
    statuses = long_polls(base, job_ids, 300, wait=3)
    assert statuses == [200] * 300, sorted(set(statuses))
    # Each poll used to read its job at its start, at every recheck and at its end
    # (about 1 200 GETs here); the waiters of one job now share what was read.
    assert gets(store) - before <= 30, gets(store) - before


def test_300_long_polls_through_a_redis_stall_get_no_503(quiet_gateway):
    """A Redis that answers late (paused here for 7 s; a starved machine does the same)
    used to fail every poll whose time ran out meanwhile with a 503: each read again at
    its end, and waited out the read timeout. Nothing changed, and the subscription says
    so, so the polls are answered with the job as it is."""
    base, store, job_ids, redis_process = quiet_gateway
    reads_before = gets(store)

    def stall() -> None:
        deadline = time.monotonic() + 3
        while gets(store) < reads_before + len(job_ids) and time.monotonic() < deadline:
            time.sleep(0.05)  # until the gateway has read each job once
        time.sleep(0.5)
        os.kill(redis_process.pid, signal.SIGSTOP)
        time.sleep(7)
        os.kill(redis_process.pid, signal.SIGCONT)

    statuses = long_polls(base, job_ids, 300, wait=4, meanwhile=stall)
    assert statuses == [200] * 300, {s: statuses.count(s) for s in set(statuses)}


def calls(store: JobStore, command: str) -> int:
    stats = store.redis.info("commandstats").get(f"cmdstat_{command}", {})
    return int(stats.get("calls", 0))


def test_300_long_polls_are_counted_for_metrics_in_a_few_redis_calls(quiet_gateway):
    base, store, job_ids, _ = quiet_gateway
    field = 'gridsight_http_requests_total{method="GET",route="/v1/jobs/{job_id}",status="200"}'

    def counted() -> int:
        lines = httpx.get(f"{base}/metrics").text.splitlines()
        return sum(int(line.rsplit(" ", 1)[1]) for line in lines if line.startswith(field))

    before, increments = counted(), calls(store, "hincrby")
    assert long_polls(base, job_ids, 300, wait=1) == [200] * 300
    assert counted() - before == 300  # /metrics adds this process's counts first
    # One HINCRBY per answer used to share the pool with the polls' own reads.
    assert calls(store, "hincrby") - increments <= 30
