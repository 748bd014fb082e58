"""The review loop: a person's corrections start a new revision, solved again."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Response

from services.contracts import SOLVE_TASK, Corrections, Job, JobCreated
from services.corrections import CorrectionError, as_fixed, check_corrections, merge
from services.gateway.dependencies import (
    get_sender,
    get_store,
    limit_job_rate,
    require_api_key,
)
from services.gateway.ownership import OwnedJobId
from services.gateway.problems import ProblemError
from services.gateway.routers.jobs import PROBLEM_RESPONSES, find_job, queue_or_fail
from services.jobs import FINAL_STATES

CHECKS = """\
Rows and columns are 0-based here; messages count them from 1, as people do ("row 1,
column 3"), except a place outside the grid, which they give as sent (`"row": 9`).

The rule: **what a person typed is certain**, and confident readings (90 % and more) are
never rewritten to make room for it. Only readings the recognizer was unsure of may still
be repaired, and each one changed is listed in `suspects`.

* A typed digit that clashes with a confident reading ends the new revision as
  `needs_review` with verdict `none`: `conflicts` names the clash ("your 6 at row 1,
  column 2 clashes with the 6 read at row 1, column 5") and `suspects` lists the confident
  reading, so either side can be corrected.
* Corrections that cannot hold on their own are refused with 422 and a message: a digit
  typed twice in one row, column or box, or a cage sum its cage cannot make (30 for two
  cells of a 9x9 grid).
* A nonogram is corrected line by line: `clues` holds whole clues, e.g.
  `{"line": "row", "index": 2, "clue": [3, 1]}` (`[]` or `[0]` for an empty line), which
  replace every number read on that line, so a number missed or read in excess is mended
  too. A clue longer than its line, or rows and columns all typed with different totals,
  is refused with 422.
"""

CORRECTIONS_RULE = CHECKS + """
These corrections are added to those in force: later corrections of the same reading
replace earlier ones. `PUT` on this address replaces them all (to take one back), and
`POST /v1/jobs/{id}/reset` drops them all and solves the reading as it was read.
"""

REPLACE_RULE = """\
The body is the whole set of corrections the job is to have, in place of those in force
(which `POST` would add to): a client takes back its last correction by sending the ones
before it (undo), and an empty body (`{}`, or every list empty) solves the reading as it
was read, as `POST /v1/jobs/{id}/reset` does. Each call is a new revision, as a `POST` is,
and is checked the same way: the whole set must hold.

""" + CHECKS

CORRECTION_RESPONSES = PROBLEM_RESPONSES | {409: PROBLEM_RESPONSES[422] | {
    "description": "The job has no reading to correct yet, or is still running"}}

router = APIRouter(prefix="/v1/jobs", tags=["review"], dependencies=[Depends(require_api_key)])


@router.post("/{job_id}/corrections", status_code=202, response_model=JobCreated,
             responses=CORRECTION_RESPONSES,
             dependencies=[Depends(limit_job_rate)],
             summary="Correct readings (cells, cage sums, walls, nonogram clues) and solve again",
             description=CORRECTIONS_RULE)
def correct_job(job_id: OwnedJobId, fixes: Corrections, response: Response) -> JobCreated:
    store = get_store()
    job = correctable(store, job_id)
    return solve_again(store, job, checked(job, merge(job.corrections, fixes)), response)


@router.put("/{job_id}/corrections", status_code=202, response_model=JobCreated,
            responses=CORRECTION_RESPONSES, dependencies=[Depends(limit_job_rate)],
            summary="Replace every correction with these (undo: send the ones to keep) and "
                    "solve again",
            description=REPLACE_RULE)
def replace_corrections(job_id: OwnedJobId, fixes: Corrections,
                        response: Response) -> JobCreated:
    store = get_store()
    job = correctable(store, job_id)
    kept = checked(job, fixes)
    # No correction left is the reading as read: the same job as after a reset.
    empty = not any((kept.cells, kept.cage_sums, kept.walls, kept.clues))
    return solve_again(store, job, None if empty else kept, response)


def checked(job: Job, fixes: Corrections) -> Corrections:
    """`fixes`, or the 422 problem saying in words why they cannot hold."""
    try:
        check_corrections(job.reading, fixes)
    except CorrectionError as exc:
        raise ProblemError(422, "Invalid corrections", str(exc)) from exc
    return fixes


@router.post("/{job_id}/reset", status_code=202, response_model=JobCreated,
             responses=CORRECTION_RESPONSES,
             dependencies=[Depends(limit_job_rate)],
             summary="Back to the original reading: drop every correction, solve again")
def undo_corrections(job_id: OwnedJobId, response: Response) -> JobCreated:
    store = get_store()
    return solve_again(store, correctable(store, job_id), None, response)


def correctable(store, job_id: str) -> Job:
    job = find_job(store, job_id)
    if job.reading is None:
        raise ProblemError(409, "Nothing to correct",
                           "this job has no reading (still being read, a typed-in puzzle, "
                           "or the picture could not be read)")
    if job.status not in FINAL_STATES:
        raise ProblemError(409, "Job still running",
                           f"the job is {job.status}; correct it once it has finished")
    return job


def solve_again(store, job: Job, fixes: Corrections | None, response: Response) -> JobCreated:
    """A new revision: the reading as read, with `fixes` as certain readings."""
    revision = job.revision + 1
    job_id = job.id
    job = store.update(job_id, expect_revision=job.revision, revision=revision,
                       status="solving", corrections=fixes, error=None, result=None)
    if job is None:
        raise ProblemError(409, "Job changed", "the job was corrected meanwhile; try again")
    queue_or_fail(store, job, lambda: get_sender().send_task(
        SOLVE_TASK, args=(job.reading.model_dump(mode="json"),),
        kwargs={"job_id": job_id, "revision": revision,
                "fixed": as_fixed(fixes) if fixes else None}))
    response.headers["Location"] = f"/v1/jobs/{job_id}"
    return JobCreated(id=job_id, status=job.status)
