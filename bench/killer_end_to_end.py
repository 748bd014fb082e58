"""Killer screenshots end to end: posted over HTTP to the whole service, one at a time.

For each picture of a killer group (the same cases as bench/recognition_killer.py with
the shipped models), the time from posting it to having the job's answer (long polling),
beside the same picture read and solved in this process with no queue (the library path,
the baseline). Prints both medians and p95s and their ratios: what the queue, the
workers' hand-offs and HTTP add to what a person waits.

    .venv/bin/python bench/killer_end_to_end.py --group textured --n 60 --seed 400
    .venv/bin/python bench/killer_end_to_end.py --url http://127.0.0.1:8000   # a running one
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import httpx  # noqa: E402
import numpy as np  # noqa: E402
import recognition_killer  # noqa: E402
from recognition_killer import GROUPS, killer_case, style_cases  # noqa: E402

from gridsight.stack import Stack  # noqa: E402
from services.recognizer import recognize  # noqa: E402
from services.solver import solve_page  # noqa: E402

FINISHED = {"solved", "needs_review", "failed"}  # the job statuses that end it


def started_stack() -> tuple[Stack, str]:
    """A whole service on this machine (Redis, workers, gateway); its address."""
    os.environ["GRIDSIGHT_JOBS_PER_MINUTE"] = "0"  # one address posts every job
    stack = Stack()
    try:
        base = stack.start_service(prefer="redis-server")
    except TimeoutError:
        stack.close()
        raise SystemExit("gateway did not start") from None
    time.sleep(2)  # let the workers connect
    return stack, base


def over_http(client: httpx.Client, picture: bytes) -> tuple[float, dict]:
    """Seconds from posting the picture to its job's answer, and the job."""
    started = time.perf_counter()
    posted = client.post("/v1/jobs", files={"image": ("killer.png", picture, "image/png")},
                         data={"kind": "auto"})
    posted.raise_for_status()
    while True:
        job = client.get(posted.headers["location"], params={"wait": 30}).json()
        if job.get("status") in FINISHED:
            return time.perf_counter() - started, job


def in_process(picture: bytes) -> tuple[float, list]:
    """Seconds to read and solve the picture here, and the solution."""
    started = time.perf_counter()
    result = solve_page(recognize(picture, kind="auto"))
    return time.perf_counter() - started, result.solution


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--group", choices=GROUPS, default="textured")
    parser.add_argument("--n", type=int, default=60)
    parser.add_argument("--seed", type=int, default=400,
                        help="offset of the group's first picture (shipped models: 0-499)")
    parser.add_argument("--seed0", type=int, help="first seed (recognition_killer's --seed0)")
    parser.add_argument("--url", help="an already running gateway")
    args = parser.parse_args()
    if args.seed0 is not None:
        recognition_killer.SEED0 = args.seed0
    stack, base = (None, args.url) if args.url else started_stack()
    local, remote, agree, right = [], [], 0, 0
    try:
        with httpx.Client(base_url=base, timeout=60) as client:
            for seed, style, _ in style_cases(args.group, args.n, args.seed):
                picture, _, solution, _ = killer_case(seed, style)
                seconds, mine = in_process(picture)
                local.append(seconds)
                seconds, job = over_http(client, picture)
                remote.append(seconds)
                theirs = (job.get("result") or {}).get("solution")
                agree += theirs == mine
                right += theirs == solution
    finally:
        if stack:
            stack.close()
    print(f"# Killer end to end: {args.group}, {args.n} pictures from seed "
          f"{recognition_killer.SEED0} offset {args.seed}, {os.cpu_count()} cores, one at a time")
    print("| path | median s | p95 s | vs in process (median / p95) |")
    print("|---|---:|---:|---:|")
    for name, times in (("in process (baseline)", local), ("over HTTP, post to answer", remote)):
        med, p95 = np.median(times), np.percentile(times, 95)
        print(f"| {name} | {med:.3f} | {p95:.3f} | "
              f"{med / np.median(local):.2f}x / {p95 / np.percentile(local, 95):.2f}x |")
    print(f"\nSame solution both ways: {agree} of {args.n}; right over HTTP: {right} of {args.n}")


if __name__ == "__main__":
    main()
