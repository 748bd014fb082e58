"""Long polling: `GET /v1/jobs/{id}?wait=N` answers when the job ends, not N polls later.

Every change to a job is published on Redis (`services/jobs.py`). One pattern
subscription per gateway process hears them all and wakes the requests waiting on that
job, so a waiting client costs neither the gateway nor Redis anything until its job moves.
A waiter also looks at the job every RECHECK_SECONDS, so a message missed while Redis
restarted, or sent before the subscription was up, delays an answer but never loses it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re

import redis.asyncio as aioredis

from services.gateway.dependencies import get_async_redis
from services.jobs import EVENT_PREFIX, FINAL_STATES, JobNotFound, job_key
from services.settings import get_settings

log = logging.getLogger("gridsight.gateway")

RECHECK_SECONDS = 1.0
# Rechecks back off to this: they only catch a missed message, and with hundreds of
# waiters one GET per waiter and second was most of the gateway's Redis traffic.
MAX_RECHECK_SECONDS = 5.0
RESUBSCRIBE_SECONDS = 1.0  # pause before subscribing again after the connection broke


# A stored job document starts with its id and status (Job's first two fields), so the
# status is read without parsing the reading and result behind it.
LEADING_STATUS = re.compile(rb'^\{"id":"[^"]*","status":"([a-z_]+)"')


def is_final(document: bytes) -> bool:
    match = LEADING_STATUS.match(document)
    status = match.group(1).decode() if match else json.loads(document)["status"]
    return status in FINAL_STATES


class JobEvents:
    """Reads job documents without blocking the event loop, and waits for them to end."""

    def __init__(self, client: aioredis.Redis, redis_url: str | None = None):
        self.loop = asyncio.get_running_loop()
        self.redis = client
        # The subscription has a connection of its own, without the pool's read timeout:
        # it is quiet whenever no job moves.
        self.subscriber = (aioredis.Redis.from_url(redis_url, socket_connect_timeout=1.0)
                           if redis_url else client)
        self.waiters: dict[str, set[asyncio.Event]] = {}
        self.listener: asyncio.Task | None = None

    async def document(self, job_id: str) -> bytes:
        try:
            raw = await self.redis.get(job_key(job_id))
        except aioredis.ConnectionError:
            # Pooled connections go stale when Redis restarts; the retry gets a fresh one.
            raw = await self.redis.get(job_key(job_id))
        if raw is None:
            raise JobNotFound(job_id)
        return raw

    async def wait_until_final(self, job_id: str, seconds: float) -> bytes:
        """The job's document once it is final, or as it is after `seconds`."""
        woken = asyncio.Event()
        self.waiters.setdefault(job_id, set()).add(woken)
        self._listen_in_background()
        deadline = self.loop.time() + seconds
        recheck = RECHECK_SECONDS
        try:
            while True:
                woken.clear()  # before reading: a change after this read wakes us
                remaining = deadline - self.loop.time()
                try:
                    raw = await self.document(job_id)
                except aioredis.ConnectionError:
                    if remaining <= 0:
                        raise  # Redis stayed away all along: 503
                    raw = None  # Redis restarting: the wait goes on
                if raw is not None and (remaining <= 0 or is_final(raw)):
                    return raw
                try:
                    await asyncio.wait_for(woken.wait(), min(remaining, recheck))
                except TimeoutError:
                    recheck = min(recheck * 2, MAX_RECHECK_SECONDS)
        finally:
            waiting = self.waiters.get(job_id, set())
            waiting.discard(woken)
            if not waiting:
                self.waiters.pop(job_id, None)

    def _listen_in_background(self) -> None:
        if self.listener is None or self.listener.done():
            self.listener = self.loop.create_task(self._listen())

    async def _listen(self) -> None:
        while True:
            try:
                async with self.subscriber.pubsub() as pubsub:
                    await pubsub.psubscribe(EVENT_PREFIX + "*")
                    async for message in pubsub.listen():
                        if message["type"] == "pmessage":
                            job_id = message["channel"].decode()[len(EVENT_PREFIX):]
                            for woken in self.waiters.get(job_id, ()):
                                woken.set()
            except (aioredis.ConnectionError, aioredis.TimeoutError, OSError) as exc:
                # Waiters keep rechecking on their own meanwhile.
                log.warning("job event subscription lost: %s", exc)
                await asyncio.sleep(RESUBSCRIBE_SECONDS)


_events: JobEvents | None = None


def job_events() -> JobEvents:
    """The process's JobEvents, made in (and bound to) the running event loop."""
    global _events
    if _events is None or _events.loop is not asyncio.get_running_loop():
        _events = JobEvents(get_async_redis(), get_settings().redis_url)
    return _events
