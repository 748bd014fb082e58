"""Overlay cost for a 12 MP phone photo: a full-size PNG drawn afresh on every request (the
baseline), against the overlay drawn once per revision and then read from Redis.

Runs the whole stack on this machine, uploads a 12 MP JPEG of a generated puzzle (with
sensor-like noise, so it is as large as a phone's), and times GETs of overlay.jpg,
overlay.webp and overlay.png over HTTP: the first (drawn) and the median of the next
ones (cached). The baseline, measured in the same run, is draw_overlay of
the full-size PNG in this process, as if each request drew it.

    .venv/bin/python bench/overlay.py [--repeat 10]
"""

from __future__ import annotations

import argparse
import io
import random
import statistics
import sys
import time
from pathlib import Path

import httpx
import numpy as np
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gridsight.stack import Stack  # noqa: E402
from gridsight.synth.puzzles import make_sudoku  # noqa: E402
from gridsight.synth.render import render_sudoku  # noqa: E402
from services.contracts import Job  # noqa: E402
from services.gateway.overlay import draw_overlay  # noqa: E402
from tests.conftest import wait_for_job  # noqa: E402


def phone_photo(seed: int = 3) -> bytes:
    givens, _ = make_sudoku(random.Random(seed))
    grid = render_sudoku(givens, seed=seed, cell_px=60)
    canvas = Image.new("RGB", (4000, 3000), (236, 233, 226))
    grid = grid.resize((2400, round(2400 * grid.height / grid.width)))
    canvas.paste(grid, (800, (3000 - grid.height) // 2))
    noise = np.random.default_rng(seed).integers(-9, 10, (3000, 4000, 3))
    canvas = Image.fromarray(np.clip(np.asarray(canvas, np.int16) + noise, 0, 255)
                             .astype(np.uint8))
    buffer = io.BytesIO()
    canvas.save(buffer, "JPEG", quality=92)
    return buffer.getvalue()


def timed(fn) -> tuple[float, object]:
    started = time.perf_counter()
    out = fn()
    return time.perf_counter() - started, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10)
    args = parser.parse_args()
    photo = phone_photo()
    with Stack() as stack:
        base_url = stack.start_service()
        with httpx.Client(base_url=base_url, timeout=60) as http:
            created = http.post("/v1/jobs", files={"image": ("phone.jpg", photo, "image/jpeg")})
            done = wait_for_job(http, created.json()["id"])
            done.pop("_states_seen", None)  # added by the tests' poller
            job = Job.model_validate(done)
            if not (job.result and job.result.solution):
                raise SystemExit(f"the photo was not solved ({job.status})")
            baseline = [timed(lambda: draw_overlay(photo, job.reading, job.result))[0]
                        for _ in range(3)]
            rows = []
            for ext in ("jpg", "webp", "png"):
                url = f"/v1/jobs/{job.id}/overlay.{ext}"
                first, response = timed(lambda url=url: http.get(url))
                response.raise_for_status()
                cached = [timed(lambda url=url: http.get(url))[0] for _ in range(args.repeat)]
                size = Image.open(io.BytesIO(response.content)).size
                rows.append((ext, size, len(response.content), first,
                             statistics.median(cached)))
    old = statistics.median(baseline)
    print(f"upload: 4000x3000 JPEG, {len(photo) / 1e6:.1f} MB; baseline (old path, every "
          f"request: full-size PNG drawn afresh): {old * 1000:.0f} ms median of 3\n")
    print("| overlay | size | bytes | first GET ms (drawn) | later GETs ms, median (cached) "
          "| later GET vs baseline |")
    print("|---|---|---:|---:|---:|---:|")
    for ext, size, nbytes, first, cached in rows:
        print(f"| {ext} | {size[0]}x{size[1]} | {nbytes / 1e6:.2f} MB | {first * 1000:.0f} | "
              f"{cached * 1000:.1f} | {old / cached:.0f}x faster |")


if __name__ == "__main__":
    main()
