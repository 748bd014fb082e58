"""What both workers share: the job store, and turning a crash into a `failed` job."""

from __future__ import annotations

import logging
from contextlib import contextmanager
from functools import lru_cache

from services.jobs import JobNotFound, JobStore
from services.settings import get_settings

log = logging.getLogger("gridsight.worker")


@lru_cache
def job_store() -> JobStore:
    settings = get_settings()
    return JobStore.from_url(settings.redis_url, settings.job_ttl_seconds)


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
            store.update(job_id, status="failed",
                         error=f"the worker stopped {attempts - 1} times while {stage} this "
                               "job; the picture may be too large or unusual")
            raise JobGone(job_id)
        yield
    except JobGone:
        raise
    except JobNotFound as exc:
        raise JobGone(job_id) from exc
    except user_errors as exc:
        store.update(job_id, status="failed", error=str(exc))
        raise JobGone(job_id) from exc
    except Exception as exc:
        log.exception("job %s: %s failed", job_id, stage)
        store.update(
            job_id, status="failed",
            error=f"internal error while {stage} ({type(exc).__name__}); please try again",
        )
        raise JobGone(job_id) from exc
