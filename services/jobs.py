"""Job records in Redis: status, reading and result of each job, with an expiry.

The gateway creates jobs; the workers move them through their states. Celery's own
result backend is not used: it answers PENDING for ids it never saw, and a job must
be able to say 'unknown' (404) as well as 'queued'.
"""

from __future__ import annotations

import json
import secrets
import time

import redis

from services.contracts import Job, JobStatus, RequestedKind

FINAL_STATES: frozenset[JobStatus] = frozenset({"solved", "needs_review", "failed"})
EVENT_PREFIX = "gridsight:job-events:"  # + job id: every change to a job is published here
# Jobs not yet final, scored by the time they last changed: what the sweep looks at to find
# jobs that stopped moving (services/sweeper.py).
ACTIVE_KEY = "gridsight:active-jobs"


def job_key(job_id: str) -> str:
    return f"gridsight:job:{job_id}"


def image_key(job_id: str) -> str:
    return f"gridsight:image:{job_id}"


def puzzle_key(job_id: str) -> str:
    return f"gridsight:puzzle:{job_id}"


def hints_key(job_id: str) -> str:
    """The hint path of the job's latest solved revision (JSON with its revision)."""
    return f"gridsight:hints:{job_id}"


OVERLAY_FORMATS = ("png", "jpeg", "webp")


def overlay_key(job_id: str, revision: int, fmt: str) -> str:
    return f"gridsight:overlay:{job_id}:{revision}:{fmt}"


def picture_keys(job_id: str, revision: int) -> list[str]:
    """The upload and every overlay drawn from it (each holds the picture)."""
    return [image_key(job_id)] + [overlay_key(job_id, r, fmt)
                                  for r in range(1, revision + 1) for fmt in OVERLAY_FORMATS]


def new_job_id() -> str:
    return secrets.token_urlsafe(18)  # 144 random bits: not guessable, safe in a URL


class JobNotFound(KeyError):
    pass


