"""The gateway's FastAPI application."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse

from services import metrics
from services.contracts import Problem
from services.gateway.dependencies import get_async_redis
from services.gateway.problems import install_problem_handlers, problem_response
from services.gateway.routers import health, jobs, overlay, review
from services.logs import configure_json_logging
from services.settings import get_settings

STATIC = Path(__file__).parent / "static"


# Plain ASGI middleware: Starlette's @app.middleware("http") runs each request through
# extra tasks and queues, which cost more than these checks themselves.
class LimitBody:
    """Refuse an oversized upload from its declared length, before reading it."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            declared = dict(scope["headers"]).get(b"content-length", b"")
            limit = get_settings().max_upload_bytes + 64 * 1024  # room for multipart framing
            if declared.isdigit() and int(declared) > limit:
                response = problem_response(Problem(
                    status=413, title="Upload too large",
                    detail=f"uploads are limited to {get_settings().max_upload_bytes} bytes"))
                return await response(scope, receive, send)
        await self.app(scope, receive, send)


class CountRequests:
    """Count each answer by route and status in Redis, for /metrics."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        status = 500

        async def send_noting_status(message):
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        await self.app(scope, receive, send_noting_status)
        route = scope.get("route")
        if route is not None and scope["path"] != "/metrics":
            try:
                await get_async_redis().hincrby(
                    metrics.REQUESTS_KEY, metrics.request_field(scope["method"], route.path,
                                                                status), 1)
            except Exception:  # figures must never cost a request
                pass


def create_app() -> FastAPI:
    configure_json_logging()
    app = FastAPI(
        title="gridsight",
        summary="Reads sudoku, killer sudoku and nonograms from photos and solves them.",
        version="0.1.0",
    )
    install_problem_handlers(app)
    if get_settings().cors_origins:  # closed unless origins are named
        app.add_middleware(CORSMiddleware, allow_origins=get_settings().cors_origins,
                           allow_methods=["GET", "POST"], allow_headers=["*"])

    app.add_middleware(LimitBody)
    app.add_middleware(CountRequests)  # added last: outermost

    app.include_router(jobs.router)
    app.include_router(review.router)
    app.include_router(health.router)
    app.include_router(overlay.router)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    return app


app = create_app()
