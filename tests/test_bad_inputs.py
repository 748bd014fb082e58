"""Every file of the bad-input corpus gets a clear 4xx, or a failed job that says what to
do: never a 500, never a stuck job, and the workers keep serving afterwards."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from gridsight.synth.puzzles import make_sudoku
from tests.conftest import wait_for_job

CORPUS = Path(__file__).resolve().parent / "bad_inputs"
FILES = sorted(p.name for p in CORPUS.iterdir() if p.suffix != ".py")
# What each file must get at upload; None: accepted, then the job must fail with advice.
EXPECTED = {
    "not_an_image.bin": 415,
    "empty.png": 422,
    "truncated.jpg": None,
    "truncated.png": None,
    "bomb_50000x50000.png": 413,
    "drawing.svg": 415,
    "animated.gif": 415,
    "no_grid.jpg": None,
    "all_black.png": None,
    "one_pixel.png": 422,
}


def test_the_corpus_is_complete():
    assert set(FILES) == set(EXPECTED)


@pytest.mark.parametrize("name", FILES)
def test_bad_upload_gets_a_clear_answer(client, name):
    data = (CORPUS / name).read_bytes()
    response = client.post("/v1/jobs", files={"image": (name, data, "application/octet-stream")})
    expected = EXPECTED[name]
    if expected is not None:
        assert response.status_code == expected, response.text
        assert response.headers["content-type"].startswith("application/problem+json")
        assert response.json()["detail"]
        return
    assert response.status_code == 202, response.text
    job = wait_for_job(client, response.json()["id"])
    assert job["status"] == "failed"
    assert job["error"] and "internal error" not in job["error"], job["error"]


@pytest.mark.parametrize("body, content_type", [
    ("[1, 2, 3]", "application/json"),
    ('{"kind": "sudoku", "givens": [[1, 2], [3]]}', "application/json"),
    ('{"kind": "nonogram", "rows": [[9]], "cols": [[1]]}', "application/json"),
    ('{"kind": "killer", "size": 9, "cages": [{"sum": 3, "cells": [[0, 0], [0, 0]]}]}',
     "application/json"),
    ('{"kind": "chess"}', "application/json"),
    ("1" * 81, "text/plain"),
    ("hello", "text/plain"),
])
def test_bad_typed_in_puzzle_gets_a_clear_answer(client, body, content_type):
    response = client.post("/v1/jobs", content=body, headers={"content-type": content_type})
    if response.status_code != 202:
        assert 400 <= response.status_code < 500
        assert response.json()["detail"]
        return
    job = wait_for_job(client, response.json()["id"])
    assert job["status"] == "failed"
    assert job["error"] and "internal error" not in job["error"], job["error"]


def test_workers_still_serve_after_the_corpus(client):
    givens, solution = make_sudoku(random.Random(77))
    response = client.post("/v1/jobs", content=json.dumps({"kind": "sudoku", "givens": givens}),
                           headers={"content-type": "application/json"})
    job = wait_for_job(client, response.json()["id"])
    assert job["status"] == "solved" and job["result"]["solution"] == solution
