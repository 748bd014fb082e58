"""`gridsight serve` survives the death of its children: a worker and
its private redis-server are killed, started again, and no job is lost."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import httpx

from gridsight.stack import ROOT, free_port
from tests.conftest import stop, wait_for_job, wait_until_healthy
from tests.test_cli import GRIDSIGHT
from tests.test_delivery import post_text, typed_in


def children(pid: int) -> dict[int, str]:
    """Child pids and their command lines."""
    listing = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)],
                             capture_output=True, text=True).stdout
    found = {}
    for child in map(int, listing.split()):
        try:
            found[child] = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            pass
    return found


def kill_tree(pid: int) -> None:
    for child in children(pid):
        os.kill(child, signal.SIGKILL)
    os.kill(pid, signal.SIGKILL)


def test_serve_restarts_a_killed_worker_and_redis_and_keeps_jobs(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env |= {"GRIDSIGHT_BROKER": "redis-server", "OPENBLAS_NUM_THREADS": "1",
            "GRIDSIGHT_JOBS_PER_MINUTE": "0", "GRIDSIGHT_READS_PER_MINUTE": "0"}
    log = tmp_path / "serve.log"
    server = subprocess.Popen([*GRIDSIGHT, "serve", "--port", str(port),
                               "--data", str(tmp_path / "data"), "--readers", "1"],
                              cwd=ROOT, env=env, stdout=log.open("w"),
                              stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_healthy(base, seconds=90)
        with httpx.Client(base_url=base, timeout=30) as http:
            text, solution = typed_in(51)
            first = post_text(http, text)
            assert wait_for_job(http, first)["result"]["solution"] == solution
            time.sleep(1.5)  # the append-only file is written every second

            members = children(server.pid)
            (solver,) = [pid for pid, args in members.items() if "-Q solve " in args + " "]
            (broker,) = [pid for pid, args in members.items() if "redis-server" in args]
            kill_tree(solver)
            os.kill(broker, signal.SIGKILL)

            time.sleep(2)
            assert server.poll() is None, log.read_text()[-2000:]
            wait_until_healthy(base, seconds=60)
            kept = http.get(f"/v1/jobs/{first}").json()
            assert kept["status"] == "solved" and kept["result"]["solution"] == solution
            text, solution = typed_in(52)
            second = post_text(http, text)
            job = wait_for_job(http, second, seconds=90)
            assert job["status"] == "solved" and job["result"]["solution"] == solution
        assert "restarted a stopped process" in log.read_text()
    finally:
        stop(server, 60)


def descendants(pid: int) -> dict[int, str]:
    found = children(pid)
    for child in list(found):
        found |= descendants(child)
    return found


def alive(pid: int) -> bool:
    """Running, not a zombie waiting to be reaped."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_serve_is_quiet_holds_its_data_folder_and_leaves_no_orphans(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env |= {"GRIDSIGHT_BROKER": "redis-server", "OPENBLAS_NUM_THREADS": "1"}
    data = tmp_path / "data"
    log = tmp_path / "serve.log"
    command = [*GRIDSIGHT, "serve", "--port", str(port), "--data", str(data), "--readers", "1"]
    server = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log.open("w"),
                              stderr=subprocess.STDOUT)
    family: dict[int, str] = {}
    try:
        deadline = time.monotonic() + 90
        while "serving on" not in log.read_text():
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        time.sleep(2)  # anything printed after the URL comes now
        lines = log.read_text().splitlines()
        assert len(lines) <= 10, lines
        assert f"gridsight: serving on http://127.0.0.1:{port}" in lines
        assert sum("worker ready" in line for line in lines) == 4, lines
        assert not any("celery@" in line or "Warning" in line or "----" in line
                       for line in lines), lines

        second = subprocess.run([*GRIDSIGHT, "serve", "--port", str(free_port()), "--data",
                                 str(data)], cwd=ROOT, env=env, capture_output=True,
                                text=True, timeout=60)
        assert second.returncode == 1
        assert f"data folder {data} is in use" in second.stderr
        assert str(server.pid) in second.stderr

        family = descendants(server.pid)
        assert sum("celery" in args for args in family.values()) >= 8  # 4 workers, 4 pools
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
        started = time.monotonic()
        while left := {pid: args for pid, args in family.items() if alive(pid)}:
            assert time.monotonic() < started + 20, f"orphans: {left}"
            time.sleep(0.2)
        print(f"all {len(family)} children gone {time.monotonic() - started:.1f} s after "
              "serve was killed")
    finally:
        if server.poll() is None:
            kill_tree(server.pid)
        for pid in family:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)
