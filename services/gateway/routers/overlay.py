"""The solution drawn into the uploaded picture (drawn once per job revision, kept in
Redis with the job), and the web page's static files."""

from __future__ import annotations

import time
from pathlib import Path as FilePath

from fastapi import APIRouter, Depends, Path, Request, Response
from fastapi.responses import FileResponse

from services.contracts import Job
from services.gateway.dependencies import get_store, limit_read_rate, require_api_key
from services.gateway.overlay import OverlayError, draw_overlay
from services.gateway.ownership import OwnedJobId
from services.gateway.problems import ProblemError
from services.gateway.routers.jobs import PICTURE_DELETED, PROBLEM_RESPONSES, find_job
from services.jobs import JobNotFound, JobStore, image_key, job_key, overlay_key

router = APIRouter(tags=["overlay"])

STATIC = FilePath(__file__).resolve().parent.parent / "static"
STATIC_TYPES = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml",
                ".png": "image/png"}


SCREEN_SIDE = 1600  # long side of the JPEG and WebP overlays: enough for any screen
# Long side of the PNG overlay, the one at the upload's own size: a 12 MP phone photo
# keeps its size, a 40 MP one is drawn at this (38 MB a copy, not 120 MB).
FULL_SIDE = 4096
OVERLAY_TYPES = {"png": "image/png", "jpeg": "image/jpeg", "webp": "image/webp"}
# How long a request waits for another one drawing the same picture (large pictures are
# drawn one at a time, so the drawing it waits for may itself be waiting its turn).
RENDER_WAIT_SECONDS = 120.0


def cached_overlay(store: JobStore, job: Job, fmt: str) -> bytes:
    """The overlay of this job revision, drawn once and kept in Redis as long as the job.

    A revision's result never changes, so its picture never does. Concurrent requests
    for the same picture wait for the one that draws it, so one large upload costs one
    drawing however often it is fetched.
    """
    key = overlay_key(job.id, job.revision, fmt)
    cached = store.redis.get(key)
    if cached is not None:
        return cached
    lock = key + ":drawing"
    deadline = time.monotonic() + RENDER_WAIT_SECONDS
    while not store.redis.set(lock, 1, nx=True, ex=int(RENDER_WAIT_SECONDS)):
        # Another request draws it: wait for its picture; draw it here only if that
        # request ended without one (its lock gone) or never ends.
        time.sleep(0.1)
        cached = store.redis.get(key)
        if cached is not None:
            return cached
        if time.monotonic() > deadline:
            break
    try:
        cached = store.redis.get(key)  # drawn by a request that held the lock before
        if cached is not None:
            return cached
        image = store.image(job.id)
        data = draw_overlay(image, job.reading, job.result, job.corrections, fmt,
                            FULL_SIDE if fmt == "png" else SCREEN_SIDE)
        left = store.redis.ttl(job_key(job.id))
        if left > 0:  # kept as long as the job, and not at all once it is gone
            store.redis.set(key, data, ex=left)
            if not store.redis.exists(image_key(job.id)):
                store.redis.delete(key)  # the picture was deleted while this was drawn
        return data
    finally:
        store.redis.delete(lock)


def overlay_response(job_id: str, fmt: str, request: Request) -> Response:
    store = get_store()
    job = find_job(store, job_id)
    if job.reading is None or job.reading.cell_quads is None:
        raise ProblemError(409, "No reading to draw on",
                           f"the job is {job.status}; its picture has not been read "
                           "(yet), or it was a typed-in puzzle")
    if job.image_deleted:
        raise ProblemError(404, "No image", PICTURE_DELETED)
    if job.result is None or not job.result.solution:
        raise ProblemError(409, "No solution yet",
                           f"the job is {job.status}; there is no solution to draw")
    # A new revision draws a different picture at the same address.
    headers = {"Cache-Control": "no-cache", "ETag": f'"{job_id}-{job.revision}-{fmt}"'}
    if request.headers.get("if-none-match") == headers["ETag"]:
        return Response(status_code=304, headers=headers)
    try:
        data = cached_overlay(store, job, fmt)
    except JobNotFound as exc:
        raise ProblemError(404, "No image", "the job's picture has expired or was "
                                            "deleted") from exc
    except OverlayError as exc:
        raise ProblemError(409, "Nothing to draw", str(exc)) from exc
    return Response(data, media_type=OVERLAY_TYPES[fmt], headers=headers)


def overlay_responses(fmt: str, what: str) -> dict:
    return PROBLEM_RESPONSES | {
        200: {"content": {OVERLAY_TYPES[fmt]: {}}, "description": what},
        409: PROBLEM_RESPONSES[422] | {
            "description": "The job has no picture, reading or solution yet"}}


@router.get("/v1/jobs/{job_id}/overlay.jpg", response_class=Response,
            dependencies=[Depends(require_api_key), Depends(limit_read_rate)],
            responses=overlay_responses("jpeg", "The upload with the solution drawn in, "
                                                f"at most {SCREEN_SIDE} px long"),
            summary="The solution drawn into the picture, sized for screens (JPEG)")
def read_overlay_jpeg(job_id: OwnedJobId, request: Request) -> Response:
    return overlay_response(job_id, "jpeg", request)


@router.get("/v1/jobs/{job_id}/overlay.webp", response_class=Response,
            dependencies=[Depends(require_api_key), Depends(limit_read_rate)],
            responses=overlay_responses("webp", "The upload with the solution drawn in, "
                                                f"at most {SCREEN_SIDE} px long"),
            summary="The solution drawn into the picture, sized for screens (WebP)")
def read_overlay_webp(job_id: OwnedJobId, request: Request) -> Response:
    return overlay_response(job_id, "webp", request)


@router.get("/v1/jobs/{job_id}/overlay.png", response_class=Response,
            dependencies=[Depends(require_api_key), Depends(limit_read_rate)],
            responses=overlay_responses("png", "The upload with the solution drawn in, "
                                               f"at its own size up to {FULL_SIDE} px long"),
            summary="The solution drawn into the uploaded picture, at its own size up to "
                    f"{FULL_SIDE} px long (PNG)")
def read_overlay(job_id: OwnedJobId, request: Request) -> Response:
    return overlay_response(job_id, "png", request)


@router.get("/static/{name}", include_in_schema=False)
def static_file(name: str = Path(pattern=r"^[a-z0-9][a-z0-9_-]*\.(js|css|svg|png)$")):
    path = STATIC / name
    if not path.is_file():
        raise ProblemError(404, "Not found", f"no static file {name!r}")
    return FileResponse(path, media_type=STATIC_TYPES[path.suffix],
                        headers={"Cache-Control": "no-cache"})
