"""Limits and connection settings, read from the environment (see README, "Limits")."""

from __future__ import annotations

from functools import lru_cache

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GRIDSIGHT_", extra="ignore")

    # REDIS_URL is the conventional name, so it is read without the prefix.
    redis_url: str = Field("redis://127.0.0.1:6379/0", validation_alias="REDIS_URL")
    max_upload_bytes: int = 10 * 1024 * 1024
    max_image_pixels: int = 40_000_000
    # Typed-in puzzles and every other request body (corrections): bytes read at most.
    max_puzzle_bytes: int = 1024 * 1024
    max_body_bytes: int = 256 * 1024
    # A request body that stops arriving for this long is cut off (408), and so is one
    # arriving slower than `body_min_bytes_per_second` on average after that long; a
    # request's headers must have arrived within `header_seconds`. Slow clients cannot
    # hold connections open.
    body_idle_seconds: float = 15.0
    body_min_bytes_per_second: int = 1024
    header_seconds: float = 10.0
    # Largest typed-in nonogram side, and the cells past which a typed-in puzzle is
    # solved on the `solve-large` queue rather than `solve-typed` (pictures' solves have
    # the `solve` queue to themselves).
    max_nonogram_side: int = 1000
    large_puzzle_cells: int = 100 * 100
    solve_seconds: float = 10.0
    # Hard limit of reading one picture: the worker process is stopped past it.
    recognize_seconds: float = 60.0
    # A job whose stage has not moved for its task's hard limit plus this much is taken
    # for lost (Redis restarted, a worker vanished) and queued again; the sweep runs in
    # the workers every `sweep_seconds`.
    stall_grace_seconds: float = 30.0
    sweep_seconds: float = 10.0
    # How long a worker keeps trying to store a finished task's outcome while Redis is
    # unreachable, before the message is given up to the sweep.
    store_retry_seconds: float = 60.0
    # A worker's pool process is replaced after a task that left it above this size.
    worker_max_memory_mb: int = 1024
    # When set, the workers touch this file at every sweep interval (a cheap healthcheck).
    heartbeat_file: str = ""
    job_ttl_seconds: int = 24 * 3600
    # The lowest level of the services' JSON log lines (debug, info, warning, error).
    log_level: str = "info"
    # Longer than the slowest task, so a running task is never handed out twice.
    visibility_timeout_seconds: int = 900
    # A task whose worker died this many times ends its job as failed.
    task_max_attempts: int = 3
    jobs_per_minute: int = 60  # per client address, over any 60 s; 0 = no limit
    reads_per_minute: int = 600  # GETs of jobs, images and overlays, likewise
    failed_keys_per_minute: int = 10  # wrong or missing API keys, likewise
    # Addresses of proxies whose X-Forwarded-For is believed (`gridsight serve` and the
    # stack pass them to uvicorn); none by default, so a client cannot pick its address.
    trusted_proxies: str = ""
    api_key: str | None = None  # when set, /v1 requests need the header X-API-Key
    # More keys, one per client (a JSON list); with keys, each job belongs to the key
    # that created it and is invisible to the others.
    api_keys: list[str] = []
    # With a key set, /metrics needs it too unless this is true (a scraper without keys).
    metrics_public: bool = False
    cors_origins: list[str] = []  # closed by default

    @property
    def all_api_keys(self) -> list[str]:
        return [key for key in [self.api_key, *self.api_keys] if key]

    @property
    def solve_time_limit(self) -> float:
        """Celery's hard limit on one solve task, past the solver's own limit: a backstop
        for a solver path that overruns it."""
        return self.solve_seconds + max(5.0, self.solve_seconds / 2)

    def stalled_after(self, status: str) -> float:
        """Seconds without a change after which a job in `status` is taken for lost."""
        limit = self.recognize_seconds if status == "recognizing" else self.solve_time_limit
        if status == "queued":
            limit = max(self.recognize_seconds, self.solve_time_limit)
        return limit + self.stall_grace_seconds


@lru_cache
def get_settings() -> Settings:
    return Settings()
