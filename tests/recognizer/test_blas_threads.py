"""The readers' BLAS and OpenMP run one thread in any process that uses them, whatever the
environment says: on a busy machine a second thread waiting for a core made every
product of the cell models many times slower (a half-solved photo's two networks, 22 ms
a product instead of 1)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_process_reading_pictures_runs_its_blas_on_one_thread():
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    # The solver first, as the CLI loads it: numpy's BLAS comes up with it.
    script = ("import json, services.solver, services.recognizer\n"
              "from services.recognizer.shipped_models import load_shipped_models\n"
              "load_shipped_models()\n"
              "from threadpoolctl import threadpool_info\n"
              "print(json.dumps([(i['internal_api'], i['num_threads'])"
              " for i in threadpool_info()]))\n")
    out = subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    pools = json.loads(out.strip().splitlines()[-1])
    assert any(api == "openblas" for api, _ in pools)
    assert all(threads == 1 for _, threads in pools), pools
