"""The Celery application shared by the gateway (to send) and the workers (to serve).

It names queues and routes only; the tasks themselves live in each worker's own
`tasks.py`, so the gateway can send them by name without importing their code.
"""

from __future__ import annotations

import json

from celery import Celery

from services.contracts import (
    RECOGNIZE_QUEUE,
    RECOGNIZE_TASK,
    SOLVE_LARGE_QUEUE,
    SOLVE_QUEUE,
    SOLVE_TASK,
    SOLVE_TYPED_QUEUE,
)
from services.settings import Settings, get_settings

# A worker sending the next task of a chain keeps trying through a Redis restart (about
# 45 s).
PATIENT_PUBLISH = {"max_retries": 25, "interval_start": 0.2, "interval_step": 0.5,
                   "interval_max": 2.0}


def make_celery(name: str = "gridsight", patient_publish: bool = False,
                publish_retry: dict | None = None) -> Celery:
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
        # Hard time limits and delivery hooks of the job tasks (services/worker.py),
        # loaded only where the tasks run.
        task_annotations=["services.worker.JobAnnotations"],
        # A pool process left large by one puzzle is replaced rather than kept (KiB).
        worker_max_memory_per_child=settings.worker_max_memory_mb * 1024,
    )
    if patient_publish or publish_retry:
        app.conf.task_publish_retry_policy = publish_retry or PATIENT_PUBLISH
    return app


def typed_puzzle_cells(text: str) -> int:
    """Cells of a typed-in puzzle, told from its JSON without solver code (81 for text)."""
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return 81
    if not isinstance(document, dict):
        return 81
    rows = document.get("rows", document.get("Rows"))
    cols = document.get("cols", document.get("Cols"))
    if isinstance(rows, list) and isinstance(cols, list):
        return len(rows) * len(cols)
    size = document.get("size")
    return size * size if isinstance(size, int) and 0 < size < 1000 else 81


def typed_puzzle_queue(text: str, settings: Settings) -> str:
    """Typed-in puzzles never share the pictures' `solve` queue: even a small one (a 60x60
    nonogram, a hard sudoku) may search up to its time limit, which a picture must not
    wait for. Large ones have a lane of their own again."""
    large = typed_puzzle_cells(text) > settings.large_puzzle_cells
    return SOLVE_LARGE_QUEUE if large else SOLVE_TYPED_QUEUE
