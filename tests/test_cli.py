"""`gridsight solve` (local, no server) and `gridsight serve` (embedded broker)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import httpx

from gridsight.stack import ROOT, free_port
from gridsight.synth.killer_render import render_killer
from gridsight.synth.puzzles import make_killer, make_sudoku
from gridsight.synth.render import render_sudoku
from tests.conftest import stop, wait_for_job, wait_until_healthy

GRIDSIGHT = [sys.executable, "-m", "gridsight.cli"]


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*GRIDSIGHT, *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def test_solve_screenshots_prints_one_json_line_each(tmp_path):
    truths = {}
    for seed in (21, 22):
        givens, solution = make_sudoku(random.Random(seed))
        path = tmp_path / f"shot{seed}.png"
        render_sudoku(givens, seed=seed).save(path)
        truths[str(path)] = (givens, solution)
    done = run_cli("solve", *truths, "--json")
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert [line["input"] for line in lines] == list(truths)
    for line in lines:
        givens, solution = truths[line["input"]]
        assert line["status"] == "solved" and line["kind"] == "sudoku" and line["size"] == 9
        assert line["givens"] == givens and line["solution"] == solution


def test_solve_text_and_puzzle_file(tmp_path):
    puzzles = [make_sudoku(random.Random(seed)) for seed in (31, 32, 33)]
    lines = ["".join(str(v or ".") for row in givens for v in row) for givens, _ in puzzles]
    path = tmp_path / "puzzles.txt"
    path.write_text("\n".join(lines) + "\n")
    done = run_cli("solve", str(path), "--json")
    assert done.returncode == 0, done.stderr
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["solution"] for r in results] == [solution for _, solution in puzzles]
    assert all(r["verdict"] == "unique" and r["seconds"] >= 0 for r in results)

    done = run_cli("solve", "--text", lines[0], "--json")
    assert json.loads(done.stdout)["solution"] == puzzles[0][1]


def test_solve_reports_unreadable_input_without_crashing(tmp_path):
    path = tmp_path / "nonsense.txt"
    path.write_text("this is not a puzzle\n")
    done = run_cli("solve", str(path), str(tmp_path / "missing.png"), "--json")
    assert done.returncode == 1
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == 2 and all(r["status"] == "failed" and r["error"] for r in results)


def test_serve_without_redis_solves_a_screenshot(tmp_path):
    """`gridsight serve` with no REDIS_URL and no redis-server: the embedded broker."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    env |= {"GRIDSIGHT_BROKER": "fakeredis", "OPENBLAS_NUM_THREADS": "1",
            "GRIDSIGHT_READS_PER_MINUTE": "0"}
    log = tmp_path / "serve.log"  # a file, not a pipe: nobody drains a pipe while we wait
    server = subprocess.Popen([*GRIDSIGHT, "serve", "--port", str(port),
                               "--data", str(tmp_path / "data")], cwd=ROOT, env=env,
                              stdout=log.open("w"), stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_healthy(base, seconds=90)
        givens, solution = make_sudoku(random.Random(41))
        path = tmp_path / "shot.png"
        render_sudoku(givens, seed=41, style="thin").save(path)
        with httpx.Client(base_url=base, timeout=30) as http:
            created = http.post("/v1/jobs", files={"image": ("shot.png", path.read_bytes(),
                                                             "image/png")})
            assert created.status_code == 202
            job = wait_for_job(http, created.json()["id"], seconds=120)
        assert job["status"] == "solved"
        assert job["result"]["solution"] == solution
    finally:
        stop(server, 30)
    assert "broker ready: fakeredis" in log.read_text()


def test_solve_a_6x6_killer_picture(tmp_path):
    puzzle, solution = make_killer(random.Random(6007), size=6)
    path = tmp_path / "killer6.png"
    render_killer(puzzle, style="web", seed=6007, cell_px=56).save(path)
    done = run_cli("solve", str(path), "--json")
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout)
    assert (line["status"], line["kind"], line["size"], line["box"]) == \
        ("solved", "killer", 6, [2, 3])
    assert sum(cage["sum"] for cage in line["cages"]) == 126
    assert line["solution"] == solution
