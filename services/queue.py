"""The Celery application shared by the gateway (to send) and the workers (to serve).

It names queues and routes only; the tasks themselves live in each worker's own
`tasks.py`, so the gateway can send them by name without importing their code.
"""

from __future__ import annotations

from celery import Celery

from services.contracts import RECOGNIZE_QUEUE, RECOGNIZE_TASK, SOLVE_QUEUE, SOLVE_TASK
from services.settings import get_settings


def make_celery(name: str = "gridsight") -> Celery:
    settings = get_settings()
    app = Celery(name, broker=settings.redis_url)
    app.conf.update(
        task_serializer="json",
        accept_content=["json"],
        task_ignore_result=True,  # results live in the job store, not in Celery's backend
        task_routes={
            RECOGNIZE_TASK: {"queue": RECOGNIZE_QUEUE},
            SOLVE_TASK: {"queue": SOLVE_QUEUE},
        },
        task_default_queue=SOLVE_QUEUE,
        # A job must survive a worker that dies mid-task: acknowledge only when done,
        # hand the message back when the pool process is lost, and take one at a time.
        task_acks_late=True,
        task_reject_on_worker_lost=True,
        worker_prefetch_multiplier=1,
        broker_transport_options={"visibility_timeout": settings.visibility_timeout_seconds},
        broker_connection_retry_on_startup=True,
        worker_hijack_root_logger=False,
    )
    return app
