"""The sweep: jobs that stopped moving are queued again, so every job ends.

A task can be lost between Redis and a worker: a message acknowledged while Redis
restarted, a chain's next message that could not be sent, a worker that vanished with its
task (Redis hands that message out again only after the visibility timeout, 900 s). Every
job not yet final sits in a sorted set by the time it last changed (services/jobs.py).
A job whose stage has outlived its task's hard time limit, plus a grace, is queued again
from what the store keeps (its upload, its typed-in text, or its reading and corrections);
after `task_max_attempts` such requeues it fails with a message. Tasks delivered twice
find their job already past them and do nothing, so a requeue never does harm.

The workers run the sweep in a thread of their main process; a lock in Redis lets one of
them sweep per interval.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import redis
from celery import Celery, chain

from services import metrics
from services.contracts import (
    RECOGNIZE_QUEUE,
    RECOGNIZE_TASK,
    SOLVE_QUEUES,
    SOLVE_TASK,
    Job,
)
from services.corrections import as_fixed
from services.jobs import ACTIVE_KEY, FINAL_STATES, JobNotFound, JobStore
from services.queue import typed_puzzle_queue
from services.settings import Settings, get_settings

log = logging.getLogger("gridsight.sweeper")
LOCK_KEY = "gridsight:sweep-lock"


def sweep(store: JobStore, sender: Celery, settings: Settings | None = None,
          now: float | None = None) -> list[str]:
    """Queue again (or fail) every job that stopped moving; the ids it acted on."""
    settings = settings or get_settings()
    now = time.time() if now is None else now
    shortest = min(settings.stalled_after(s) for s in ("queued", "recognizing", "solving"))
    acted = []
    for raw_id in store.redis.zrangebyscore(ACTIVE_KEY, "-inf", now - shortest):
        job_id = raw_id.decode()
        try:
            job = store.get(job_id)
        except JobNotFound:
            store.redis.zrem(ACTIVE_KEY, job_id)  # expired
            continue
        if job.status in FINAL_STATES:
            store.redis.zrem(ACTIVE_KEY, job_id)
            continue
        if now - job.updated_at < settings.stalled_after(job.status):
            continue
        if job.status == "queued" and _queues_busy(store):
            continue  # it may simply be waiting its turn
        requeue(store, sender, job, settings)
        acted.append(job_id)
    return acted


def _queues_busy(store: JobStore) -> bool:
    with store.redis.pipeline(transaction=False) as pipe:
        for queue in (RECOGNIZE_QUEUE, *SOLVE_QUEUES):
            pipe.llen(queue)
        return any(pipe.execute())


def requeue(store: JobStore, sender: Celery, job: Job, settings: Settings,
            reason: str = "") -> None:
    """Queue the job's current stage again; `reason` (what stopped it, for the log and
    for the error if it has to give up) defaults to its not moving."""
    reason = reason or f"the job stopped moving while {job.status}"
    count = store.count_requeue(job.id)
    if count > settings.task_max_attempts:
        _fail(store, job, f"{reason}, {count - 1} times; please send it again")
        return
    # Touch the job first: the next sweep gives the new task its full time.
    touched = store.update(job.id, expect_revision=job.revision,
                           only_from=frozenset({job.status}), status=job.status)
    if touched is None:
        return  # it moved meanwhile
    text = store.puzzle_text(job.id)
    log.warning("queueing a job again: %s", reason,
                extra={"job_id": job.id, "status": job.status, "requeues": count})
    if text is not None:
        sender.send_task(SOLVE_TASK, args=(None,), kwargs={
            "job_id": job.id, "revision": job.revision, "puzzle_text": text,
            "kind": job.kind}, queue=typed_puzzle_queue(text, settings))
    elif job.status in ("queued", "recognizing") and store.has_image(job.id):
        chain(sender.signature(RECOGNIZE_TASK, args=(job.id, job.kind)),
              sender.signature(SOLVE_TASK, kwargs={"job_id": job.id, "revision": 1}),
              ).apply_async()
    elif job.status == "solving" and job.reading is not None:
        # As the review route sends it: the reading as read, the corrections as certain.
        sender.send_task(SOLVE_TASK, args=(job.reading.model_dump(mode="json"),),
                         kwargs={"job_id": job.id, "revision": job.revision,
                                 "fixed": as_fixed(job.corrections) if job.corrections
                                 else None})
    else:
        _fail(store, job, "the job was interrupted and its input has expired; please send "
                          "it again")


def _fail(store: JobStore, job: Job, error: str) -> None:
    if store.update(job.id, expect_revision=job.revision, status="failed",
                    error=error) is not None:
        metrics.record_outcome(store.redis, "failed")
        log.info("job failed", extra={"job_id": job.id, "error": error})


def sweep_forever(store: JobStore, sender: Celery, stop: threading.Event) -> None:
    """The workers' sweep loop: one sweeper per interval across all workers."""
    settings = get_settings()
    while not stop.wait(settings.sweep_seconds):
        if settings.heartbeat_file:
            Path(settings.heartbeat_file).touch()
        try:
            if store.redis.set(LOCK_KEY, "1", nx=True, ex=max(1, int(settings.sweep_seconds))):
                sweep(store, sender, settings)
        except redis.RedisError as exc:  # Redis away: try at the next interval
            log.warning("sweep skipped: %s", exc)
        except Exception:
            log.exception("sweep failed")
