"""Hints: the next human-style step of a solved sudoku or killer, from where the person is.

The solver worker works out the whole path once it has stored a revision's answer (from
the givens plus the person's own digits, wrong ones named first) and keeps it with the
job; this route only reads it.
"""

from __future__ import annotations

from fastapi import APIRouter, Depends, Query

from services.contracts import VERDICT_WORDS, Hints
from services.gateway.dependencies import get_store, limit_read_rate, require_api_key
from services.gateway.ownership import OwnedJobId
from services.gateway.problems import ProblemError
from services.gateway.routers.jobs import PROBLEM_RESPONSES, find_job
from services.jobs import FINAL_STATES

router = APIRouter(prefix="/v1/jobs", tags=["hints"], dependencies=[Depends(require_api_key)])

HINT_RULE = """\
The step a person could take next, with the technique it uses (naked and hidden singles,
locked candidates, subsets, fish, wings, colouring, unique rectangles, chains; for killers
cage combinations, innies and outies, cage splitting), the cells that prove it, the digits
it places or removes, and one sentence. Rows and columns are 0-based in the JSON and
counted from 1 in the sentence (r4c5 = row 4, column 5).

It starts from the givens plus the person's own digits on a photographed half-solved page
(or as corrected). A digit of theirs that the solution contradicts comes first, as a step
of technique `wrong entry`. `all=true` gives every step to the end. Pencil notes are not
read as digits, so the steps assume every candidate the givens and digits allow.
"""


@router.post("/{job_id}/hint", response_model=Hints,
             responses=PROBLEM_RESPONSES | {409: PROBLEM_RESPONSES[422] | {
                 "description": "The job has not ended, its steps are "
                                "not worked out yet, or it has no single solution to give "
                                "hints towards"}},
             dependencies=[Depends(limit_read_rate)],
             summary="The next human-style step (all=true: the whole path), explained",
             description=HINT_RULE)
def hint(job_id: OwnedJobId, whole: bool = Query(False, alias="all",
                                                description="every step to the end")
         ) -> Hints:
    store = get_store()
    job = find_job(store, job_id)
    if job.status not in FINAL_STATES:
        raise ProblemError(409, "Job still running",
                           f"the job is {job.status}; ask for a hint once it is solved")
    result = job.result
    if result is None or result.kind == "nonogram":
        raise ProblemError(409, "No hints", "hints are for sudoku and killer sudoku jobs")
    path = store.hints(job_id, job.revision)
    if path is None and result.verdict == "unique" and result.difficulty is None:
        raise ProblemError(409, "Hints not ready",
                           "the steps are worked out after the answer is stored, which "
                           "takes a few seconds for a hard puzzle; ask again shortly (none "
                           "come for very large grids)")
    if path is None:
        raise ProblemError(409, "No hints",
                           "hints need a puzzle with exactly one solution, and as read "
                           f"{VERDICT_WORDS[result.verdict]}: correct the reading first")
    steps = path["steps"]
    return Hints(revision=job.revision, rating=path["rating"],
                 steps=steps if whole else steps[:1], remaining=len(steps))
