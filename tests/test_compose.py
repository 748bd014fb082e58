"""docker-compose.yml and the Dockerfile checked against the code (no engine runs here)."""

from __future__ import annotations

import importlib
import json
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from services import contracts
from services.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
SERVICES = COMPOSE["services"]
WORKERS = {"recognizer": (contracts.RECOGNIZE_QUEUE, contracts.RECOGNIZE_TASK),
           "solver": (contracts.SOLVE_QUEUE, contracts.SOLVE_TASK),
           "solver-typed": (contracts.SOLVE_TYPED_QUEUE, contracts.SOLVE_TASK),
           "solver-large": (contracts.SOLVE_LARGE_QUEUE, contracts.SOLVE_TASK)}


def option(command: list[str], flag: str) -> str:
    return command[command.index(flag) + 1]


def known_variables() -> set[str]:
    names = {"REDIS_URL", "OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"}
    prefix = Settings.model_config["env_prefix"]
    return names | {prefix + name.upper() for name in Settings.model_fields}


def test_compose_file_matches_the_compose_schema():
    checker = shutil.which("check-jsonschema") or str(
        Path(__import__("sys").executable).parent / "check-jsonschema")
    done = subprocess.run([checker, "--builtin-schema", "vendor.compose-spec",
                           str(ROOT / "docker-compose.yml")], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_all_services_are_there_with_healthchecks():
    assert set(SERVICES) == {"redis", "gateway", *WORKERS}
    for name, service in SERVICES.items():
        assert "healthcheck" in service, name


def test_redis_keeps_data_and_never_evicts_jobs():
    command = " ".join(SERVICES["redis"]["command"])
    assert "--appendonly yes" in command
    assert "--maxmemory-policy noeviction" in command
    assert any(volume.endswith(":/data") for volume in SERVICES["redis"]["volumes"])


def test_depends_on_names_defined_services_and_waits_for_health():
    for name, service in SERVICES.items():
        for needed, how in service.get("depends_on", {}).items():
            assert needed in SERVICES, f"{name} depends on undefined {needed}"
            assert how["condition"] == "service_healthy"
    for name in ("gateway", *WORKERS):
        assert "redis" in SERVICES[name]["depends_on"]


@pytest.mark.parametrize("name", sorted(WORKERS))
def test_worker_command_serves_its_queue_with_the_right_task(name):
    queue, task_name = WORKERS[name]
    command = SERVICES[name]["command"]
    assert command[:1] == ["celery"] and "worker" in command
    assert option(command, "-Q") == queue
    module = importlib.import_module(option(command, "-A"))
    assert task_name in module.app.tasks
    # typed-in puzzles are sent by name
    if queue in (contracts.RECOGNIZE_QUEUE, contracts.SOLVE_QUEUE):
        assert module.app.conf.task_routes[task_name]["queue"] == queue
    # The worker's healthcheck reads the age of the heartbeat file its sweep thread
    # touches (services/sweeper.py), well within a few sweep intervals.
    heartbeat = SERVICES[name]["environment"]["GRIDSIGHT_HEARTBEAT_FILE"]
    check = " ".join(SERVICES[name]["healthcheck"]["test"])
    assert f"getmtime('{heartbeat}') > 60" in check
    assert 3 * Settings().sweep_seconds <= 60


def test_gateway_command_and_port_match_the_app():
    command = SERVICES["gateway"]["command"]
    module_name, attribute = command[1].split(":")
    app = getattr(importlib.import_module(module_name), attribute)
    paths = set(app.openapi()["paths"])
    assert {"/v1/jobs", "/v1/jobs/{job_id}", "/healthz"} <= paths
    port = option(command, "--port")
    # Published on the machine's loopback only.
    assert SERVICES["gateway"]["ports"] == [f"127.0.0.1:{port}:{port}"]
    assert "--no-proxy-headers" in command  # X-Forwarded-For is not believed
    from gridsight.stack import GATEWAY_PROTOCOL  # as `serve` runs it: headers have a deadline

    assert option(command, "--http") == GATEWAY_PROTOCOL
    protocol_module, protocol = GATEWAY_PROTOCOL.split(":")
    assert hasattr(importlib.import_module(protocol_module), protocol)
    assert f":{port}/healthz" in " ".join(SERVICES["gateway"]["healthcheck"]["test"])


def test_environment_variables_are_ones_the_code_reads():
    known = known_variables()
    for name, service in SERVICES.items():
        for variable in service.get("environment", {}):
            assert variable in known, f"{name} sets {variable}, which nothing reads"
        if name != "redis":
            assert service["environment"]["REDIS_URL"] == "redis://redis:6379/0"


def test_dockerfile_copies_what_exists_and_runs_as_non_root():
    lines = [line.split() for line in (ROOT / "Dockerfile").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    for words in lines:
        if words[0] == "COPY":
            for source in words[1:-1]:
                assert (ROOT / source).exists(), source
    users = [words[1] for words in lines if words[0] == "USER"]
    assert users and users[-1] not in ("root", "0")
    for name in ("gateway", *WORKERS):
        assert SERVICES[name]["build"] == "."


def test_the_installed_package_carries_models_and_the_web_page(tmp_path):
    """The image installs the project as a wheel: the wheel must hold the shipped models
    and the page, not only the Python files."""
    import sys
    import zipfile

    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps",
                           "-q", "-w", str(tmp_path), str(ROOT)],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    (wheel,) = tmp_path.glob("gridsight-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    models = {p.relative_to(ROOT).as_posix()
              for p in (ROOT / "services/recognizer/models").glob("*.joblib")}
    page = {p.relative_to(ROOT).as_posix() for p in (ROOT / "services/gateway/static").iterdir()}
    assert models and models <= names
    assert "services/gateway/static/index.html" in page and page <= names


@pytest.mark.parametrize("name", sorted(WORKERS))
def test_workers_are_given_time_to_finish_their_task_when_stopped(name):
    """Compose's default of 10 s would cut off a task within its hard limit; it would come
    back only after the 900 s visibility timeout (or the sweep)."""
    settings = Settings()
    limit = settings.recognize_seconds if name == "recognizer" else settings.solve_time_limit
    grace = SERVICES[name]["stop_grace_period"]
    assert grace.endswith("s") and int(grace[:-1]) > limit


def test_every_queue_the_code_sends_to_has_a_worker_here_and_in_serve():
    """A typed-in puzzle of any size, and a picture's two stages, each land on a queue
    that a compose service and `gridsight serve` both consume; typed-in ones never on the
    pictures' solve queue."""
    from gridsight.stack import WORKER_MODULES
    from services.queue import typed_puzzle_queue

    settings = Settings()
    small = '{"rows": [[1]], "cols": [[1]]}'
    side = int(settings.large_puzzle_cells ** 0.5) + 1
    large = json.dumps({"rows": [[1]] * side, "cols": [[1]] * side})
    typed = {typed_puzzle_queue(text, settings) for text in (small, large, "1" * 81)}
    assert contracts.SOLVE_QUEUE not in typed
    served = {option(SERVICES[name]["command"], "-Q") for name in WORKERS}
    pictures = {contracts.RECOGNIZE_QUEUE, contracts.SOLVE_QUEUE}
    assert typed | pictures <= served == set(WORKER_MODULES)
