"""What both workers share: the job store, and turning a crash into a `failed` job."""

from __future__ import annotations

import logging
import threading
import time
from contextlib import contextmanager
from functools import lru_cache

import redis
from billiard.exceptions import TimeLimitExceeded
from celery.exceptions import Ignore
from celery.signals import setup_logging, worker_ready, worker_shutdown
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from services import metrics
from services.contracts import RECOGNIZE_TASK, SOLVE_TASK, JobStatus
from services.jobs import FINAL_STATES, Job, JobNotFound, JobStore
from services.logs import configure_json_logging
from services.settings import get_settings

log = logging.getLogger("gridsight.worker")


@setup_logging.connect
def _json_logs(**_kwargs) -> None:
    configure_json_logging()


STORE_BACKOFF_CAP = 2.0


@lru_cache
def job_store() -> JobStore:
    """The workers' job store rides out a Redis restart: each command is retried for
    about `store_retry_seconds`, so a task that finished while Redis was away still
    stores its outcome before its message is acknowledged."""
    settings = get_settings()
    retries = max(3, int(settings.store_retry_seconds / STORE_BACKOFF_CAP) + 3)
    client = redis.Redis.from_url(
        settings.redis_url, socket_connect_timeout=2, socket_timeout=30,
        retry=Retry(ExponentialBackoff(cap=STORE_BACKOFF_CAP, base=0.05), retries),
        retry_on_error=[redis.ConnectionError, redis.TimeoutError])
    return JobStore(client, settings.job_ttl_seconds)


STAGES = {RECOGNIZE_TASK: "reading the picture", SOLVE_TASK: "the solver"}
UNREAD = frozenset({"queued", "recognizing"})


def _job_id(args, kwargs) -> str | None:
    return kwargs.get("job_id") or (args[0] if args and isinstance(args[0], str) else None)


class RedisWatch:
    """When this worker last found Redis unreachable: a ping every second from a thread
    of its own, with a short timeout, so that a task stopped while Redis was away is told
    apart from one that was simply too slow."""

    PING_SECONDS = 1.0

    def __init__(self):
        self.last_unreachable = float("-inf")

    def watch(self, stop: threading.Event) -> None:
        client = redis.Redis.from_url(get_settings().redis_url,
                                      socket_timeout=self.PING_SECONDS,
                                      socket_connect_timeout=self.PING_SECONDS)
        while not stop.wait(self.PING_SECONDS):
            try:
                client.ping()
            except (redis.RedisError, OSError):
                self.last_unreachable = time.monotonic()

    def unreachable_within(self, seconds: float) -> bool:
        return time.monotonic() - self.last_unreachable <= seconds


redis_watch = RedisWatch()


def fail_past_time_limit(task, exc, task_id, args, kwargs, einfo) -> None:
    """Celery's hard time limit stopped a job's task (a backstop: the solver and the
    recognizer keep their own limits): the job fails saying so, at once. Unless Redis
    was unreachable meanwhile: the task was most likely waiting for it, which is no
    fault of the job, and the job is queued again instead."""
    job_id = _job_id(args, kwargs)
    if not isinstance(exc, TimeLimitExceeded) or not job_id:
        return
    store = job_store()
    try:
        job = store.get(job_id)  # waits for Redis to come back (the store's retries)
        if job.status == "queued":
            # The task never began: it was handed to a pool process killed before it ran,
            # and the limit fired on the dead pipe. The sweep queues the job again.
            log.warning("a task that never began hit its time limit", extra={"job_id": job_id})
            return
        if redis_watch.unreachable_within(task.time_limit + RedisWatch.PING_SECONDS * 2):
            from services.sweeper import requeue

            stage = STAGES.get(task.name, "the task")
            reason = f"{stage} was cut off at its time limit while Redis was unreachable"
            requeue(store, task.app, job, get_settings(), reason=reason)
            # The stopped task's last write (the job's next status) may still have been
            # on its way to Redis and land after the read above: a job moved on by a
            # task that is gone has nothing left to move it, so look once more.
            threading.Timer(LATE_WRITE_SECONDS, requeue_if_moved_on,
                            args=(task.app, job, reason)).start()
            return
        store.update(job_id, expect_revision=kwargs.get("revision"), status="failed",
                     error=f"{STAGES.get(task.name, 'the task')} stopped at its time limit "
                           f"of {task.time_limit:g} s; send a smaller puzzle or picture")
        metrics.record_outcome(store.redis, "failed")
    except (JobNotFound, redis.RedisError):
        log.warning("could not fail a job past its time limit", extra={"job_id": job_id})


