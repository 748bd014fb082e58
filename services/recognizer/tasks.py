"""Celery adapter: the `recognize` queue's task over the recognizer library."""

from __future__ import annotations

import time

from celery.signals import worker_process_init

from services.contracts import RECOGNIZE_TASK
from services.queue import make_celery
from services.recognizer import RecognitionError, recognize
from services.recognizer.shipped_models import load_shipped_models
from services.worker import JobGone, failing_job_on_error, finish, job_store

app = make_celery("gridsight-recognizer")


@worker_process_init.connect
def load_models_before_the_first_job(**_) -> None:
    """Each pool process loads the models as it starts, not on its first picture."""
    load_shipped_models()


@app.task(name=RECOGNIZE_TASK)
def recognize_job(job_id: str, kind: str = "auto") -> dict | None:
    """Read the job's image; the reading goes on down the chain to the solver."""
    store = job_store()
    try:
        with failing_job_on_error(job_id, "recognizing", (RecognitionError,)):
            store.update(job_id, status="recognizing")
            started = time.perf_counter()
            reading = recognize(store.image(job_id), kind)
            elapsed = finish(job_id, "recognize", started)
            store.update(job_id, status="solving", reading=reading,
                         timings={"recognize": round(elapsed, 4)})
    except JobGone:
        return None
    return reading.model_dump(mode="json")
