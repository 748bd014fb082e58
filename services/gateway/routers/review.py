"""The review loop: a person's corrections start a new revision, solved again."""

from __future__ import annotations

from fastapi import APIRouter, Depends, Response

from services.contracts import SOLVE_TASK, Corrections, JobCreated
from services.corrections import CorrectionError, apply_corrections, merge
from services.gateway.dependencies import (
    get_sender,
    get_store,
    limit_job_rate,
    require_api_key,
)
from services.gateway.problems import ProblemError
from services.gateway.routers.jobs import PROBLEM_RESPONSES, JobId, find_job, queue_or_fail
from services.jobs import FINAL_STATES

router = APIRouter(prefix="/v1/jobs", tags=["review"], dependencies=[Depends(require_api_key)])


@router.post("/{job_id}/corrections", status_code=202, response_model=JobCreated,
             responses=PROBLEM_RESPONSES | {409: PROBLEM_RESPONSES[422] | {
                 "description": "The job has no reading to correct yet"}},
             dependencies=[Depends(limit_job_rate)],
             summary="Correct readings (cells, cage sums, walls) and solve again")
def correct_job(job_id: JobId, fixes: Corrections, response: Response) -> JobCreated:
    store = get_store()
    job = find_job(store, job_id)
    if job.reading is None:
        raise ProblemError(409, "Nothing to correct",
                           "this job has no reading (still being read, a typed-in puzzle, "
                           "or the picture could not be read)")
    if job.status not in FINAL_STATES:
        raise ProblemError(409, "Job still running",
                           f"the job is {job.status}; correct it once it has finished")
    merged = merge(job.corrections, fixes)
    try:
        corrected = apply_corrections(job.reading, merged)
    except CorrectionError as exc:
        raise ProblemError(422, "Invalid corrections", str(exc)) from exc
    revision = job.revision + 1
    job = store.update(job_id, expect_revision=job.revision, revision=revision,
                       status="solving", corrections=merged, error=None, result=None)
    if job is None:
        raise ProblemError(409, "Job changed", "the job was corrected meanwhile; try again")
    queue_or_fail(store, job, lambda: get_sender().send_task(
        SOLVE_TASK, args=(corrected.model_dump(mode="json"),),
        kwargs={"job_id": job_id, "revision": revision}))
    response.headers["Location"] = f"/v1/jobs/{job_id}"
    return JobCreated(id=job_id, status=job.status)
