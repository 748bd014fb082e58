"""Errors as RFC 9457 problem details (`application/problem+json`)."""

from __future__ import annotations

import logging

import redis
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from services.contracts import Problem

PROBLEM_JSON = "application/problem+json"
log = logging.getLogger("gridsight.gateway")
# An error never echoes a client's input beyond a short excerpt, nor lists more than a
# few of its faults: a large bad body must not make a larger answer.
EXCERPT_CHARS = 40
MAX_LISTED_ERRORS = 10
MAX_MESSAGE_CHARS = 200
MAX_HEADER_BYTES = 16 * 1024  # all request headers together


def amount_of_bytes(n: int) -> str:
    """A size as people read it: "10 MB", "256 KB" (binary units, as file managers
    count), not 10485760 bytes."""
    for unit, size in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return f"{n} bytes"


HEADERS_TOO_LARGE = Problem(status=431, title="Headers too large",
                            detail="request headers are limited to "
                            f"{amount_of_bytes(MAX_HEADER_BYTES)}")


def excerpt(value: object, chars: int = EXCERPT_CHARS) -> str:
    """repr() of a client's value, cut to a few characters."""
    text = repr(value) if not isinstance(value, str) else value
    shown = text[:chars] + ("…" if len(text) > chars else "")
    return repr(shown) if isinstance(value, str) else shown


class ProblemError(Exception):
    """Raise from a route to answer with a problem document."""

    def __init__(self, status: int, title: str, detail: str = "",
                 headers: dict[str, str] | None = None, **extra):
        super().__init__(detail or title)
        self.problem = Problem(status=status, title=title, detail=detail, **extra)
        self.headers = headers


def problem_response(problem: Problem, headers: dict | None = None) -> JSONResponse:
    return JSONResponse(problem.model_dump(), status_code=problem.status,
                        media_type=PROBLEM_JSON, headers=headers)


def install_problem_handlers(app: FastAPI) -> None:
    @app.exception_handler(ProblemError)
    async def on_problem(_: Request, exc: ProblemError):
        return problem_response(exc.problem, headers=exc.headers)

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, exc: StarletteHTTPException):
        title = {404: "Not found", 405: "Method not allowed"}.get(exc.status_code, "HTTP error")
        headers = getattr(exc, "headers", None)
        if exc.status_code == 405:
            headers = (headers or {}) | {"Allow": allowed_methods(request)}
        return problem_response(
            Problem(status=exc.status_code, title=title, detail=str(exc.detail)),
            headers=headers,
        )

    @app.exception_handler(RequestValidationError)
    async def on_invalid(_: Request, exc: RequestValidationError):
        found = exc.errors()
        errors = [
            {"loc": [part[:EXCERPT_CHARS] if isinstance(part, str) else part
                     for part in list(e.get("loc", ()))[:8]],
             "msg": in_words(e)[:MAX_MESSAGE_CHARS]}
            for e in found[:MAX_LISTED_ERRORS]
        ]
        detail = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in errors)
        if len(found) > MAX_LISTED_ERRORS:
            detail += f"; and {len(found) - MAX_LISTED_ERRORS} more"
        return problem_response(
            Problem(status=422, title="Invalid request", detail=detail, errors=errors)
        )

    @app.exception_handler(redis.RedisError)
    async def on_job_store_down(request: Request, exc: redis.RedisError):
        # Redis restarting or unreachable: the client may simply try again.
        log.warning("job store unavailable: %s", exc, extra={
            "path": request.url.path, "error_type": type(exc).__name__})
        return problem_response(
            Problem(status=503, title="Job store unavailable",
                    detail="the job store did not answer; try again shortly"),
            headers={"Retry-After": "2"})

    @app.exception_handler(Exception)
    async def on_unexpected(request: Request, exc: Exception):
        log.error("unexpected error", exc_info=exc, extra={"path": request.url.path})
        return problem_response(
            Problem(status=500, title="Internal error", detail=type(exc).__name__)
        )


def in_words(error: dict) -> str:
    """A validation error's message, in a person's words where pydantic's name a regex."""
    if error.get("type") == "string_pattern_mismatch" and \
            list(error.get("loc", ()))[-1:] == ["job_id"]:
        return ("this is no job id (a job id is 16-64 letters, digits, '-' or '_', as "
                "returned when the job was created)")
    return error.get("msg", "")


def allowed_methods(request: Request) -> str:
    """Every method of every route at this path: Starlette's 405 names only the first
    route's (GET and DELETE /v1/jobs/{id} are two routes)."""
    methods: set[str] = set()
    for route in request.app.routes:
        match, _ = route.matches(request.scope)
        if match != Match.NONE:
            methods |= getattr(route, "methods", None) or set()
    return ", ".join(sorted(methods))
