"""Run the whole service on one machine: a broker, both workers and the gateway.

The broker is the first that works of: the Redis at `REDIS_URL`; a private
`redis-server` child when the binary is installed; an in-process Redis emulation
(fakeredis) otherwise. All three speak the Redis protocol, so the workers and the
gateway run the same code in every case; bench/broker.py measures the difference.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

import redis

from services.contracts import (
    RECOGNIZE_QUEUE,
    SOLVE_LARGE_QUEUE,
    SOLVE_QUEUE,
    SOLVE_QUEUES,
    SOLVE_TYPED_QUEUE,
)

ROOT = Path(__file__).resolve().parent.parent
WORKER_MODULES = {
    RECOGNIZE_QUEUE: "services.recognizer.tasks",
    SOLVE_QUEUE: "services.solver.tasks",
    SOLVE_TYPED_QUEUE: "services.solver.tasks",
    SOLVE_LARGE_QUEUE: "services.solver.tasks",
}
# uvicorn's h11 with a deadline on request headers.
GATEWAY_PROTOCOL = "services.gateway.connections:HeaderDeadlineH11"
# One BLAS thread per worker: on two cores, more threads only fight each other.
QUIET_THREADS = {name: "1" for name in (
    "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENCV_NUM_THREADS")}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_healthy(base: str, seconds: float = 60, workers: bool = False) -> bool:
    """Whether the gateway at `base` answered within `seconds` that its Redis answers;
    with `workers`, that every queue has a live worker too (/healthz's 200)."""
    import httpx  # of the test extras: only benches and tests wait on a gateway

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            response = httpx.get(f"{base}/healthz", timeout=3)
            if response.status_code == 200 or (
                    not workers and response.json().get("redis") is True):
                return True
        except (httpx.TransportError, ValueError):
            pass
        time.sleep(0.2)
    return False


def wait_for_redis(url: str, seconds: float = 15.0) -> None:
    client = redis.Redis.from_url(url, socket_connect_timeout=1)
    deadline = time.monotonic() + seconds
    while True:
        try:
            client.ping()
            return
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def proxy_options(trusted: str) -> list[str]:
    """uvicorn believes X-Forwarded-For from these proxies only; from none by default
    (uvicorn's own default trusts any local process)."""
    return ["--forwarded-allow-ips", trusted] if trusted else ["--no-proxy-headers"]


def worker_command(queue: str, concurrency: int = 1, quiet: bool = False) -> list[str]:
    """`quiet`: without Celery's banner."""
    return [sys.executable, "-m", "celery", *(["--quiet"] if quiet else []),
            "-A", WORKER_MODULES[queue], "worker",
            "-Q", queue, "-n", f"{queue}@%h", "--concurrency", str(concurrency),
            "--loglevel", "warning", "--without-gossip", "--without-mingle"]


PR_SET_PDEATHSIG = 1  # prctl's option number (linux/prctl.h)


def die_with_parent(parent: int):
    """A child's first step: a process group of its own (a Ctrl-C meant for its parent
    does not cut it off mid-task; the parent stops its children in order), and SIGTERM
    when its parent dies, however it dies, so that no child outlives it."""
    def first_step() -> None:
        os.setpgid(0, 0)
        try:
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):  # not Linux: children stop with close() only
            return
        if os.getppid() != parent:  # the parent died before the signal was asked for
            os.kill(os.getpid(), signal.SIGTERM)
    return first_step


class FolderInUse(RuntimeError):
    pass


def hold_data_folder(folder: Path):
    """Take the data folder for this process (an flock on `serve.lock` in it, released
    when the process ends, however it ends); FolderInUse when another one holds it."""
    folder.mkdir(parents=True, exist_ok=True)
    lock = open(folder / "serve.lock", "a+")  # noqa: SIM115 - held for the process's life
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.seek(0)
        holder = lock.read().strip() or "unknown"
        lock.close()
        raise FolderInUse(f"the data folder {folder} is in use by another gridsight serve "
                          f"(pid {holder}); stop that one, or give this one another "
                          "--data folder") from None
    lock.truncate(0)
    lock.write(str(os.getpid()))
    lock.flush()
    return lock


