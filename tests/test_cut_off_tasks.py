"""A task stopped at its hard time limit while Redis was away is queued again from
wherever its job stands, even when the task's last write lands after the worker looked.
Real Redis, a real Celery app and the tasks' real failure hook. The test's jobs and
queues live in a database of their own on the tests' Redis, where no worker takes the
messages, so the test reads what was queued straight from the broker's lists."""

from __future__ import annotations

import json
import time
from types import SimpleNamespace

import pytest
from billiard.exceptions import TimeLimitExceeded

from services import worker
from services.contracts import RECOGNIZE_QUEUE, RECOGNIZE_TASK, SOLVE_QUEUE, Reading
from services.queue import make_celery
from services.settings import get_settings

UNWATCHED_DB = 9  # the workers of the tests' service take tasks from database 0


@pytest.fixture()
def fresh_settings(redis_url, monkeypatch):
    monkeypatch.setenv("REDIS_URL", redis_url.rsplit("/", 1)[0] + f"/{UNWATCHED_DB}")
    get_settings.cache_clear()
    worker.job_store.cache_clear()
    yield worker.job_store()
    get_settings.cache_clear()
    worker.job_store.cache_clear()


def queued_job_ids(store, queue: str) -> list[str]:
    ids = []
    for raw in store.redis.lrange(queue, 0, -1):
        message = json.loads(raw)
        ids.append(message["headers"]["argsrepr"] + message["headers"]["kwargsrepr"])
    return ids


def test_a_late_last_write_of_a_stopped_reading_still_gets_its_job_solved(fresh_settings):
    store = fresh_settings
    # What the hook is handed of the task stopped: its app, its name and its limit.
    stopped = SimpleNamespace(app=make_celery("cut-off"), name=RECOGNIZE_TASK, time_limit=8.0)
    store.redis.delete(RECOGNIZE_QUEUE, SOLVE_QUEUE)
    job = store.create("sudoku", image=b"picture")
    store.update(job.id, status="recognizing")
    worker.redis_watch.last_unreachable = time.monotonic()  # as the watch saw the outage
    worker.fail_past_time_limit(stopped, TimeLimitExceeded(8.0), "task-id",
                                (job.id, "sudoku"), {}, None)
    # The stopped task's own write, which was on its way: the picture was read.
    reading = Reading(kind="sudoku", cells=[[[1.0] + [0.0] * 9] * 9] * 9)
    store.update(job.id, status="solving", reading=reading)
    deadline = time.monotonic() + worker.LATE_WRITE_SECONDS + 5
    while not any(job.id in text for text in queued_job_ids(store, SOLVE_QUEUE)):
        assert time.monotonic() < deadline, "the read job was left with nothing to solve it"
        time.sleep(0.1)
    assert store.get(job.id).status == "solving"
    # And the picture was queued to be read again at once, as it stood when looked at.
    assert any(job.id in text for text in queued_job_ids(store, RECOGNIZE_QUEUE))
