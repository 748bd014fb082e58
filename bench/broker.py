"""Which embedded broker should `gridsight serve` use when no Redis is configured?

Measures the round trip of a trivial task (send, a worker runs it, the caller gets the
result) through each candidate, side by side in one run:
  redis-server   a private redis-server child (what `serve` uses when the binary exists)
  fakeredis      an in-process Redis emulation over TCP (what `serve` falls back to)
  filesystem     Celery's filesystem transport with file results (default and 50 ms polling)

    .venv/bin/python bench/broker.py [--tasks 50]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from gridsight.stack import Stack  # noqa: E402


def measure(env: dict[str, str], tasks: int) -> list[float]:
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "echo_app", "worker", "-P", "solo",
         "--loglevel", "error", "--without-gossip", "--without-mingle"],
        cwd=HERE, env=os.environ | env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        os.environ.update(env)
        sys.path.insert(0, str(HERE))
        import importlib

        import echo_app
        importlib.reload(echo_app)
        echo_app.echo.delay(0).get(timeout=60)  # warm up: the worker is listening
        times = []
        for i in range(tasks):
            started = time.perf_counter()
            assert echo_app.echo.delay(i).get(timeout=30, interval=0.005) == i
            times.append(time.perf_counter() - started)
        return times
    finally:
        worker.terminate()
        worker.wait()


def filesystem_env(folder: str, polling: float | None) -> dict[str, str]:
    options = {"data_folder_in": folder, "data_folder_out": folder, "control_folder": folder}
    if polling is not None:
        options["polling_interval"] = polling
    return {"BENCH_BROKER_URL": "filesystem://", "BENCH_RESULT_BACKEND": f"file://{folder}",
            "BENCH_TRANSPORT_OPTIONS": json.dumps(options)}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks", type=int, default=50)
    args = parser.parse_args()
    rows = []
    for name in ("redis-server", "fakeredis"):
        with Stack() as stack:
            url = stack.start_broker(prefer=name)
            times = measure({"BENCH_BROKER_URL": url, "BENCH_RESULT_BACKEND": url}, args.tasks)
            rows.append((name, times))
    for label, polling in (("filesystem (default polling)", None), ("filesystem (50 ms)", 0.05)):
        with tempfile.TemporaryDirectory() as folder:
            rows.append((label, measure(filesystem_env(folder, polling), args.tasks)))
    base = statistics.median(rows[0][1])
    print(f"Trivial task round trip, {args.tasks} tasks each, one solo worker")
    print(f"{'broker':32} {'median ms':>10} {'p95 ms':>8} {'vs redis-server':>16}")
    for name, times in rows:
        times.sort()
        median, p95 = statistics.median(times), times[int(0.95 * (len(times) - 1))]
        print(f"{name:32} {median * 1000:10.1f} {p95 * 1000:8.1f} {median / base:15.1f}x")


if __name__ == "__main__":
    main()