LATE_WRITE_SECONDS = 1.0


def requeue_if_moved_on(sender, seen: Job, reason: str) -> None:
    """Queue the job's stage again if it moved on from `seen` to another unfinished one."""
    from services.sweeper import requeue

    store = job_store()
    try:
        job = store.get(seen.id)
        if (job.revision == seen.revision and job.status != seen.status
                and job.status not in FINAL_STATES):
            requeue(store, sender, job, get_settings(), reason=reason)
    except (JobNotFound, redis.RedisError):
        log.warning("could not look at a job past its time limit again",
                    extra={"job_id": seen.id})


def skip_if_already_read(task, task_id, args, kwargs) -> None:
    """A reading task delivered twice (a requeue, a message handed back after a restart)
    leaves a job that has been read already, and its chain stops there."""
    job_id = _job_id(args, kwargs)
    try:
        job = job_store().get(job_id) if job_id else None
    except JobNotFound:
        job = None
    if job is not None and (job.status not in UNREAD or job.revision != 1):
        log.info("task delivered again; the job has moved on", extra={"job_id": job_id})
        raise Ignore()


class JobAnnotations:
    """Hard time limits and delivery hooks for the job tasks, set from the configuration
    (`task_annotations`) so that every worker's tasks get them."""

    def annotate(self, task) -> dict | None:
        settings = get_settings()
        if task.name == RECOGNIZE_TASK:
            return {"time_limit": settings.recognize_seconds,
                    "on_failure": fail_past_time_limit, "before_start": skip_if_already_read}
        if task.name == SOLVE_TASK:
            return {"time_limit": settings.solve_time_limit,
                    "on_failure": fail_past_time_limit}
        return None


_sweep_stop = threading.Event()


@worker_ready.connect
def _start_sweeping(sender=None, **_kwargs) -> None:
    from services.sweeper import sweep_forever

    app = sender.app if sender is not None else None
    if app is None:
        return
    threading.Thread(target=sweep_forever, args=(job_store(), app, _sweep_stop),
                     name="gridsight-sweep", daemon=True).start()
    threading.Thread(target=redis_watch.watch, args=(_sweep_stop,), name="gridsight-redis",
                     daemon=True).start()


@worker_shutdown.connect
def _stop_sweeping(**_kwargs) -> None:
    _sweep_stop.set()


def finish(job_id: str, stage: str, started: float, status: JobStatus | None = None) -> float:
    """Count a finished stage (and the job's final state), and log it."""
    seconds = time.perf_counter() - started
    metrics.record_stage(job_store().redis, stage, seconds, outcome=status)
    log.info("%s done", stage, extra={"job_id": job_id, "stage": stage,
                                      "seconds": round(seconds, 4), "status": status})
    return seconds


def fail(store: JobStore, job_id: str, error: str) -> None:
    store.update(job_id, status="failed", error=error)
    metrics.record_outcome(store.redis, "failed")
    log.info("job failed", extra={"job_id": job_id, "error": error})


class JobGone(Exception):
    """The job expired or never existed: there is nobody left to answer."""


@contextmanager
def failing_job_on_error(job_id: str, stage: str, user_errors: tuple[type[Exception], ...],
                         revision: int = 1):
    """Record errors on the job instead of losing it.

    Errors in `user_errors` are the picture's or puzzle's fault and their message is
    meant for the person; anything else is ours, logged in full and reported briefly.
    A task redelivered after its worker died too often fails the job, so a picture that
    crashes the worker cannot loop forever.
    """
    store = job_store()
    try:
        attempts = store.count_attempt(job_id, stage, revision)
        if attempts > get_settings().task_max_attempts:
            fail(store, job_id, f"the worker stopped {attempts - 1} times while {stage} this "
                                "job; the puzzle or picture may be too large or unusual")
            raise JobGone(job_id)
        yield
    except JobGone:
        raise
    except JobNotFound as exc:
        raise JobGone(job_id) from exc
    except redis.RedisError:
        # Redis stayed away past the store's retries: not the job's fault. The task fails
        # unacknowledged-as-done and the sweep queues the job again.
        raise
    except user_errors as exc:
        fail(store, job_id, str(exc))
        raise JobGone(job_id) from exc
    except Exception as exc:
        log.exception("%s crashed", stage, extra={"job_id": job_id, "stage": stage})
        fail(store, job_id,
             f"internal error while {stage} ({type(exc).__name__}); please try again")
        raise JobGone(job_id) from exc
