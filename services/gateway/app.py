"""The gateway's FastAPI application."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import re
from collections import Counter
from pathlib import Path

import redis
from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

from services import metrics
from services.contracts import Problem
from services.gateway.dependencies import get_async_redis
from services.gateway.memory import map_large_blocks
from services.gateway.problems import (
    HEADERS_TOO_LARGE,
    MAX_HEADER_BYTES,
    ProblemError,
    amount_of_bytes,
    install_problem_handlers,
    problem_response,
)
from services.gateway.routers import health, hints, jobs, overlay, review
from services.logs import configure_json_logging
from services.settings import Settings, get_settings

STATIC = Path(__file__).parent / "static"


# Plain ASGI middleware: Starlette's @app.middleware("http") runs each request through
# extra tasks and queues, which cost more than these checks themselves.
MULTIPART_FRAMING = 64 * 1024


def body_limit(scope, settings: Settings) -> tuple[int, str]:
    """The most bytes a request's body may have, and the 413's words for it."""
    if scope["method"] == "POST" and scope["path"].rstrip("/") == "/v1/jobs":
        content_type = dict(scope["headers"]).get(b"content-type", b"").lower()
        if content_type.startswith(b"multipart/"):
            return (settings.max_upload_bytes + MULTIPART_FRAMING, "pictures are limited to "
                    f"{amount_of_bytes(settings.max_upload_bytes)}")
        return settings.max_puzzle_bytes, ("typed-in puzzles are limited to "
                                           f"{amount_of_bytes(settings.max_puzzle_bytes)}")
    return settings.max_body_bytes, ("request bodies are limited to "
                                     f"{amount_of_bytes(settings.max_body_bytes)}")


class BodyTooLarge(ProblemError):
    def __init__(self, limit: int, words: str):
        # Closing the connection stops the client sending the rest of the body.
        super().__init__(413, "Request too large", words, headers={"Connection": "close"})


class LimitBody:
    """Refuse an oversized body: from its declared length before reading it, and by
    counting the bytes as they arrive (chunked uploads declare none), so that no route
    ever reads or spools more than its limit."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        settings = get_settings()
        if sum(len(name) + len(value) for name, value in scope["headers"]) > MAX_HEADER_BYTES:
            return await problem_response(HEADERS_TOO_LARGE, {"Connection": "close"})(
                scope, receive, send)
        limit, what = body_limit(scope, settings)
        declared = dict(scope["headers"]).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > limit:
            refusal = BodyTooLarge(limit, what)
            return await problem_response(refusal.problem, refusal.headers)(
                scope, receive, send)
        received = 0
        started = False
        body_done = False
        too_large: BodyTooLarge | None = None
        loop = asyncio.get_running_loop()
        began = loop.time()

        async def counting_receive():
            nonlocal received, body_done, too_large
            if body_done:  # waiting for a disconnect: no time limit
                return await receive()
            # Each part within the idle limit, and the whole at the least rate after it.
            allowed = (began + settings.body_idle_seconds
                       + received / max(1, settings.body_min_bytes_per_second) - loop.time())
            try:
                message = await asyncio.wait_for(
                    receive(), max(0.0, min(settings.body_idle_seconds, allowed)))
            except TimeoutError:
                raise ProblemError(408, "Request body too slow",
                                   f"the body must arrive with no pause of "
                                   f"{settings.body_idle_seconds:g} s and at "
                                   f"{amount_of_bytes(settings.body_min_bytes_per_second)}/s "
                                   "at least",
                                   headers={"Connection": "close"}) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                body_done = not message.get("more_body", False)
                if received > limit:
                    too_large = BodyTooLarge(limit, what)
                    raise too_large
            return message

        async def noting_send(message):
            nonlocal started
            if too_large is not None:
                # A route that caught the error while parsing answers 400 for a body
                # that was too large: the answer is the 413, whatever it says.
                if not started:
                    started = True
                    await problem_response(too_large.problem, too_large.headers)(
                        scope, receive, send)
                return
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counting_receive, noting_send)
        except ProblemError as exc:  # raised where no handler caught it
            if not started:
                await problem_response(exc.problem, exc.headers)(scope, receive, send)


class CountRequests:
    """Count each answer by route and status, for /metrics. The counts are kept in memory
    and added to Redis in one pipeline every COUNT_FLUSH_SECONDS, in the background and
    with a time limit: figures never hold up a request, even while Redis is paused, and
    do not cost a Redis call per request (one each was most of the pool's traffic under
    hundreds of long polls)."""

    def __init__(self, app):
        self.app = app
        self.counts: Counter[str] = Counter()
        self.flusher: asyncio.Task | None = None
        COUNTERS.append(self)  # flushed at shutdown too

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        if scope["path"] == "/metrics":
            await self.flush()  # this process's counts are in the figures it serves
            return await self.app(scope, receive, send)
        status = None

        async def send_noting_status(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, send_noting_status)
            status = status or CLIENT_CLOSED  # finished without answering: the client left
        except BaseException:
            status = status or 500
            raise
        finally:
            route = scope.get("route")
            path = route.path if route is not None else "unmatched"
            # Any word is a method to HTTP: unknown ones share a name, so the figures
            # have a bounded number of series.
            method = scope["method"] if scope["method"] in KNOWN_METHODS else "OTHER"
            self.counts[metrics.request_field(method, path, status)] += 1
            if self.flusher is None or self.flusher.done():
                self.flusher = asyncio.get_running_loop().create_task(self._flush_soon())

    async def _flush_soon(self) -> None:
        await asyncio.sleep(COUNT_FLUSH_SECONDS)
        await self.flush()

    async def flush(self) -> None:
        counts, self.counts = self.counts, Counter()
        if not counts:
            return
        try:
            async with get_async_redis().pipeline(transaction=False) as pipe:
                for field, count in counts.items():
                    pipe.hincrby(metrics.REQUESTS_KEY, field, count)
                await asyncio.wait_for(pipe.execute(), COUNT_SECONDS)
        except (ConnectionError, OSError, redis.ConnectionError):
            self.counts.update(counts)  # Redis away: counted at a later flush
        except Exception:  # figures never cost a request; a batch that timed out may
            pass           # have been counted, so it is dropped rather than counted twice


