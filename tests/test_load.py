"""The load benchmark in short form: concurrent clients, a worker killed mid-run, and
every job must finish with the right answer (bench/load.py is the full run)."""

from __future__ import annotations

import json
import subprocess
import sys

from gridsight.stack import ROOT


def test_no_job_is_lost_under_load_with_a_worker_killed(tmp_path):
    summary = tmp_path / "load.json"
    done = subprocess.run(
        [sys.executable, "bench/load.py", "--jobs", "60", "--clients", "6", "--pictures", "6",
         "--kill-worker", "--summary", str(summary)],
        cwd=ROOT, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    figures = json.loads(summary.read_text())
    assert figures["jobs"] == 60 and figures["killed"]
    assert figures["lost"] == 0
    assert figures["wrong"] == 0, done.stdout
