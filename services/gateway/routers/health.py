"""Liveness and readiness."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Depends, Header, Request
from fastapi.responses import JSONResponse, PlainTextResponse

from services import metrics
from services.gateway.consumers import QUEUES, consumers
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


@router.get("/healthz", summary="Whether Redis answers and every queue has a live worker")
async def healthz() -> JSONResponse:
    """200 when Redis answers and every queue is consumed by a worker that answered
    within the last seconds; 503 otherwise. Each queue comes with its depth (tasks
    waiting) and its live workers."""
    client = get_async_redis()
    try:
        async with client.pipeline(transaction=False) as pipe:
            pipe.ping()
            for queue in QUEUES:
                pipe.llen(queue)
            _, *depths = await asyncio.wait_for(pipe.execute(), HEALTH_REDIS_SECONDS)
    except Exception:
        return JSONResponse({"status": "unavailable", "redis": False}, status_code=503,
                            headers={"Retry-After": "2"})
    workers = await consumers.by_queue()
    queues = {queue: {"depth": int(depth), "workers": workers[queue]}
              for queue, depth in zip(QUEUES, depths, strict=True)}
    unserved = [queue for queue, count in workers.items() if not count]
    if unserved:
        return JSONResponse({"status": "unavailable", "redis": True, "queues": queues,
                             "unserved": unserved}, status_code=503,
                            headers={"Retry-After": "5"})
    return JSONResponse({"status": "ok", "redis": True, "queues": queues})


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
