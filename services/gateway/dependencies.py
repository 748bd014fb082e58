"""Shared objects handed to routes: settings, the job store and the task sender."""

from __future__ import annotations

import asyncio
import secrets
import time
from functools import lru_cache

import redis
import redis.asyncio as aioredis
from celery import Celery
from fastapi import Depends, Header, Request
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from services.gateway.problems import ProblemError
from services.jobs import JobStore
from services.queue import make_celery
from services.settings import Settings, get_settings

# A request never waits on Redis longer than this: a paused or unreachable Redis gives a
# 503 within seconds instead of a hung request (and a full thread pool).
REDIS_SOCKET_SECONDS = 5.0
# The asyncio pool blocks (up to this long) for a free connection instead of failing:
# a burst of requests queues for connections instead of getting 503s.
ASYNC_POOL_CONNECTIONS = 64
ASYNC_POOL_WAIT_SECONDS = 10.0


@lru_cache
def get_store() -> JobStore:
    """The job store of the routes (run in the thread pool). A refused connection is
    tried again for about 5 s, so a Redis restart is ridden through rather than
    answered with 503s; a Redis that does not answer (paused) fails at the timeout."""
    settings = get_settings()
    retry = Retry(ExponentialBackoff(cap=1.0, base=0.05), 9,
                  supported_errors=(redis.ConnectionError,))
    client = redis.Redis.from_url(settings.redis_url, socket_timeout=REDIS_SOCKET_SECONDS,
                                  socket_connect_timeout=1.0, retry=retry,
                                  retry_on_error=[redis.ConnectionError])
    return JobStore(client, settings.job_ttl_seconds)


_async_redis: tuple[asyncio.AbstractEventLoop, aioredis.Redis] | None = None


def get_async_redis() -> aioredis.Redis:
    """The asyncio Redis client of the running event loop (its connections belong to it).

    Routes that only read or count use it, so they never wait in the thread pool."""
    global _async_redis
    loop = asyncio.get_running_loop()
    if _async_redis is None or _async_redis[0] is not loop:
        pool = aioredis.BlockingConnectionPool.from_url(
            get_settings().redis_url, max_connections=ASYNC_POOL_CONNECTIONS,
            timeout=ASYNC_POOL_WAIT_SECONDS, socket_timeout=REDIS_SOCKET_SECONDS,
            socket_connect_timeout=1.0)
        _async_redis = (loop, aioredis.Redis(connection_pool=pool))
    return _async_redis[1]


@lru_cache
def get_sender() -> Celery:
    return make_celery("gridsight-gateway", publish_retry=GATEWAY_PUBLISH)


# Sending a job's task keeps trying for about 7 s: a Redis restart does not fail the job.
GATEWAY_PUBLISH = {"max_retries": 10, "interval_start": 0.1, "interval_step": 0.2,
                   "interval_max": 1.0}


# The dependencies below are `async def` although they do not wait: FastAPI runs plain
# functions in its thread pool, a hop that costs more than their work.
async def settings_dep() -> Settings:
    return get_settings()


RATE_WINDOW_SECONDS = 60


def client_address(request: Request) -> str:
    # uvicorn puts a forwarded address here only from a trusted proxy (see README).
    return request.client.host if request.client else "unknown"


async def over_rate(key: str, limit: int, window: float = RATE_WINDOW_SECONDS) -> int | None:
    """A sliding window: None while at most `limit` requests fell in the last `window`
    seconds, otherwise the seconds until one more would be allowed. (A fixed window let
    twice the limit through across its boundary.)"""
    client = get_async_redis()
    now = time.time()
    member = f"{now:.6f}:{secrets.token_hex(4)}"
    async with client.pipeline(transaction=True) as pipe:
        pipe.zremrangebyscore(key, 0, now - window)
        pipe.zadd(key, {member: now})
        pipe.zcard(key)
        pipe.zrange(key, 0, 0, withscores=True)
        pipe.expire(key, int(window) + 1)
        _, _, count, oldest, _ = await pipe.execute()
    if count <= limit:
        return None
    await client.zrem(key, member)  # a refused request does not use up the window
    return max(1, int(oldest[0][1] + window - now) + 1)


async def require_api_key(request: Request, settings: Settings = Depends(settings_dep),
                          x_api_key: str | None = Header(None, description="Needed when the "
                                                         "server sets GRIDSIGHT_API_KEY")
                          ) -> str | None:
    """The caller's key, which owns the jobs it creates; None when no keys are set."""
    keys = settings.all_api_keys
    if not keys:
        return None
    # Compared as bytes: a header may hold any Latin-1 text, which compare_digest refuses
    # as str unless it is ASCII. Every key is compared, so the time says nothing of which.
    sent = (x_api_key or "").encode("utf-8", "surrogateescape")
    matches = [key for key in keys if secrets.compare_digest(sent, key.encode("utf-8"))]
    if matches:
        return matches[0]
    # Guessing keys is limited too.
    retry = settings.failed_keys_per_minute > 0 and await over_rate(
        f"gridsight:rate:auth:{client_address(request)}", settings.failed_keys_per_minute)
    if retry:
        raise ProblemError(429, "Too many failed keys",
                           f"try again in {retry} s", headers={"Retry-After": str(retry)})
    raise ProblemError(401, "API key required", "send the key in the X-API-Key header",
                       headers={"WWW-Authenticate": "X-API-Key"})


async def limit_job_rate(request: Request, settings: Settings = Depends(settings_dep)) -> None:
    """At most `jobs_per_minute` new jobs or corrections per client address in any 60 s."""
    await _limit(request, "jobs", settings.jobs_per_minute, "Too many jobs", "jobs")


async def limit_read_rate(request: Request, settings: Settings = Depends(settings_dep)) -> None:
    """At most `reads_per_minute` GETs of jobs, pictures and overlays per client address."""
    await _limit(request, "reads", settings.reads_per_minute, "Too many requests", "reads")


async def _limit(request: Request, bucket: str, per_minute: int, title: str,
                 what: str) -> None:
    """429 with Retry-After once this client used up `per_minute` in the last 60 s
    (0 = no limit)."""
    if per_minute <= 0:
        return
    retry = await over_rate(f"gridsight:rate:{bucket}:{client_address(request)}", per_minute)
    if retry is not None:
        raise ProblemError(429, title, f"at most {per_minute} {what} a minute; "
                           f"try again in {retry} s", headers={"Retry-After": str(retry)})
