"""Liveness and readiness."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import JSONResponse

from services.gateway.dependencies import get_store

router = APIRouter(tags=["health"])


@router.get("/healthz", summary="Whether the gateway and its Redis answer")
def healthz() -> JSONResponse:
    try:
        get_store().ping()
    except Exception:
        return JSONResponse({"status": "unavailable", "redis": False}, status_code=503)
    return JSONResponse({"status": "ok", "redis": True})