COUNTERS: list[CountRequests] = []


async def flush_counts() -> None:
    for counter in COUNTERS:
        await counter.flush()


COUNT_SECONDS = 1.0
COUNT_FLUSH_SECONDS = 0.5
KNOWN_METHODS = {"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"}
CLIENT_CLOSED = 499  # nginx's code for a client that went away before its answer


# The page loads only its own scripts and styles; pictures may also be data: or blob: URLs
# (previews). The interactive docs (Swagger UI, served from the package) run one inline
# script, allowed by its hash, and set styles of their own; /redoc loads from its CDN.
PAGE_POLICY = ("default-src 'self'; img-src 'self' data: blob:; object-src 'none'; "
               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
DOCS_POLICY = ("default-src 'self'; script-src 'self' {scripts}; "
               "style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; "
               "base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
DOCS_PATHS = ("/docs", "/redoc", "/docs/oauth2-redirect")


def docs_policy(html: str) -> str:
    """DOCS_POLICY allowing exactly the inline scripts of this page."""
    scripts = re.findall(r"<script>(.*?)</script>", html, flags=re.DOTALL)
    hashes = [base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
              for script in scripts]
    return DOCS_POLICY.format(scripts=" ".join(f"'sha256-{h}'" for h in hashes))
DOCS_ASSETS = "/docs-assets"
DOCS_SCHEMA = "/docs/openapi.json"  # the schema as the bundled Swagger UI reads it
UNSAFE_METHODS = {b"POST", b"PUT", b"PATCH", b"DELETE"}


class WebSecurity:
    """Security headers on every answer, and no cross-site writes: a browser's POST from
    another origin (its Origin header names another host) is refused unless that origin
    is allowed by CORS, so a page elsewhere cannot create jobs on a server without a key."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope["headers"])
        origin = headers.get(b"origin")
        if scope["method"].encode() in UNSAFE_METHODS and origin and not self._same_site(
                origin, headers.get(b"host", b"")):
            return await problem_response(Problem(
                status=403, title="Cross-site request refused",
                detail="this server takes writes from its own pages and from the origins "
                       "named in GRIDSIGHT_CORS_ORIGINS"))(scope, receive, send)
        docs = scope["path"] in DOCS_PATHS

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                extra = [(b"x-content-type-options", b"nosniff"),
                         (b"referrer-policy", b"no-referrer"),
                         (b"x-frame-options", b"DENY")]
                if not docs:
                    extra.append((b"content-security-policy", PAGE_POLICY.encode()))
                message = message | {"headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)

    @staticmethod
    def _same_site(origin: bytes, host: bytes) -> bool:
        text = origin.decode("latin-1")
        if text in get_settings().cors_origins:
            return True
        return text.split("://", 1)[-1].rstrip("/") == host.decode("latin-1")


def create_app() -> FastAPI:
    configure_json_logging()
    map_large_blocks()  # pictures drawn for overlays give their memory back when freed
    app = FastAPI(
        title="gridsight",
        summary="Reads sudoku, killer sudoku and nonograms from photos and solves them.",
        version="0.1.0",
        docs_url=None,  # served below from the package's own copy of Swagger UI
    )
    # Swagger UI ships with the package (swagger-ui-bundle): /docs loads nothing from a
    # CDN, so no third party can change the page that holds an API key.
    app.mount(DOCS_ASSETS, StaticFiles(directory=swagger_ui_path), name="docs-assets")

    # The bundled Swagger UI (4.x) renders no schema labelled OpenAPI 3.1, as FastAPI's
    # is; it reads the same schema labelled 3.0.3 well, so /docs gets that copy.
    @app.get(DOCS_SCHEMA, include_in_schema=False)
    def docs_schema() -> JSONResponse:
        return JSONResponse(app.openapi() | {"openapi": "3.0.3"})

    docs_page = get_swagger_ui_html(
        openapi_url=DOCS_SCHEMA, title="gridsight - API",
        swagger_js_url=f"{DOCS_ASSETS}/swagger-ui-bundle.js",
        swagger_css_url=f"{DOCS_ASSETS}/swagger-ui.css",
        swagger_favicon_url=f"{DOCS_ASSETS}/favicon-32x32.png").body.decode()
    docs_headers = {"Content-Security-Policy": docs_policy(docs_page)}

    @app.get("/docs", include_in_schema=False)
    def docs() -> HTMLResponse:
        return HTMLResponse(docs_page, headers=docs_headers)
    install_problem_handlers(app)
    if get_settings().cors_origins:  # closed unless origins are named
        app.add_middleware(CORSMiddleware, allow_origins=get_settings().cors_origins,
                           allow_methods=["GET", "POST", "PUT"], allow_headers=["*"])

    app.add_middleware(LimitBody)
    app.add_middleware(WebSecurity)
    app.add_middleware(CountRequests)  # added last: outermost
    app.router.on_shutdown.append(flush_counts)

    app.include_router(jobs.router)
    app.include_router(review.router)
    app.include_router(hints.router)
    app.include_router(health.router)
    app.include_router(overlay.router)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    return app


app = create_app()
