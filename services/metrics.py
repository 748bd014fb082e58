"""Counters and histograms kept in Redis, so every process adds to the same figures,
and their Prometheus text exposition (served by the gateway at /metrics)."""

from __future__ import annotations

import redis

from services.contracts import RECOGNIZE_QUEUE, SOLVE_QUEUES

PREFIX = "gridsight:metrics"
BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)


def record_stage(client: redis.Redis, stage: str, seconds: float,
                 outcome: str | None = None) -> None:
    """One finished stage ('recognize', 'solve') that took `seconds`, and the job's final
    state when the stage ended it: one round trip (counters need no transaction)."""
    key = f"{PREFIX}:stage:{stage}"
    with client.pipeline(transaction=False) as pipe:
        for bound in BUCKETS:
            if seconds <= bound:
                pipe.hincrby(key, f"le_{bound}", 1)
        pipe.hincrby(key, "count", 1)
        pipe.hincrbyfloat(key, "sum", seconds)
        if outcome is not None:
            pipe.hincrby(f"{PREFIX}:outcomes", outcome, 1)
        pipe.execute()


def record_outcome(client: redis.Redis, status: str) -> None:
    client.hincrby(f"{PREFIX}:outcomes", status, 1)


REQUESTS_KEY = f"{PREFIX}:requests"


def request_field(method: str, route: str, status: int) -> str:
    """The field of REQUESTS_KEY counting one route's answers with one status."""
    return f"{method} {route} {status}"


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def exposition(client: redis.Redis) -> str:
    """All figures in the Prometheus text format, version 0.0.4."""
    lines = ["# HELP gridsight_http_requests_total HTTP requests by route and status.",
             "# TYPE gridsight_http_requests_total counter"]
    for field, count in sorted(client.hgetall(REQUESTS_KEY).items()):
        method, route, status = _text(field).split(" ")
        lines.append(f'gridsight_http_requests_total{{method="{method}",route="{route}",'
                     f'status="{status}"}} {int(count)}')
    lines += ["# HELP gridsight_jobs_total Jobs that reached a final state, by state.",
              "# TYPE gridsight_jobs_total counter"]
    for status, count in sorted(client.hgetall(f"{PREFIX}:outcomes").items()):
        lines.append(f'gridsight_jobs_total{{status="{_text(status)}"}} {int(count)}')
    lines += ["# HELP gridsight_stage_seconds Time spent in each stage of a job.",
              "# TYPE gridsight_stage_seconds histogram"]
    for stage in ("recognize", "solve"):
        fields = {_text(k): _text(v) for k, v in
                  client.hgetall(f"{PREFIX}:stage:{stage}").items()}
        for bound in BUCKETS:
            lines.append(f'gridsight_stage_seconds_bucket{{stage="{stage}",le="{bound}"}} '
                         f'{int(fields.get(f"le_{bound}", 0))}')
        count = int(fields.get("count", 0))
        lines.append(f'gridsight_stage_seconds_bucket{{stage="{stage}",le="+Inf"}} {count}')
        lines.append(f'gridsight_stage_seconds_sum{{stage="{stage}"}} '
                     f'{float(fields.get("sum", 0)):.6f}')
        lines.append(f'gridsight_stage_seconds_count{{stage="{stage}"}} {count}')
    lines += ["# HELP gridsight_queue_depth Tasks waiting in each queue.",
              "# TYPE gridsight_queue_depth gauge"]
    for queue in (RECOGNIZE_QUEUE, *SOLVE_QUEUES):
        lines.append(f'gridsight_queue_depth{{queue="{queue}"}} {client.llen(queue)}')
    return "\n".join(lines) + "\n"
