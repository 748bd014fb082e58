"""Load test: N concurrent clients post rendered screenshots to a running stack.

Reports throughput, latency p50/p95/p99 (whole job, and per stage from the job's own
timings), lost jobs and wrong answers; optionally SIGKILLs a worker's pool process in the
middle of the run. The baseline, measured in the same run, is the same pictures read and
solved in one process with no queue (the library path of `gridsight solve`).

    .venv/bin/python bench/load.py --jobs 200 --clients 8
    .venv/bin/python bench/load.py --jobs 1000 --clients 16 --kill-worker
    .venv/bin/python bench/load.py --url http://127.0.0.1:8000   # an already running stack
    .venv/bin/python bench/load.py --jobs 400 --clients 16 --restart-redis   # Redis shut down
                                   # for 3 s and started again, then killed (-9) and started
    .venv/bin/python bench/load.py --jobs 400 --clients 16 --pollers 300  # + 300 long polls
    .venv/bin/python bench/load.py --jobs 200 --clients 16 --pollers 300 --gateway-nice 19
                                   # ... with the gateway starved of CPU

Clients ride through a Redis restart as a person's client would: an upload answered 503
is sent again after its Retry-After. Every answer of 500 or more is counted.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gridsight.stack import Stack, free_port, wait_healthy  # noqa: E402
from gridsight.synth.puzzles import make_sudoku  # noqa: E402
from gridsight.synth.render import render_sudoku  # noqa: E402

FINAL = {"solved", "needs_review", "failed"}
DISRUPTION = {(False, False): "", (True, False): ", one worker killed mid-run",
              (True, True): ", Redis restarted and killed mid-run"}


def pictures(count: int) -> list[tuple[bytes, list[list[int]]]]:
    out = []
    styles = ["screenshot", "app", "bold", "thin"]
    for seed in range(count):
        givens, solution = make_sudoku(random.Random(1000 + seed))
        buffer = io.BytesIO()
        render_sudoku(givens, style=styles[seed % len(styles)], seed=seed).save(buffer, "PNG")
        out.append((buffer.getvalue(), solution))
    return out


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def baseline_rate(samples: list[tuple[bytes, list[list[int]]]]) -> float:
    """Jobs per second when one process reads and solves each picture directly."""
    from services.recognizer import recognize
    from services.solver import solve_reading

    solve_reading(recognize(samples[0][0], "auto"))  # models loaded, first CP-SAT model
    started = time.perf_counter()
    for _ in range(2):
        for data, _ in samples:
            solve_reading(recognize(data, "auto"))
    return 2 * len(samples) / (time.perf_counter() - started)


class Answers:
    """Every HTTP status the clients saw, and the failures to connect at all."""

    def __init__(self):
        self.statuses: dict[int, int] = {}
        self.errors: dict[str, int] = {}  # transport errors by kind

    def note(self, status: int) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1

    @property
    def server_errors(self) -> int:
        return sum(n for status, n in self.statuses.items() if status >= 500)


async def request(http: httpx.AsyncClient, answers: Answers, method: str, url: str,
                  give_up: float, **kwargs) -> httpx.Response | None:
    """One request, sent again while the service says 503 (or cannot be reached), as a
    client riding through a restart would; None when it never got through."""
    while True:
        try:
            response = await http.request(method, url, **kwargs)
            answers.note(response.status_code)
            if response.status_code != 503:
                return response
            pause = float(response.headers.get("retry-after", 1))
        except httpx.TransportError as exc:
            answers.note(0)  # connection refused or dropped
            answers.errors[type(exc).__name__] = answers.errors.get(type(exc).__name__, 0) + 1
            pause = 1.0
        if time.perf_counter() + pause > give_up:
            return None
        await asyncio.sleep(pause)


async def run_load(base: str, samples, jobs: int, clients: int, disrupt,
                   long_poll: bool = True, pollers: int = 0) -> dict:
    queue: asyncio.Queue[int] = asyncio.Queue()
    for i in range(jobs):
        queue.put_nowait(i)
    results: list[dict] = []
    posted = 0
    answers, poller_answers = Answers(), Answers()
    job_ids: list[str] = []
    finished = asyncio.Event()

    async def client() -> None:
        nonlocal posted
        async with httpx.AsyncClient(base_url=base, timeout=60) as http:
            while not queue.empty():
                i = queue.get_nowait()
                data, solution = samples[i % len(samples)]
                started = time.perf_counter()
                deadline = started + 300
                response = await request(http, answers, "POST", "/v1/jobs", deadline,
                                         files={"image": ("p.png", data, "image/png")})
                posted += 1
                if disrupt is not None and posted == jobs // 3:
                    asyncio.get_running_loop().run_in_executor(None, disrupt)
                if response is None or response.status_code != 202:
                    results.append({"ok": False, "lost": False,
                                    "status": response.status_code if response else 0})
                    continue
                job_id = response.json()["id"]
                job_ids.append(job_id)
                pause = 0.05
                while True:
                    params = {"wait": 30} if long_poll else {}  # answered when the job ends
                    polled = await request(http, answers, "GET", f"/v1/jobs/{job_id}",
                                           deadline, params=params)
                    if polled is None or polled.status_code != 200:
                        job = {"status": "unreachable"}
                        break
                    job = polled.json()
                    if job["status"] in FINAL or time.perf_counter() > deadline:
                        break
                    if not long_poll:
                        await asyncio.sleep(pause)
                        pause = min(pause * 1.5, 0.5)  # back off, as the web page does
                result = job.get("result") or {}
                results.append({
                    "ok": job["status"] == "solved" and result.get("solution") == solution,
                    # The worst outcome: an answer given as solved that is not the truth.
                    "wrong": job["status"] == "solved" and result.get("solution") != solution,
                    "review": job["status"] == "needs_review",
                    "lost": job["status"] not in FINAL,
                    "seconds": time.perf_counter() - started,
                    "timings": job.get("timings", {}),
                })

    async def poller(number: int) -> None:
        """A person's page waiting on a job: long polls of 5 s, one after another."""
        limits = httpx.Limits(max_connections=1)
        async with httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as http:
            while not finished.is_set():
                if not job_ids:
                    await asyncio.sleep(0.1)
                    continue
                job_id = job_ids[number % len(job_ids)]
                await request(http, poller_answers, "GET", f"/v1/jobs/{job_id}",
                              time.perf_counter() + 60, params={"wait": 5})

    started = time.perf_counter()
    waiting = [asyncio.create_task(poller(n)) for n in range(pollers)]
    await asyncio.gather(*(client() for _ in range(clients)))
    elapsed = time.perf_counter() - started
    finished.set()
    await asyncio.gather(*waiting)
    return {"results": results, "elapsed": elapsed, "answers": answers,
            "poller_answers": poller_answers}


