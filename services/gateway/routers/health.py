"""Liveness and readiness."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse, PlainTextResponse

from services import metrics
from services.gateway.dependencies import get_store

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="Whether the gateway and its Redis answer")
def healthz() -> JSONResponse:
    try:
        get_store().ping()
    except Exception:
        return JSONResponse({"status": "unavailable", "redis": False}, status_code=503)
    return JSONResponse({"status": "ok", "redis": True})


@router.get("/metrics", response_class=PlainTextResponse,
            summary="Requests, job outcomes, stage durations and queue depth (Prometheus)")
def prometheus_metrics() -> PlainTextResponse:
    return PlainTextResponse(metrics.exposition(get_store().redis),
                             media_type="text/plain; version=0.0.4")
