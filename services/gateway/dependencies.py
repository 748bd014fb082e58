"""Shared objects handed to routes: settings, the job store and the task sender."""

from __future__ import annotations

from functools import lru_cache

from celery import Celery

from services.jobs import JobStore
from services.queue import make_celery
from services.settings import Settings, get_settings


@lru_cache
def get_store() -> JobStore:
    settings = get_settings()
    return JobStore.from_url(settings.redis_url, settings.job_ttl_seconds)


@lru_cache
def get_sender() -> Celery:
    return make_celery("gridsight-gateway")


def settings_dep() -> Settings:
    return get_settings()
