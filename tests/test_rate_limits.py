"""Rate limits a client cannot get around: a forged
X-Forwarded-For, failed keys and GETs. A gateway started as `gridsight serve` starts it."""

from __future__ import annotations

import httpx
import pytest

from gridsight.stack import Stack

TEXT = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


@pytest.fixture(scope="module")
def limited():
    """A gateway over a Redis of its own: other tests' failed keys from this address must
    not count here."""
    env = {"GRIDSIGHT_JOBS_PER_MINUTE": "2",
           "GRIDSIGHT_READS_PER_MINUTE": "5", "GRIDSIGHT_FAILED_KEYS_PER_MINUTE": "3",
           "GRIDSIGHT_API_KEY": "s3cret"}
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        patch.delenv("GRIDSIGHT_TRUSTED_PROXIES", raising=False)
        patch.delenv("REDIS_URL", raising=False)
        with Stack() as stack:
            base = stack.start_service(prefer="redis-server", workers=False)
            with httpx.Client(base_url=base, timeout=10) as http:
                yield http


def test_a_forged_forwarded_address_does_not_reset_the_job_limit(limited):
    codes = [limited.post("/v1/jobs", content=TEXT, headers={
        "content-type": "text/plain", "X-API-Key": "s3cret",
        "X-Forwarded-For": f"203.0.113.{n}"}).status_code for n in range(4)]
    assert codes[:2] == [202, 202] and codes[2:] == [429, 429], codes


def test_failed_keys_are_limited(limited):
    codes = [limited.get("/v1/jobs/" + "a" * 24, headers={"X-API-Key": f"guess{n}"}
                         ).status_code for n in range(5)]
    assert codes[:3] == [401] * 3 and codes[3:] == [429, 429], codes


def test_reads_are_limited(limited):
    codes = [limited.get("/v1/jobs/" + "b" * 24, headers={"X-API-Key": "s3cret"}
                         ).status_code for _ in range(7)]
    assert codes[:5] == [404] * 5 and codes[5:] == [429, 429], codes


def test_metrics_need_the_key_when_one_is_set(limited):
    assert limited.get("/metrics").status_code in (401, 429)  # 429: guesses used up above
    assert limited.get("/metrics", headers={"X-API-Key": "s3cret"}).status_code == 200
