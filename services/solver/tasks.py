"""Celery adapter: the `solve` queue's task over the solver library."""

from __future__ import annotations

import logging
import time

from services.contracts import SOLVE_TASK, NonogramPuzzle, Reading
from services.jobs import FINAL_STATES, JobNotFound
from services.queue import make_celery
from services.settings import get_settings
from services.solver import PuzzleError, parse_puzzles, solve_page, solve_puzzle
from services.solver.hints import rate_result
from services.worker import JobGone, failing_job_on_error, finish, job_store

log = logging.getLogger(__name__)
app = make_celery("gridsight-solver", patient_publish=True)
# A task delivered twice (a requeue, a message handed back after a restart) finds its
# revision already final and leaves it.
NOT_FINAL = frozenset({"queued", "recognizing", "solving"})
assert not NOT_FINAL & FINAL_STATES


def parse_one(text: str, kind: str | None):
    puzzles = parse_puzzles(text, None if kind == "auto" else kind)
    if len(puzzles) != 1:
        raise PuzzleError(f"expected one puzzle per job, found {len(puzzles)}")
    puzzle = puzzles[0]
    side = get_settings().max_nonogram_side
    if isinstance(puzzle, NonogramPuzzle) and max(len(puzzle.rows), len(puzzle.cols)) > side:
        raise PuzzleError(f"nonograms up to {side}x{side} are accepted here")
    return puzzle


@app.task(name=SOLVE_TASK)
def solve_job(reading: dict | None, job_id: str, revision: int = 1,
              puzzle_text: str | None = None, kind: str = "auto",
              fixed: dict | None = None) -> None:
    """Solve a reading (from the recognizer down the chain, or as read again with a
    person's corrections in `fixed`, which the solver takes as certain) or a typed-in
    puzzle."""
    if reading is None and puzzle_text is None:
        return  # the recognizer already failed the job
    store = job_store()
    limit = get_settings().solve_seconds
    try:
        with failing_job_on_error(job_id, "solving", (PuzzleError, ValueError), revision):
            job = store.update(job_id, expect_revision=revision, only_from=NOT_FINAL,
                               status="solving")
            if job is None:
                return  # a newer revision superseded this one, or it is already done
            started = time.perf_counter()
            if puzzle_text is not None:
                result = solve_puzzle(parse_one(puzzle_text, kind), time_limit=limit)
            else:
                result = solve_page(Reading.model_validate(reading), time_limit=limit,
                                    fixed=fixed)
            elapsed = finish(job_id, "solve", started, result.status)
            timings = job.timings | {"solve": round(elapsed, 4)}
            stored = store.update(job_id, expect_revision=revision, status=result.status,
                                  result=result, timings=timings,
                                  error=result.message if result.status == "failed" else None)
    except JobGone:
        return
    if stored is not None:
        rate_job(store, job_id, revision, result)


def rate_job(store, job_id: str, revision: int, result) -> None:
    """The difficulty and the hint path, once the answer is stored: the person is not
    kept waiting for a rating (seconds for a hard puzzle). The result gains its
    difficulty when they are ready, unless a newer revision replaced it meanwhile."""
    try:
        rated, path = rate_result(result)
        if path is None:
            return
        store.put_hints(job_id, revision, path)
        store.update(job_id, expect_revision=revision, result=rated)
    except JobNotFound:
        return
    except Exception:  # the answer stands without its rating
        log.exception("rating crashed", extra={"job_id": job_id, "stage": "rating"})