NON_ROOT_USER = "nobody"


def unprivileged_user(user: str = NON_ROOT_USER) -> tuple[str | None, str]:
    """The user to run workers as, and why not when None: run as root, workers would be
    root too, which they do not need (Celery warns of it)."""
    if os.geteuid() != 0:
        return None, ""
    import pwd

    try:
        pwd.getpwnam(user)
    except KeyError:
        return None, f"there is no user {user!r} to run them as"
    try:
        probe = subprocess.run([sys.executable, "-c", "import celery, services.worker"],
                               cwd=ROOT, user=user, capture_output=True, timeout=60,
                               env=os.environ | {"PYTHONPATH": str(ROOT)})
    except (OSError, subprocess.SubprocessError) as exc:
        return None, f"user {user!r} cannot start Python here ({exc})"
    if probe.returncode != 0:
        reason = (probe.stderr.decode(errors="replace").strip().splitlines() or ["?"])[-1]
        return None, f"user {user!r} cannot run {sys.executable} or read {ROOT} ({reason})"
    return user, ""


@dataclass
class Stack:
    """Processes started for one machine's service; `close()` stops them all."""

    redis_url: str = ""
    broker: str = ""  # "external" | "redis-server" | "fakeredis"
    # Quiet: workers without Celery's banner, warnings or info logs (errors still show).
    quiet: bool = False
    worker_user: str | None = None  # run the workers as this user (from root)
    processes: list[subprocess.Popen] = field(default_factory=list)
    workers: dict[str, subprocess.Popen] = field(default_factory=dict)  # by queue
    _exit: ExitStack = field(default_factory=ExitStack)
    # How each child was started (by pid), so that a dead one can be started again.
    _launches: dict[int, dict] = field(default_factory=dict)

    def _spawn(self, command: list[str], **options) -> subprocess.Popen:
        options.setdefault("preexec_fn", die_with_parent(os.getpid()))
        proc = subprocess.Popen(command, **options)
        self._launches[proc.pid] = {"command": command, **options}
        self.processes.append(proc)
        return proc

    def restart_dead(self) -> list[str]:
        """Start again every child that has died, in place (same command, port and data
        folder); the commands of those restarted."""
        restarted = []
        for index, proc in enumerate(self.processes):
            launch = self._launches.get(proc.pid)
            if proc.poll() is None or launch is None:
                continue
            options = {k: v for k, v in launch.items() if k != "command"}
            fresh = subprocess.Popen(launch["command"], **options)
            self._launches[fresh.pid] = launch
            self.processes[index] = fresh
            for queue, worker in self.workers.items():
                if worker is proc:
                    self.workers[queue] = fresh
            restarted.append(" ".join(launch["command"][:6]))
        return restarted

    def start_broker(self, prefer: str | None = None, data_dir: Path | None = None) -> str:
        """prefer: None (choose), "redis-server" or "fakeredis"; the environment variable
        GRIDSIGHT_BROKER sets the same choice. With data_dir, a redis-server child keeps
        its data there in an append-only file, so its restart loses no job."""
        prefer = prefer or os.environ.get("GRIDSIGHT_BROKER") or None
        url = os.environ.get("REDIS_URL")
        if url and prefer is None:
            self.redis_url, self.broker = url, "external"
        elif shutil.which("redis-server") and prefer in (None, "redis-server"):
            self._start_redis_server(data_dir)
        else:
            self._start_fakeredis()
        wait_for_redis(self.redis_url)
        return self.redis_url

    def _start_redis_server(self, data_dir: Path | None = None) -> None:
        port = free_port()
        if data_dir is None:
            folder, persist = self._exit.enter_context(tempfile.TemporaryDirectory()), "no"
        else:
            data_dir.mkdir(parents=True, exist_ok=True)
            folder, persist = str(data_dir), "yes"
        self._spawn(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", folder,
             "--save", "", "--appendonly", persist, "--maxmemory-policy", "noeviction",
             "--maxmemory", "512mb"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        self.redis_url, self.broker = f"redis://127.0.0.1:{port}/0", "redis-server"

    def _start_fakeredis(self) -> None:
        import fakeredis

        port = free_port()
        server = fakeredis.TcpFakeServer(("127.0.0.1", port), server_type="redis")
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self._exit.callback(server.shutdown)
        self.redis_url, self.broker = f"redis://127.0.0.1:{port}/0", "fakeredis"

    def environment(self) -> dict[str, str]:
        path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
        quiet = {"GRIDSIGHT_LOG_LEVEL": "warning", "PYTHONWARNINGS": "ignore"} if self.quiet \
            else {}
        return (os.environ | QUIET_THREADS | quiet
                | {"REDIS_URL": self.redis_url, "PYTHONPATH": path})

    def start_workers(self, queues=(RECOGNIZE_QUEUE, *SOLVE_QUEUES),
                      recognize_processes: int = 1) -> None:
        """One worker per queue. Reading pictures is the slow stage, so its worker may run
        several pool processes; solving a picture's reading takes milliseconds and one is
        plenty. Typed-in puzzles (small, and large) have solvers of their own, so
        pictures never wait behind them."""
        for queue in queues:
            processes = recognize_processes if queue == RECOGNIZE_QUEUE else 1
            as_user = {"user": self.worker_user, "group": self.worker_group()} \
                if self.worker_user else {}
            if self.quiet:  # Celery's banner and shutdown notes; errors go to stderr
                as_user["stdout"] = subprocess.DEVNULL
            self.workers[queue] = self._spawn(worker_command(queue, processes, self.quiet),
                                              cwd=ROOT, env=self.environment(), **as_user)

    def worker_group(self) -> int:
        import pwd

        return pwd.getpwnam(self.worker_user).pw_gid

    def start_gateway(self, host: str = "127.0.0.1", port: int = 8000, nice: int = 0) -> str:
        """The gateway; `nice` > 0 runs it at a lower priority (the load benchmark starves
        it of CPU that way)."""
        command = [sys.executable, "-m", "uvicorn", "services.gateway.app:app",
                   "--host", host, "--port", str(port), "--log-level", "warning",
                   "--http", GATEWAY_PROTOCOL,
                   *proxy_options(os.environ.get("GRIDSIGHT_TRUSTED_PROXIES", ""))]
        if nice:
            command = ["nice", "-n", str(nice), *command]
        self._spawn(command, cwd=ROOT, env=self.environment())
        return f"http://{host}:{port}"

    def start_service(self, prefer: str | None = None, workers: bool = True,
                      seconds: float = 60.0) -> str:
        """A broker, one worker per queue (unless `workers` is False) and a gateway on a free
        port; the gateway's address once it answers that its Redis does."""
        self.start_broker(prefer=prefer)
        if workers:
            self.start_workers()
        base = self.start_gateway(port=free_port())
        if not wait_healthy(base, seconds):
            raise TimeoutError(f"gateway at {base} did not become healthy")
        return base

    def close(self, grace_seconds: float = 10.0) -> None:
        """Stop the children, gateway first and broker last. A worker given SIGTERM
        finishes its running task first (Celery's warm shutdown) for up to grace_seconds;
        a task cut off then is not acknowledged, and goes to another worker."""
        for proc in reversed(self.processes):
            if proc.poll() is None:
                proc.terminate()
        for proc in reversed(self.processes):
            try:
                proc.wait(timeout=grace_seconds)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        self.processes.clear()
        self._exit.close()

    def __enter__(self) -> Stack:
        return self

    def __exit__(self, *_exc) -> None:
        self.close()
