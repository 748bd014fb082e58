"""/v1/jobs: post a picture or a typed-in puzzle, then poll the job."""

from __future__ import annotations

import io
import json
import logging
import warnings

from celery import chain
from fastapi import APIRouter, Depends, Query, Request, Response
from fastapi.concurrency import run_in_threadpool
from PIL import Image, UnidentifiedImageError
from starlette.exceptions import HTTPException as StarletteHTTPException

from services.contracts import (
    RECOGNIZE_TASK,
    SOLVE_TASK,
    Job,
    JobCreated,
    Problem,
    RequestedKind,
)
from services.gateway.dependencies import (
    get_sender,
    get_store,
    limit_job_rate,
    limit_read_rate,
    require_api_key,
    settings_dep,
)
from services.gateway.ownership import OwnedJobId, job_not_found, new_owned_job_id
from services.gateway.problems import PROBLEM_JSON, ProblemError, amount_of_bytes, excerpt
from services.gateway.waiting import job_events
from services.jobs import FINAL_STATES, JobNotFound, JobStore
from services.queue import typed_puzzle_queue
from services.settings import Settings

log = logging.getLogger("gridsight.gateway")
router = APIRouter(prefix="/v1/jobs", tags=["jobs"], dependencies=[Depends(require_api_key)])

IMAGE_KINDS = ("auto", "sudoku", "killer")
PUZZLE_KINDS = ("auto", "sudoku", "killer", "nonogram")
# MPO is a JPEG with more pictures after the first, what many cameras write as .jpg.
IMAGE_FORMATS = {"JPEG": "image/jpeg", "MPO": "image/jpeg", "PNG": "image/png",
                 "WEBP": "image/webp", "BMP": "image/bmp", "TIFF": "image/tiff"}
# A square grid in a picture longer than this many times its width would have cells
# too small to read (and such strips break image scaling).
MAX_ASPECT = 16
PICTURE_DELETED = ("the picture was deleted when the job ended (a failed job's upload is "
                   "never kept, and the sender may ask for it not to be)")

PROBLEM_RESPONSES = {
    code: {"model": Problem, "content": {PROBLEM_JSON: {}}, "description": text}
    for code, text in {
        400: "The request body could not be parsed",
        401: "API key missing or wrong",
        404: "No such job (it expired, was deleted, or belongs to another API key)",
        413: "Upload too large",
        415: "Not a supported image or puzzle format",
        422: "Invalid request",
        429: "Too many jobs from this client",
        503: "The queue is unavailable",
    }.items()
}

UPLOAD_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "required": ["image"],
                    "properties": {
                        "image": {"type": "string", "format": "binary",
                                  "description": "Photo or screenshot: JPEG, PNG, WebP, "
                                                 "BMP or TIFF"},
                        "kind": {"type": "string", "enum": list(IMAGE_KINDS), "default": "auto"},
                        "keep_image": {"type": "boolean", "default": True,
                                       "description": "false: delete the picture as soon "
                                                      "as the job ends (no overlay then)"},
                    },
                }
            },
            "application/json": {
                "schema": {"type": "object",
                           "description": "A puzzle: sudoku (`givens` or `grid` text), killer "
                                          "(`cages`), or nonogram (`rows`/`cols` or "
                                          "`Rows`/`Cols`). Optional `kind`."}
            },
            "text/plain": {"schema": {"type": "string",
                                      "description": "A sudoku as one 81-character line "
                                                     "or as rows of digits"}},
        },
    }
}


def check_kind(kind: str, allowed: tuple[str, ...]) -> RequestedKind:
    if kind not in allowed:
        raise ProblemError(422, "Unknown kind",
                           f"kind must be one of {', '.join(allowed)}; got {excerpt(kind)}")
    return kind  # type: ignore[return-value]


