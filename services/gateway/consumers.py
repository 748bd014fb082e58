"""Which queues a live worker consumes, asked of the workers themselves (Celery's
remote control), at most every CONSUMERS_REFRESH_SECONDS, within CONSUMERS_SECONDS.

A worker that is frozen, killed or cut off from Redis does not answer. A queue counts as
served while a worker for it answered within SERVED_GRACE_SECONDS, so one reply lost on
a busy machine does not make /healthz fail, and a queue that lost its last worker is
reported within about eight seconds.
"""

from __future__ import annotations

import asyncio
import time

from fastapi.concurrency import run_in_threadpool

from services.contracts import RECOGNIZE_QUEUE, SOLVE_QUEUES
from services.gateway.dependencies import get_sender

QUEUES = (RECOGNIZE_QUEUE, *SOLVE_QUEUES)
CONSUMERS_SECONDS = 1.5
CONSUMERS_REFRESH_SECONDS = 2.0
SERVED_GRACE_SECONDS = 5.0


def ask_workers() -> dict[str, int]:
    """Workers that answered, by queue (blocking, up to CONSUMERS_SECONDS)."""
    replies = get_sender().control.inspect(timeout=CONSUMERS_SECONDS).active_queues() or {}
    counts: dict[str, int] = {}
    for queues in replies.values():
        for queue in queues or []:
            counts[queue["name"]] = counts.get(queue["name"], 0) + 1
    return counts


class Consumers:
    def __init__(self):
        self.asked_at = float("-inf")
        self.counts: dict[str, int] = {}
        self.last_seen: dict[str, float] = {}
        self.answers: dict[str, int] = {}
        self.lock: asyncio.Lock | None = None

    async def by_queue(self) -> dict[str, int]:
        """Live workers of each queue (the last count seen while one was within grace)."""
        if self.lock is None:
            self.lock = asyncio.Lock()
        async with self.lock:
            now = time.monotonic()
            if now - self.asked_at >= CONSUMERS_REFRESH_SECONDS:
                try:
                    counts = await run_in_threadpool(ask_workers)
                except Exception:  # the broker is away: nobody could answer
                    counts = {}
                self.asked_at = time.monotonic()
                for queue, count in counts.items():
                    self.last_seen[queue], self.answers[queue] = self.asked_at, count
        now = time.monotonic()
        return {queue: self.answers.get(queue, 0)
                if now - self.last_seen.get(queue, float("-inf")) <= SERVED_GRACE_SECONDS
                else 0 for queue in QUEUES}


consumers = Consumers()
