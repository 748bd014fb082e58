"""The solution drawn into the uploaded picture, and the web page's static files."""

from __future__ import annotations

from pathlib import Path as FilePath

from fastapi import APIRouter, Depends, Path, Response
from fastapi.responses import FileResponse

from services.gateway.dependencies import get_store, limit_read_rate, require_api_key
from services.gateway.overlay import OverlayError, draw_overlay
from services.gateway.problems import ProblemError
from services.gateway.routers.jobs import PROBLEM_RESPONSES, JobId, find_job
from services.jobs import JobNotFound

router = APIRouter(tags=["overlay"])

STATIC = FilePath(__file__).resolve().parent.parent / "static"
STATIC_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml",
                ".png": "image/png"}


@router.get("/v1/jobs/{job_id}/overlay.png", response_class=Response,
            dependencies=[Depends(require_api_key), Depends(limit_read_rate)],
            responses=PROBLEM_RESPONSES | {
                200: {"content": {"image/png": {}},
                      "description": "The upload with the missing digits drawn in"},
                409: PROBLEM_RESPONSES[422] | {
                    "description": "The job has no picture, reading or solution yet"}},
            summary="The solution drawn into the uploaded picture, in perspective")
def read_overlay(job_id: JobId) -> Response:
    store = get_store()
    job = find_job(store, job_id)
    if job.reading is None or job.reading.cell_quads is None:
        raise ProblemError(409, "No reading to draw on",
                           f"the job is {job.status}; its picture has not been read "
                           "(yet), or it was a typed-in puzzle")
    if job.result is None or not job.result.solution:
        raise ProblemError(409, "No solution yet",
                           f"the job is {job.status}; there is no solution to draw")
    try:
        image = store.image(job_id)
    except JobNotFound as exc:
        raise ProblemError(404, "No image", "the job's picture has expired") from exc
    try:
        png = draw_overlay(image, job.reading, job.result)
    except OverlayError as exc:
        raise ProblemError(409, "Nothing to draw", str(exc)) from exc
    # A new revision draws a different picture at the same address.
    return Response(png, media_type="image/png", headers={
        "Cache-Control": "no-cache", "ETag": f'"{job_id}-{job.revision}"'})


@router.get("/static/{name}", include_in_schema=False)
def static_file(name: str = Path(pattern=r"^[a-z0-9][a-z0-9_-]*\.(js|css|svg|png)$")):
    path = STATIC / name
    if not path.is_file():
        raise ProblemError(404, "Not found", f"no static file {name!r}")
    return FileResponse(path, media_type=STATIC_TYPES[path.suffix],
                        headers={"Cache-Control": "no-cache"})