def check_image(data: bytes, settings: Settings) -> None:
    """Refuse what the recognizer cannot or must not decode, reading only the header."""
    if not data:
        raise ProblemError(422, "Empty upload", "the image field holds no bytes")
    if len(data) > settings.max_upload_bytes:
        raise ProblemError(413, "Upload too large",
                           f"this picture is {amount_of_bytes(len(data))}; pictures are "
                           f"limited to {amount_of_bytes(settings.max_upload_bytes)}")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as img:
                fmt, (width, height) = img.format, img.size
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise ProblemError(413, "Image too large",
                           "the picture has more than "
                           f"{(Image.MAX_IMAGE_PIXELS or 0) / 1e6:.0f} megapixels, and a "
                           f"picture may have {settings.max_image_pixels / 1e6:g}; send a "
                           "smaller picture") from exc
    except (UnidentifiedImageError, OSError, ValueError) as exc:
        raise ProblemError(415, "Not a supported image",
                           "send a JPEG, PNG, WebP, BMP or TIFF photo or screenshot") from exc
    if fmt not in IMAGE_FORMATS:
        raise ProblemError(415, "Not a supported image",
                           f"{fmt} images are not accepted; send JPEG, PNG, WebP, BMP or TIFF")
    if width * height > settings.max_image_pixels:
        raise ProblemError(413, "Image too large",
                           f"{width}x{height} pixels ({width * height / 1e6:.0f} "
                           "megapixels) is more than the "
                           f"{settings.max_image_pixels / 1e6:g} megapixels a picture may "
                           "have; send a smaller picture")
    if min(width, height) < 32:
        raise ProblemError(422, "Image too small",
                           f"{width}x{height} pixels cannot hold a readable puzzle")
    if max(width, height) > MAX_ASPECT * min(width, height):
        raise ProblemError(422, "Image too narrow",
                           f"a {width}x{height} picture cannot hold a square grid that can be "
                           "read; crop it to the puzzle")


def queue_or_fail(store: JobStore, job: Job, send) -> None:
    """Send the job's tasks; if the queue is down, the job fails visibly instead of hanging."""
    try:
        send()
    except Exception as exc:
        store.update(job.id, status="failed", error="the job queue is unavailable; try again")
        raise ProblemError(503, "Queue unavailable", "could not queue the job; try again") from exc


def accepted(job: Job, response: Response) -> JobCreated:
    log.info("job queued", extra={"job_id": job.id, "kind": job.kind})
    response.status_code = 202
    response.headers["Location"] = f"/v1/jobs/{job.id}"
    return JobCreated(id=job.id, status=job.status)


@router.post("", status_code=202, response_model=JobCreated, openapi_extra=UPLOAD_BODY,
             responses=PROBLEM_RESPONSES, dependencies=[Depends(limit_job_rate)],
             summary="Upload a photo, screenshot or typed-in puzzle to be solved")
async def create_job(request: Request, response: Response,
                     settings: Settings = Depends(settings_dep),
                     key: str | None = Depends(require_api_key)) -> JobCreated:
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    job_id = new_owned_job_id(key)
    store, sender = get_store(), get_sender()
    if content_type == "multipart/form-data":
        try:
            form = await request.form(max_files=1, max_fields=4,
                                      max_part_size=settings.max_upload_bytes + 1)
        except StarletteHTTPException as exc:  # malformed multipart, too many parts
            raise ProblemError(422, "Malformed upload", str(exc.detail)) from exc
        upload = form.get("image")
        if upload is None or isinstance(upload, str):
            raise ProblemError(422, "Missing image", "send the picture in the multipart "
                                                     "field 'image'")
        kind = check_kind(str(form.get("kind") or "auto"), IMAGE_KINDS)
        keep_image = check_flag("keep_image", form.get("keep_image"))
        data = await upload.read(settings.max_upload_bytes + 1)
        check_image(data, settings)
        # Storing and queueing block on Redis: in the thread pool, never on the event loop.
        job = await run_in_threadpool(store.create, kind, image=data, job_id=job_id,
                                      keep_image=keep_image)
        await run_in_threadpool(queue_or_fail, store, job, lambda: chain(
            sender.signature(RECOGNIZE_TASK, args=(job.id, kind)),
            sender.signature(SOLVE_TASK, kwargs={"job_id": job.id, "revision": 1}),
        ).apply_async())
        return accepted(job, response)
    if content_type in ("application/json", "text/plain"):
        body = await request.body()
        if len(body) > settings.max_puzzle_bytes:
            raise ProblemError(413, "Puzzle too large",
                               "typed-in puzzles are limited to "
                               f"{amount_of_bytes(settings.max_puzzle_bytes)}")
        text = body.decode("utf-8", errors="replace")
        kind = request.query_params.get("kind", "auto")
        if content_type == "application/json":
            document = parse_json(text)
            if not isinstance(document, dict):
                raise ProblemError(422, "Invalid puzzle", "send one puzzle as a JSON object")
            kind = str(document.get("kind", kind))
        kind = check_kind(kind, PUZZLE_KINDS)
        job = await run_in_threadpool(store.create, kind, puzzle_text=text, job_id=job_id)
        await run_in_threadpool(queue_or_fail, store, job, lambda: sender.send_task(
            SOLVE_TASK, args=(None,),
            kwargs={"job_id": job.id, "revision": 1, "puzzle_text": text, "kind": kind},
            queue=typed_puzzle_queue(text, settings),
        ))
        return accepted(job, response)
    raise ProblemError(415, "Unsupported content type",
                       "send multipart/form-data with an 'image' field, or a puzzle as "
                       "application/json or text/plain")


