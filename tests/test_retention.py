"""What is kept of an upload: a failed job's upload is deleted at
once, a sender may ask for the picture to be deleted when its job ends, and an ended job
can be deleted with everything kept for it. Real gateway, real workers, real Redis."""

from __future__ import annotations

import io
import os
import random

import pytest
import redis
from PIL import Image

from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import render_sudoku
from services.jobs import OVERLAY_FORMATS, JobStore, image_key, job_key, overlay_key, puzzle_key
from tests.conftest import wait_for_job
from tests.test_overlay import FONT, png


@pytest.fixture()
def store(service):
    return JobStore(redis.Redis.from_url(os.environ["REDIS_URL"]), 600)


def screenshot(seed: int) -> bytes:
    givens, _ = make_sudoku(random.Random(seed))
    return png(render_sudoku(givens, font=FONT, seed=seed))


def post_picture(client, data: bytes, **fields) -> str:
    response = client.post("/v1/jobs", files={"image": ("p.png", data, "image/png")},
                           data=fields)
    assert response.status_code == 202, response.text
    return response.json()["id"]


def blank_picture() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (400, 300), "white").save(buffer, "PNG")  # no grid: the job fails
    return buffer.getvalue()


def test_a_failed_jobs_upload_is_deleted(client, store):
    job_id = post_picture(client, blank_picture())
    job = wait_for_job(client, job_id)
    assert job["status"] == "failed" and job["error"]
    assert job["image_deleted"] is True
    assert not store.redis.exists(image_key(job_id))
    image = client.get(f"/v1/jobs/{job_id}/image")
    assert image.status_code == 404 and "deleted" in image.json()["detail"]


def test_a_failed_typed_in_puzzles_text_is_deleted(client, store):
    response = client.post("/v1/jobs", content="12345", headers={"content-type": "text/plain"})
    job = wait_for_job(client, response.json()["id"])
    assert job["status"] == "failed"
    assert not store.redis.exists(puzzle_key(job["id"]))
    assert job["image_deleted"] is False  # it never had a picture


def test_a_solved_job_keeps_its_picture_by_default(client, store):
    job = wait_for_job(client, post_picture(client, screenshot(161)))
    assert job["status"] == "solved" and job["image_deleted"] is False
    assert client.get(f"/v1/jobs/{job['id']}/image").status_code == 200


def test_keep_image_false_deletes_the_picture_when_the_job_ends(client, store):
    job = wait_for_job(client, post_picture(client, screenshot(162), keep_image="false"))
    assert job["status"] == "solved" and job["result"]["solution"]  # the answer stays
    assert job["keep_image"] is False and job["image_deleted"] is True
    assert not store.redis.exists(image_key(job["id"]))
    for path in ("image", "overlay.jpg", "overlay.png"):
        assert client.get(f"/v1/jobs/{job['id']}/{path}").status_code == 404, path
    # The reading can still be corrected: the solver needs no picture.
    cell = {"row": 0, "col": 0, "value": job["result"]["solution"][0][0]}
    fixed = client.post(f"/v1/jobs/{job['id']}/corrections", json={"cells": [cell]})
    assert fixed.status_code == 202, fixed.text
    assert wait_for_job(client, job["id"])["status"] in ("solved", "needs_review")


def test_keep_image_must_be_true_or_false(client):
    response = client.post("/v1/jobs", files={"image": ("p.png", screenshot(163), "image/png")},
                           data={"keep_image": "maybe"})
    assert response.status_code == 422, response.text


def test_an_ended_job_is_deleted_with_its_picture_and_overlays(client, store):
    job = wait_for_job(client, post_picture(client, screenshot(164)))
    assert job["status"] == "solved"
    job_id = job["id"]
    assert client.get(f"/v1/jobs/{job_id}/overlay.jpg").status_code == 200  # now cached
    assert store.redis.exists(overlay_key(job_id, 1, "jpeg"))
    response = client.delete(f"/v1/jobs/{job_id}")
    assert response.status_code == 204, response.text
    kept = [job_key(job_id), image_key(job_id),
            *(overlay_key(job_id, 1, fmt) for fmt in OVERLAY_FORMATS)]
    assert store.redis.exists(*kept) == 0
    for path in ("", "/image", "/overlay.jpg"):
        assert client.get(f"/v1/jobs/{job_id}{path}").status_code == 404, path
    assert client.delete(f"/v1/jobs/{job_id}").status_code == 404


def test_a_running_job_is_not_deleted(client, store):
    job = store.create("sudoku", image=screenshot(165))  # no task sent: it stays queued
    response = client.delete(f"/v1/jobs/{job.id}")
    assert response.status_code == 409, response.text
    assert "delete it once it has ended" in response.json()["detail"]
    assert store.redis.exists(job_key(job.id), image_key(job.id)) == 2
