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
    task_max_retries: int = 3
    api_key: str | None = None
    cors_origins: list[str] = []


@lru_cache
def get_settings() -> Settings:
    return Settings()