def check_flag(name: str, value) -> bool:
    text = "true" if value is None else str(value).strip().lower()
    if text not in ("true", "false"):
        raise ProblemError(422, f"Invalid {name}",
                           f"{name} must be true or false; got {excerpt(text)}")
    return text == "true"


def parse_json(text: str):
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ProblemError(422, "Invalid JSON", f"{exc.msg} at line {exc.lineno}, "
                                                f"column {exc.colno}") from exc
    except RecursionError as exc:
        raise ProblemError(422, "Invalid JSON", "the document is nested too deeply") from exc
    except ValueError as exc:  # e.g. an integer of more digits than Python converts
        raise ProblemError(422, "Invalid JSON", "a number in the document is too long") from exc


def find_job(store: JobStore, job_id: str) -> Job:
    try:
        return store.get(job_id)
    except JobNotFound as exc:
        raise job_not_found(job_id) from exc


MAX_WAIT_SECONDS = 60


@router.get("/{job_id}", response_model=Job, responses=PROBLEM_RESPONSES,
            dependencies=[Depends(limit_read_rate)],
            summary="A job's state, and its reading and result when done")
async def read_job(job_id: OwnedJobId, wait: float = Query(
        0, ge=0, le=MAX_WAIT_SECONDS,
        description="Seconds to hold the answer until the job has ended (long polling): "
                    "it comes as soon as the job is solved, needs review or failed, or "
                    "with the job as it is when the time is up. 0 answers at once.")
) -> Response:
    # Clients poll this: the stored document was validated when written, so it is sent
    # as it is rather than parsed and serialised again on every poll.
    events = job_events()
    try:
        document = await (events.wait_until_final(job_id, wait) if wait > 0
                          else events.document(job_id))
        return Response(document, media_type="application/json")
    except JobNotFound as exc:
        raise job_not_found(job_id) from exc


@router.get("/{job_id}/image", responses=PROBLEM_RESPONSES | {
    200: {"content": {mime: {} for mime in IMAGE_FORMATS.values()}}},
    response_class=Response, summary="The uploaded picture",
    dependencies=[Depends(limit_read_rate)])
def read_image(job_id: OwnedJobId) -> Response:
    store = get_store()
    if find_job(store, job_id).image_deleted:
        raise ProblemError(404, "No image", PICTURE_DELETED)
    try:
        data = store.image(job_id)
    except JobNotFound as exc:
        raise ProblemError(404, "No image", "this job was a typed-in puzzle") from exc
    with Image.open(io.BytesIO(data)) as img:
        mime = IMAGE_FORMATS.get(img.format or "", "application/octet-stream")
    return Response(data, media_type=mime)


@router.delete("/{job_id}", status_code=204, response_class=Response,
               responses=PROBLEM_RESPONSES | {409: PROBLEM_RESPONSES[422] | {
                   "description": "The job is still running"}},
               dependencies=[Depends(limit_read_rate)],
               summary="Delete an ended job, its upload and its overlays")
def delete_job(job_id: OwnedJobId) -> Response:
    store = get_store()
    job = find_job(store, job_id)
    if job.status not in FINAL_STATES:
        # Its task would find nothing to write to; it ends within the time limits.
        raise ProblemError(409, "Job still running",
                           f"the job is {job.status}; delete it once it has ended")
    if not store.delete(job_id):
        raise job_not_found(job_id)
    log.info("job deleted", extra={"job_id": job_id})
    return Response(status_code=204)
