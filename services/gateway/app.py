"""The gateway's FastAPI application."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse

from services import metrics
from services.contracts import Problem
from services.gateway.dependencies import get_store
from services.gateway.problems import install_problem_handlers, problem_response
from services.gateway.routers import health, jobs, overlay, review
from services.logs import configure_json_logging
from services.settings import get_settings

STATIC = Path(__file__).parent / "static"


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

    @app.middleware("http")
    async def limit_body(request: Request, call_next):
        # Refuse an oversized upload from its declared length, before reading it.
        declared = request.headers.get("content-length", "")
        limit = get_settings().max_upload_bytes + 64 * 1024  # room for multipart framing
        if declared.isdigit() and int(declared) > limit:
            return problem_response(Problem(
                status=413, title="Upload too large",
                detail=f"uploads are limited to {get_settings().max_upload_bytes} bytes"))
        return await call_next(request)

    @app.middleware("http")
    async def count_requests(request: Request, call_next):
        response = await call_next(request)
        route = request.scope.get("route")
        if route is not None and request.url.path != "/metrics":
            try:
                metrics.record_request(get_store().redis, request.method, route.path,
                                       response.status_code)
            except Exception:  # figures must never cost a request
                pass
        return response

    app.include_router(jobs.router)
    app.include_router(review.router)
    app.include_router(health.router)
    app.include_router(overlay.router)

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    return app


app = create_app()
