"""Per-key ownership: with API keys set, a job is seen, corrected and
deleted only with the key that created it; any other key gets the 404 of a job that does
not exist. A gateway with two keys, the suite's real workers and Redis, over HTTP."""

from __future__ import annotations

import random

import httpx
import pytest

from services.gateway.ownership import owned_by
from tests.conftest import gateway_with, wait_for_job
from tests.test_retention import screenshot

ALICE, BOB = "alice-key-7f3a", "bob-key-91c2"


@pytest.fixture(scope="module")
def two_keys(service, redis_url):
    with (gateway_with(redis_url, GRIDSIGHT_API_KEY=ALICE,
                       GRIDSIGHT_API_KEYS=f'["{BOB}"]') as base,
          httpx.Client(base_url=base, timeout=30, headers={"X-API-Key": ALICE}) as alice,
          httpx.Client(base_url=base, timeout=30, headers={"X-API-Key": BOB}) as bob):
        yield alice, bob


@pytest.fixture(scope="module")
def alices_job(two_keys) -> dict:
    alice, _ = two_keys
    response = alice.post("/v1/jobs", files={"image": ("p.png", screenshot(171), "image/png")})
    assert response.status_code == 202, response.text
    job = wait_for_job(alice, response.json()["id"])
    assert job["status"] == "solved"
    return job


def requests_on(job_id: str, solution) -> list[tuple[str, str, dict]]:
    """Every route that names a job."""
    fix = {"cells": [{"row": 0, "col": 0, "value": solution[0][0]}]}
    return [("GET", f"/v1/jobs/{job_id}", {}),
            ("GET", f"/v1/jobs/{job_id}", {"params": {"wait": 1}}),
            ("GET", f"/v1/jobs/{job_id}/image", {}),
            ("GET", f"/v1/jobs/{job_id}/overlay.jpg", {}),
            ("GET", f"/v1/jobs/{job_id}/overlay.webp", {}),
            ("GET", f"/v1/jobs/{job_id}/overlay.png", {}),
            ("POST", f"/v1/jobs/{job_id}/corrections", {"json": fix}),
            ("PUT", f"/v1/jobs/{job_id}/corrections", {"json": fix}),
            ("POST", f"/v1/jobs/{job_id}/reset", {}),
            ("DELETE", f"/v1/jobs/{job_id}", {})]


def test_another_key_finds_no_such_job_on_any_route(two_keys, alices_job):
    alice, bob = two_keys
    job_id, solution = alices_job["id"], alices_job["result"]["solution"]
    made_up = "".join(random.Random(5).choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefgh")
                      for _ in job_id)
    for (method, path, options), (_, other_path, _) in zip(
            requests_on(job_id, solution), requests_on(made_up, solution), strict=True):
        theirs = bob.request(method, path, **options)
        nobodys = bob.request(method, other_path, **options)
        assert theirs.status_code == 404, (method, path, theirs.status_code)
        # The very answer of a job that does not exist: nothing tells them apart.
        assert (theirs.json() | {"detail": ""}) == (nobodys.json() | {"detail": ""})
        assert theirs.json()["detail"].replace(job_id, made_up) == nobodys.json()["detail"]
    # Bob's attempts changed nothing: Alice still has her job, uncorrected.
    job = alice.get(f"/v1/jobs/{job_id}").json()
    assert job["revision"] == alices_job["revision"] and job["corrections"] is None


def test_the_owner_reads_corrects_and_deletes_the_job(two_keys, alices_job):
    alice, bob = two_keys
    job_id, solution = alices_job["id"], alices_job["result"]["solution"]
    for method, path, options in requests_on(job_id, solution)[:6]:
        assert alice.request(method, path, **options).status_code == 200, path
    fix = {"cells": [{"row": 0, "col": 0, "value": solution[0][0]}]}
    assert alice.post(f"/v1/jobs/{job_id}/corrections", json=fix).status_code == 202
    assert wait_for_job(alice, job_id)["revision"] == alices_job["revision"] + 1
    assert bob.delete(f"/v1/jobs/{job_id}").status_code == 404
    assert alice.delete(f"/v1/jobs/{job_id}").status_code == 204
    assert alice.get(f"/v1/jobs/{job_id}").status_code == 404


def test_each_key_sees_its_own_typed_in_jobs(two_keys):
    alice, bob = two_keys
    text = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"
    ids = {}
    for name, client in (("alice", alice), ("bob", bob)):
        response = client.post("/v1/jobs", content=text, headers={"content-type": "text/plain"})
        assert response.status_code == 202, response.text
        ids[name] = response.json()["id"]
    assert wait_for_job(alice, ids["alice"])["status"] == "solved"
    assert wait_for_job(bob, ids["bob"])["status"] == "solved"
    assert alice.get(f"/v1/jobs/{ids['bob']}").status_code == 404
    assert bob.get(f"/v1/jobs/{ids['alice']}").status_code == 404


def test_the_owner_is_in_the_id_and_nowhere_in_the_job(two_keys, alices_job):
    job_id = alices_job["id"]
    assert owned_by(job_id, ALICE) and not owned_by(job_id, BOB)
    assert not owned_by(job_id[:24], ALICE)  # a plain id (made without keys) is no one's
    text = two_keys[0].get(f"/v1/jobs/{job_id}").text
    assert ALICE not in text and BOB not in text