class JobStore:
    def __init__(self, client: redis.Redis, ttl_seconds: int):
        self.redis = client
        self.ttl = ttl_seconds

    @classmethod
    def from_url(cls, url: str, ttl_seconds: int) -> JobStore:
        return cls(redis.Redis.from_url(url), ttl_seconds)

    def create(self, kind: RequestedKind, image: bytes | None = None,
               puzzle_text: str | None = None, job_id: str | None = None,
               keep_image: bool = True) -> Job:
        """A queued job, with its upload or typed-in puzzle kept beside it, so that the
        sweep can queue it again if its task is lost."""
        now = time.time()
        job = Job(id=job_id or new_job_id(), status="queued", kind=kind, created_at=now,
                  updated_at=now, keep_image=keep_image)
        with self.redis.pipeline() as pipe:
            if image is not None:
                pipe.set(image_key(job.id), image, ex=self.ttl)
            if puzzle_text is not None:
                pipe.set(puzzle_key(job.id), puzzle_text, ex=self.ttl)
            pipe.set(job_key(job.id), job.model_dump_json(), ex=self.ttl)
            pipe.zadd(ACTIVE_KEY, {job.id: now})
            pipe.execute()
        return job

    def puzzle_text(self, job_id: str) -> str | None:
        raw = self.redis.get(puzzle_key(job_id))
        return None if raw is None else raw.decode()

    def has_image(self, job_id: str) -> bool:
        return bool(self.redis.exists(image_key(job_id)))

    def get(self, job_id: str) -> Job:
        raw = self.redis.get(job_key(job_id))
        if raw is None:
            raise JobNotFound(job_id)
        return Job.model_validate_json(raw)

    def put_hints(self, job_id: str, revision: int, path: dict) -> None:
        """Keep a revision's hint path as long as the job (nothing once the job is gone)."""
        left = self.redis.ttl(job_key(job_id))
        if left > 0:
            self.redis.set(hints_key(job_id), json.dumps(path | {"revision": revision}),
                           ex=left)

    def hints(self, job_id: str, revision: int) -> dict | None:
        """The hint path of this revision, or None."""
        raw = self.redis.get(hints_key(job_id))
        if raw is None:
            return None
        path = json.loads(raw)
        return path if path.get("revision") == revision else None

    def image(self, job_id: str) -> bytes:
        raw = self.redis.get(image_key(job_id))
        if raw is None:
            raise JobNotFound(job_id)
        return raw

    def update(self, job_id: str, *, expect_revision: int | None = None,
               only_from: frozenset[str] | None = None, **fields) -> Job | None:
        """Change fields atomically. With `expect_revision`, only while the job is still at
        that revision, so a late answer for an older revision never overwrites a newer one;
        with `only_from`, only while its status is one of those (a task delivered twice
        finds its job already past it). Returns None when the job is not."""
        key = job_key(job_id)
        with self.redis.pipeline() as pipe:
            while True:
                try:
                    pipe.watch(key)
                    raw = pipe.get(key)
                    if raw is None:
                        raise JobNotFound(job_id)
                    job = Job.model_validate_json(raw)
                    if expect_revision is not None and job.revision != expect_revision:
                        return None
                    if only_from is not None and job.status not in only_from:
                        return None
                    job = job.model_copy(update=fields | {"updated_at": time.time()})
                    job = Job.model_validate(job.model_dump())  # re-validate nested models
                    forget_upload, picture = self._uploads_to_forget(pipe, job)
                    if picture:
                        job = job.model_copy(update={"image_deleted": True})
                    pipe.multi()
                    pipe.set(key, job.model_dump_json(), keepttl=True)
                    if forget_upload:
                        pipe.delete(*forget_upload)
                    if job.status in FINAL_STATES:
                        pipe.zrem(ACTIVE_KEY, job_id)
                    else:
                        pipe.zadd(ACTIVE_KEY, {job_id: job.updated_at})
                    # Wakes the gateway's long polls (GET /v1/jobs/{id}?wait=...).
                    pipe.publish(EVENT_PREFIX + job_id, job.status)
                    pipe.execute()
                    return job
                except redis.WatchError:
                    continue

    @staticmethod
    def _uploads_to_forget(watching, job: Job) -> tuple[list[str], bool]:
        """What to delete as this change ends the job, and whether that includes a
        picture: a failed job's upload (nobody can correct it from the picture), and any
        job's picture whose sender asked not to keep it."""
        if job.status not in FINAL_STATES or job.image_deleted:
            return [], False
        keys = []
        if job.status == "failed" and watching.exists(puzzle_key(job.id)):
            keys.append(puzzle_key(job.id))  # a typed-in puzzle that failed
        picture = ((job.status == "failed" or not job.keep_image)
                   and bool(watching.exists(image_key(job.id))))
        if picture:
            keys += picture_keys(job.id, job.revision)
        return keys, picture

    def delete(self, job_id: str) -> bool:
        """Forget a job and everything kept for it; False when there was no such job.
        Its long polls wake and find it gone."""
        raw = self.redis.get(job_key(job_id))
        if raw is None:
            return False
        revision = Job.model_validate_json(raw).revision
        with self.redis.pipeline() as pipe:
            pipe.delete(job_key(job_id), puzzle_key(job_id), f"gridsight:requeues:{job_id}",
                        hints_key(job_id),
                        *picture_keys(job_id, revision))
            pipe.zrem(ACTIVE_KEY, job_id)
            pipe.publish(EVENT_PREFIX + job_id, "deleted")
            pipe.execute()
        return True

    def count_attempt(self, job_id: str, stage: str, revision: int = 1) -> int:
        """How many times a task for this job's stage has started (a redelivered task
        after a worker crash counts again)."""
        return self._count(f"gridsight:attempts:{job_id}:{stage}:{revision}")

    def count_requeue(self, job_id: str) -> int:
        """How many times the sweep has queued this job again."""
        return self._count(f"gridsight:requeues:{job_id}")

    def _count(self, key: str) -> int:
        """Add one to a counter that expires with the jobs, and return it."""
        with self.redis.pipeline() as pipe:
            pipe.incr(key)
            pipe.expire(key, self.ttl)
            count, _ = pipe.execute()
        return int(count)

    def ping(self) -> bool:
        return bool(self.redis.ping())