def tree_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and all its living descendants (Linux /proc)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except (OSError, IndexError, ValueError):
        return total
    return total + sum(tree_cpu_seconds(int(child)) for child in children)


def cpu_by_role(stack: Stack | None) -> dict[str, float]:
    """CPU seconds so far of each part of the stack, and of this process (the clients)."""
    usage = os.times()
    roles = {"clients (this process)": usage.user + usage.system}
    if stack is not None:
        roles["redis-server"] = tree_cpu_seconds(stack.processes[0].pid)
        for queue, worker in stack.workers.items():
            roles[f"{queue} worker"] = tree_cpu_seconds(worker.pid)
        roles["gateway"] = tree_cpu_seconds(stack.processes[-1].pid)
    return roles


def killer(stack: Stack):
    def kill() -> None:
        worker = stack.workers["recognize"]
        listing = subprocess.run(["ps", "-o", "pid=", "--ppid", str(worker.pid)],
                                 capture_output=True, text=True).stdout
        for pid in listing.split():
            os.kill(int(pid), signal.SIGKILL)
        print(f"  killed the pool process(es) {listing.split()} of worker {worker.pid}")
    return kill


def redis_restarter(stack: Stack):
    """Shut Redis down (as `redis-cli shutdown`), start it again 3 s later; once that
    has settled, kill it (-9) and start it again 1 s later. Its data is kept in an
    append-only file, as in docker-compose.yml."""
    def restart() -> None:
        import redis

        server = stack.processes[0]
        command = server.args
        redis.Redis.from_url(stack.redis_url).shutdown(nosave=False)
        server.wait(timeout=10)
        time.sleep(3)
        stack.processes[0] = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL)
        print("  Redis shut down and started again after 3 s")
        time.sleep(5)
        stack.processes[0].kill()
        stack.processes[0].wait()
        time.sleep(1)
        stack.processes[0] = subprocess.Popen(command, stdout=subprocess.DEVNULL,
                                              stderr=subprocess.DEVNULL)
        print("  Redis killed (-9) and started again after 1 s")
    return restart


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--jobs", type=int, default=200)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--pictures", type=int, default=20)
    parser.add_argument("--readers", type=int, default=os.cpu_count() or 1,
                        help="pool processes of the recognize worker")
    parser.add_argument("--kill-worker", action="store_true")
    parser.add_argument("--restart-redis", action="store_true",
                        help="shut Redis down and restart it, then kill -9 and restart it, "
                             "a third of the way in")
    parser.add_argument("--pollers", type=int, default=0,
                        help="this many extra clients long-polling jobs all along")
    parser.add_argument("--gateway-nice", type=int, default=0,
                        help="run the gateway at this niceness: starved of CPU, as on a "
                             "busy machine")
    parser.add_argument("--poll", action="store_true",
                        help="poll with back-off instead of long polling (?wait=)")
    parser.add_argument("--url", help="an already running gateway (no worker kill then)")
    parser.add_argument("--summary", help="also write the figures as JSON to this file")
    args = parser.parse_args()

    samples = pictures(args.pictures)
    base_rate = baseline_rate(samples)
    stack = None
    if args.url:
        base = args.url
    else:
        # One address posts every job here, so the per-client rate limit is lifted.
        os.environ["GRIDSIGHT_JOBS_PER_MINUTE"] = "0"
        os.environ["GRIDSIGHT_READS_PER_MINUTE"] = "0"
        stack = Stack()
        if args.restart_redis:
            data = Path(tempfile.mkdtemp(prefix="gridsight-load-"))
            stack.start_broker(prefer="redis-server", data_dir=data)
        else:
            stack.start_broker(prefer="redis-server")
        stack.start_workers(recognize_processes=args.readers)
        base = stack.start_gateway(port=free_port(), nice=args.gateway_nice)
        if not wait_healthy(base):
            raise SystemExit("gateway did not start")
        time.sleep(2)  # let the workers connect
    kill = killer(stack) if (stack and args.kill_worker) else None
    if stack and args.restart_redis:
        kill = redis_restarter(stack)
    try:
        cpu_before = cpu_by_role(stack)
        run = asyncio.run(run_load(base, samples, args.jobs, args.clients, kill,
                                   long_poll=not args.poll, pollers=args.pollers))
        cpu_after = cpu_by_role(stack)
    finally:
        if stack:
            stack.close()
    results = run["results"]
    done = [r for r in results if "seconds" in r]
    rate = len(results) / run["elapsed"]
    print(f"\n{args.jobs} jobs, {args.clients} clients, {len(samples)} distinct screenshots, "
          f"{os.cpu_count()} cores{DISRUPTION[bool(kill), args.restart_redis]}, "
          f"{f'gateway at nice {args.gateway_nice}, ' if args.gateway_nice else ''}"
          f"{'polling with back-off' if args.poll else 'long polling'}")
    print(f"{'figure':34} {'value':>10}")
    print(f"{'throughput (jobs/s)':34} {rate:10.1f}")
    print(f"{'baseline: one process, no queue':34} {base_rate:10.1f}")
    print(f"{'ratio service / baseline':34} {rate / base_rate:10.2f}")
    print(f"{'refused at upload':34} {sum('status' in r for r in results):10d}")
    print(f"{'lost jobs':34} {sum(r['lost'] for r in results):10d}")
    print(f"{'not solved (review, failed, lost)':34} {sum(not r['ok'] for r in results):10d}")
    print(f"{'  of which needs_review':34} {sum(r.get('review', 0) for r in results):10d}")
    print(f"{'wrong answers given as solved':34} {sum(r.get('wrong', 0) for r in results):10d}")
    print(f"{'slowest job (s)':34} {max((r['seconds'] for r in done), default=0):10.1f}")
    answers, poller_answers = run["answers"], run["poller_answers"]
    print(f"{'answers >= 500 (jobs clients)':34} {answers.server_errors:10d}")
    print(f"{'answers by status (jobs clients)':34} {answers.statuses} {answers.errors}")
    if args.pollers:
        print(f"{'long polls by extra pollers':34} {sum(poller_answers.statuses.values()):10d}")
        print(f"{'answers >= 500 (pollers)':34} {poller_answers.server_errors:10d}")
        print(f"{'answers by status (pollers)':34} {poller_answers.statuses} "
              f"{poller_answers.errors}")
    print(f"\n{'latency (ms)':24} {'p50':>8} {'p95':>8} {'p99':>8}")
    series = {"whole job (post to final)": [r["seconds"] for r in done],
              "recognize stage": [r["timings"].get("recognize", 0) for r in done],
              "solve stage": [r["timings"].get("solve", 0) for r in done]}
    for name, values in series.items():
        print(f"{name:24} " + " ".join(f"{percentile(values, q) * 1000:8.0f}"
                                       for q in (0.5, 0.95, 0.99)))
    print(f"\n{'CPU ms per job':34} {'value':>10}")
    for role, seconds in cpu_after.items():
        print(f"{role:34} {(seconds - cpu_before[role]) * 1000 / len(results):10.1f}")
    if args.summary:
        Path(args.summary).write_text(json.dumps({
            "jobs": len(results), "throughput": rate, "baseline": base_rate,
            "lost": sum(r["lost"] for r in results),
            "wrong": sum(not r["ok"] for r in results), "killed": kill is not None,
            "wrong_solved": sum(r.get("wrong", 0) for r in results),
            "needs_review": sum(r.get("review", 0) for r in results),
            "server_errors": answers.server_errors + poller_answers.server_errors,
            "statuses": answers.statuses, "poller_statuses": poller_answers.statuses,
            "p95_seconds": percentile(series["whole job (post to final)"], 0.95)}))


if __name__ == "__main__":
    main()
