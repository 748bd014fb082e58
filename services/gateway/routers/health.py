"""Liveness and readiness."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import JSONResponse, PlainTextResponse

from services import metrics
from services.gateway.dependencies import (
    get_async_redis,
    get_store,
    require_api_key,
    settings_dep,
)
from services.settings import Settings

router = APIRouter(tags=["health"])

# /healthz answers within this, whatever Redis does (down, restarting, paused).
HEALTH_REDIS_SECONDS = 0.5


@router.get("/healthz", summary="Whether the gateway and its Redis answer")
async def healthz() -> JSONResponse:
    try:
        await asyncio.wait_for(get_async_redis().ping(), HEALTH_REDIS_SECONDS)
    except Exception:
        return JSONResponse({"status": "unavailable", "redis": False}, status_code=503,
                            headers={"Retry-After": "2"})
    return JSONResponse({"status": "ok", "redis": True})


async def metrics_key(request: Request, settings: Settings = Depends(settings_dep),
                      x_api_key: str | None = Header(None)) -> None:
    if not settings.metrics_public:
        await require_api_key(request, settings, x_api_key)


@router.get("/metrics", response_class=PlainTextResponse,
            dependencies=[Depends(metrics_key)],
            summary="Requests, job outcomes, stage durations and queue depth (Prometheus)")
def prometheus_metrics() -> PlainTextResponse:
    return PlainTextResponse(metrics.exposition(get_store().redis),
                             media_type="text/plain; version=0.0.4")
