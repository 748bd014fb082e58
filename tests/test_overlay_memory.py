"""The gateway's memory through many concurrent overlays of 40 MP uploads, measured on
the real gateway process (its peak resident size, VmHWM, from /proc)."""

from __future__ import annotations

import io
import random
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import numpy as np
import pytest
from PIL import Image

from gridsight.stack import Stack
from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import render_sudoku
from services.contracts import Reading, SolveResult, SudokuPuzzle
from services.jobs import JobStore

WIDTH, HEIGHT = 7300, 5475  # 40 MP, inside the default pixel limit
JOBS, REQUESTS = 10, 20
PEAK_LIMIT_MB = 1024
AFTER_LIMIT_MB = 250  # above the gateway's size before the overlays


def huge_photo(givens) -> tuple[bytes, list]:
    """A 40 MP JPEG of a puzzle filling most of it, and its cell quadrilaterals."""
    side, left, top = 5000, 1150, 237
    grid = render_sudoku(givens, seed=4, cell_px=40).resize((side, side))
    canvas = Image.new("RGB", (WIDTH, HEIGHT), (236, 233, 226))
    canvas.paste(grid, (left, top))
    buffer = io.BytesIO()
    canvas.save(buffer, "JPEG", quality=80)
    step = side / 9
    quads = [[[(left + c * step, top + r * step), (left + (c + 1) * step, top + r * step),
               (left + (c + 1) * step, top + (r + 1) * step),
               (left + c * step, top + (r + 1) * step)] for c in range(9)] for r in range(9)]
    return buffer.getvalue(), quads


def memory_mb(pid: int, field: str) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise KeyError(field)


@pytest.fixture(scope="module")
def gateway_with_huge_jobs():
    """A gateway alone over its own Redis, holding solved jobs of 40 MP uploads (written
    as the workers write them, so no worker has to read 40 MP ten times)."""
    givens, solution = make_sudoku(random.Random(17))
    photo, quads = huge_photo(givens)
    cells = [[[1.0 if v == g else 0.0 for v in range(10)] for g in row] for row in givens]
    reading = Reading(kind="sudoku", cells=cells, image_size=(WIDTH, HEIGHT),
                      cell_quads=quads)
    result = SolveResult(kind="sudoku", size=9, status="solved", verdict="unique",
                         puzzle=SudokuPuzzle(givens=givens), solution=solution)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("GRIDSIGHT_READS_PER_MINUTE", "0")
        with Stack() as stack:
            base = stack.start_service(prefer="redis-server", workers=False)
            url, gateway = stack.redis_url, stack.processes[-1].pid
            store = JobStore.from_url(url, 3600)
            ids = []
            for _ in range(JOBS):
                job = store.create("sudoku", image=photo)
                store.update(job.id, status="solved", reading=reading, result=result)
                ids.append(job.id)
            with httpx.Client(base_url=base, timeout=300) as http:
                yield http, gateway, ids, solution


def test_concurrent_overlays_of_40_mp_uploads_stay_within_a_gigabyte(gateway_with_huge_jobs):
    http, gateway, ids, _ = gateway_with_huge_jobs
    idle = memory_mb(gateway, "VmRSS")
    urls = [f"/v1/jobs/{ids[i % JOBS]}/overlay.{'png' if i < JOBS else 'jpg'}"
            for i in range(REQUESTS)]
    with ThreadPoolExecutor(REQUESTS) as pool:
        responses = list(pool.map(http.get, urls))
    assert [r.status_code for r in responses] == [200] * REQUESTS
    peak = memory_mb(gateway, "VmHWM")
    after = memory_mb(gateway, "VmRSS")
    print(f"gateway RSS: idle {idle:.0f} MB, peak {peak:.0f} MB, after {after:.0f} MB")
    assert peak <= PEAK_LIMIT_MB, (idle, peak, after)
    assert after <= idle + AFTER_LIMIT_MB, (idle, peak, after)


def test_the_bounded_overlay_still_shows_the_solution(gateway_with_huge_jobs):
    http, _, ids, solution = gateway_with_huge_jobs
    response = http.get(f"/v1/jobs/{ids[0]}/overlay.png")
    assert response.status_code == 200
    picture = Image.open(io.BytesIO(response.content))
    assert picture.size[0] / picture.size[1] == pytest.approx(WIDTH / HEIGHT, rel=0.01)
    blue = np.asarray(picture.convert("RGB")).astype(int)
    drawn = (blue[..., 2] > 150) & (blue[..., 0] < 80)
    assert drawn.mean() > 0.002  # digits drawn in the solution's blue
