"""API key, rate limit and CORS, on a gateway started with those settings."""

from __future__ import annotations

import io

import httpx
import pytest
from PIL import Image

from tests.conftest import gateway_with


@pytest.fixture(scope="module")
def guarded(redis_url):
    with (gateway_with(redis_url, GRIDSIGHT_API_KEY="s3cret", GRIDSIGHT_JOBS_PER_MINUTE="3",
                       GRIDSIGHT_CORS_ORIGINS='["https://puzzles.example"]') as base,
          httpx.Client(base_url=base, timeout=10) as http):
        yield http


def picture() -> dict:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 64), "white").save(buffer, "PNG")
    return {"image": ("x.png", buffer.getvalue(), "image/png")}


def test_api_key_is_required_when_configured(guarded):
    response = guarded.get("/v1/jobs/" + "a" * 24)
    assert response.status_code == 401
    assert response.headers["content-type"].startswith("application/problem+json")
    wrong = guarded.get("/v1/jobs/" + "a" * 24, headers={"X-API-Key": "guess"})
    assert wrong.status_code == 401
    right = guarded.get("/v1/jobs/" + "a" * 24, headers={"X-API-Key": "s3cret"})
    assert right.status_code == 404
    # Health stays open for probes (it answers 503 while this Redis has no workers).
    assert guarded.get("/healthz").json()["redis"] is True


def test_jobs_per_minute_are_limited(guarded):
    key = {"X-API-Key": "s3cret"}
    codes = [guarded.post("/v1/jobs", files=picture(), headers=key).status_code
             for _ in range(5)]
    assert 202 in codes and codes[-1] == 429
    limited = guarded.post("/v1/jobs", files=picture(), headers=key)
    assert 0 < int(limited.headers["retry-after"]) <= 60


def test_cors_allows_only_the_named_origin(guarded):
    def preflight(origin: str):
        return guarded.options("/v1/jobs", headers={
            "Origin": origin, "Access-Control-Request-Method": "POST"})

    allowed = preflight("https://puzzles.example")
    assert allowed.headers.get("access-control-allow-origin") == "https://puzzles.example"
    refused = preflight("https://evil.example")
    assert "access-control-allow-origin" not in refused.headers


def test_cors_is_closed_by_default(client):
    response = client.options("/v1/jobs", headers={
        "Origin": "https://puzzles.example", "Access-Control-Request-Method": "POST"})
    assert "access-control-allow-origin" not in response.headers
