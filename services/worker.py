"""What both workers share: the job store, and turning a crash into a `failed` job."""

from __future__ import annotations

import logging
import time
from contextlib import contextmanager
from functools import lru_cache

from celery.signals import setup_logging

from services import metrics
from services.contracts import JobStatus
from services.jobs import JobNotFound, JobStore
from services.logs import configure_json_logging
from services.settings import get_settings

log = logging.getLogger("gridsight.worker")


@setup_logging.connect
def _json_logs(**_kwargs) -> None:
    configure_json_logging()


@lru_cache
def job_store() -> JobStore:
    settings = get_settings()
    return JobStore.from_url(settings.redis_url, settings.job_ttl_seconds)


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
                                "job; the picture may be too large or unusual")
            raise JobGone(job_id)
        yield
    except JobGone:
        raise
    except JobNotFound as exc:
        raise JobGone(job_id) from exc
    except user_errors as exc:
        fail(store, job_id, str(exc))
        raise JobGone(job_id) from exc
    except Exception as exc:
        log.exception("%s crashed", stage, extra={"job_id": job_id, "stage": stage})
        fail(store, job_id,
             f"internal error while {stage} ({type(exc).__name__}); please try again")
        raise JobGone(job_id) from exc
