"""Per-key ownership of jobs: with API keys set, a job is seen, corrected and deleted
only with the key that created it; to any other key it does not exist (404).

The owner is written into the job's id rather than stored beside it: the id is its random
part followed by an HMAC of that part under the creating key. Checking a request's key
against an id then needs no Redis read, so a foreign key's 404 comes before the job is
looked up and says nothing, not even by its timing, about whether the job exists. The
stored document, sent to clients as it is, carries no trace of the key.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from typing import Annotated

from fastapi import Depends, Path

from services.gateway.dependencies import require_api_key
from services.gateway.problems import ProblemError
from services.jobs import new_job_id

JobId = Annotated[str, Path(pattern=r"^[A-Za-z0-9_-]{16,64}$")]
RANDOM_CHARS = len(new_job_id())  # 24 base64url characters: 144 random bits
TAG_BYTES = 12  # 96 bits of HMAC: 16 base64url characters


def _tag(random_part: str, key: str) -> str:
    digest = hmac.new(key.encode("utf-8"), random_part.encode("ascii"), hashlib.sha256)
    return base64.urlsafe_b64encode(digest.digest()[:TAG_BYTES]).decode("ascii")


def new_owned_job_id(key: str | None) -> str:
    """A fresh job id, owned by `key` (None: no keys configured, a plain random id)."""
    random_part = new_job_id()
    return random_part if key is None else random_part + _tag(random_part, key)


def owned_by(job_id: str, key: str | None) -> bool:
    if key is None:
        return True  # no keys: every job is everyone's, as the ids say nothing
    random_part, tag = job_id[:RANDOM_CHARS], job_id[RANDOM_CHARS:]
    return hmac.compare_digest(tag.encode("ascii"), _tag(random_part, key).encode("ascii"))


def job_not_found(job_id: str) -> ProblemError:
    """The one answer for a job that does not exist, has expired, or is someone else's."""
    return ProblemError(404, "Job not found", f"no job {job_id!r}; jobs expire after a while")


async def owned_job_id(job_id: JobId, key: str | None = Depends(require_api_key)) -> str:
    if not owned_by(job_id, key):
        raise job_not_found(job_id)
    return job_id


OwnedJobId = Annotated[str, Depends(owned_job_id)]
