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
    solve_seconds: float = 10.0
    job_ttl_seconds: int = 24 * 3600
    # Longer than the slowest task, so a running task is never handed out twice.
    visibility_timeout_seconds: int = 900
    # A task whose worker died this many times ends its job as failed.
    task_max_attempts: int = 3
    jobs_per_minute: int = 60  # per client address; 0 = no limit
    api_key: str | None = None  # when set, /v1 requests need the header X-API-Key
    cors_origins: list[str] = []  # closed by default


@lru_cache
def get_settings() -> Settings:
    return Settings()
