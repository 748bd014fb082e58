"""The gateway's HTTP contract, over real HTTP against the running service."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from tests.conftest import wait_for_job

PROBLEM = "application/problem+json"


def png_bytes(width: int = 64, height: int = 64, colour=(255, 255, 255)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (width, height), colour).save(buffer, "PNG")
    return buffer.getvalue()


def assert_problem(response, status: int) -> dict:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith(PROBLEM)
    body = response.json()
    assert body["status"] == status and body["title"]
    return body


def test_health_and_docs(client):
    health = client.get("/healthz").json()
    assert health["status"] == "ok" and health["redis"] is True
    assert set(health["queues"]) == {"recognize", "solve", "solve-typed", "solve-large"}
    assert all(queue["workers"] >= 1 for queue in health["queues"].values())
    assert client.get("/docs").status_code == 200
    schema = client.get("/openapi.json").json()
    body = schema["paths"]["/v1/jobs"]["post"]["requestBody"]["content"]
    assert {"multipart/form-data", "application/json", "text/plain"} <= set(body)


def test_unknown_job_is_404_problem(client):
    body = assert_problem(client.get("/v1/jobs/" + "x" * 24), 404)
    assert "x" * 24 in body["detail"]


def test_malformed_job_id_is_rejected(client):
    assert_problem(client.get("/v1/jobs/..%2F..%2Fetc"), 404)
    assert_problem(client.get("/v1/jobs/short"), 422)


@pytest.mark.parametrize("payload", [b"not an image at all", b"\x89PNG\r\n\x1a\n" + b"\0" * 40])
def test_non_image_upload_is_415(client, payload):
    response = client.post("/v1/jobs", files={"image": ("x.png", payload, "image/png")})
    assert "JPEG" in assert_problem(response, 415)["detail"]


def test_empty_upload_is_422(client):
    response = client.post("/v1/jobs", files={"image": ("x.png", b"", "image/png")})
    assert_problem(response, 422)


def test_missing_image_field_is_422(client):
    response = client.post("/v1/jobs", files={"picture": ("x.png", png_bytes(), "image/png")})
    assert "image" in assert_problem(response, 422)["detail"]


def test_unknown_kind_is_422(client):
    response = client.post("/v1/jobs", files={"image": ("x.png", png_bytes(), "image/png")},
                           data={"kind": "crossword"})
    assert "crossword" in assert_problem(response, 422)["detail"]


def test_upload_over_the_size_limit_is_413(client):
    too_big = b"\xff\xd8\xff" + b"\0" * (10 * 1024 * 1024 + 10)
    response = client.post("/v1/jobs", files={"image": ("big.jpg", too_big, "image/jpeg")})
    assert_problem(response, 413)


def test_unsupported_content_type_is_415(client):
    response = client.post("/v1/jobs", content=b"<svg/>", headers={"content-type": "image/svg+xml"})
    assert_problem(response, 415)


def test_bad_json_puzzle_is_422(client):
    response = client.post("/v1/jobs", content=b"{not json",
                           headers={"content-type": "application/json"})
    assert "line 1" in assert_problem(response, 422)["detail"]


def test_blank_image_ends_failed_with_advice(client):
    response = client.post("/v1/jobs", files={"image": ("blank.png", png_bytes(400, 400),
                                                        "image/png")})
    assert response.status_code == 202
    job = wait_for_job(client, response.json()["id"])
    assert job["status"] == "failed"
    assert job["error"]


def test_image_is_returned_as_uploaded(client):
    # A picture that is solved: a failed job's upload is deleted (tests/test_retention.py).
    from tests.test_retention import screenshot  # here: test_retention imports this module

    data = screenshot(166)
    created = client.post("/v1/jobs", files={"image": ("a.png", data, "image/png")}).json()
    assert wait_for_job(client, created["id"])["status"] == "solved"
    response = client.get(f"/v1/jobs/{created['id']}/image")
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    assert response.content == data
