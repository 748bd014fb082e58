"""Regenerate the README's pictures: the web page with a solved photo, and the overlay.

Runs the whole service on this machine (its own broker, both workers, the gateway),
photographs a generated puzzle (gridsight.synth), solves it through the page in headless
Chromium, and writes docs/page.png and docs/overlay.png.

    .venv/bin/python scripts/screenshots.py [--out docs]

Needs Debian's Chromium at /usr/bin/chromium and the playwright package (its driver only).
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import tempfile
from pathlib import Path

import httpx
import numpy as np
from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gridsight.stack import Stack, free_port  # noqa: E402
from gridsight.synth.photo import photograph  # noqa: E402
from gridsight.synth.puzzles import make_sudoku  # noqa: E402
from gridsight.synth.render import render_sudoku  # noqa: E402
from tests.browser.conftest import CHROMIUM_ARGS, chromium_path  # noqa: E402
from tests.conftest import wait_for_job, wait_until_healthy  # noqa: E402

MAX_BYTES = 300 * 1024
TRIES = 8  # seeds to try until the service reads a photo right (the photos are random)


def puzzle_photo(seed: int) -> tuple[bytes, list[list[int]]]:
    givens, solution = make_sudoku(random.Random(seed))
    page = render_sudoku(givens, style="newspaper", seed=seed, cell_px=40)
    photo, _ = photograph(page, rng=np.random.default_rng(seed), out_size=(800, 600))
    buffer = io.BytesIO()
    photo.save(buffer, "JPEG", quality=88)
    return buffer.getvalue(), solution


def solved_photo(base_url: str) -> tuple[bytes, str]:
    """A photo the service solves to its true answer, and that job's overlay."""
    with httpx.Client(base_url=base_url, timeout=30) as http:
        for seed in range(TRIES):
            data, solution = puzzle_photo(seed)
            created = http.post("/v1/jobs", files={"image": ("photo.jpg", data, "image/jpeg")})
            job = wait_for_job(http, created.json()["id"])
            if (job.get("result") or {}).get("solution") == solution:
                return data, job["id"]
    raise SystemExit(f"none of {TRIES} photos was read right; is the recognizer trained?")


def save_small(image: Image.Image, path: Path) -> None:
    """PNG under MAX_BYTES: a 256-colour palette, then smaller if still too big."""
    while True:
        buffer = io.BytesIO()
        image.convert("RGB").quantize(256, dither=Image.Dither.NONE).save(
            buffer, "PNG", optimize=True)
        if buffer.tell() <= MAX_BYTES:
            path.write_bytes(buffer.getvalue())
            return
        image = image.resize((image.width * 4 // 5, image.height * 4 // 5), Image.LANCZOS)


def page_screenshot(base_url: str, photo: bytes) -> Image.Image:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        path = Path(folder) / "photo.jpg"
        path.write_bytes(photo)
        browser = playwright.chromium.launch(executable_path=chromium_path(),
                                             args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1000, "height": 900})
        page.goto(base_url)
        page.get_by_label("A picture from this device").set_input_files(path)
        page.wait_for_selector("#job[aria-busy='false'] #solution-grid", timeout=30_000)
        page.wait_for_function("document.querySelector('#overlay').complete")
        shot = page.locator("#job").screenshot()
        browser.close()
    return Image.open(io.BytesIO(shot))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args()
    if chromium_path() is None:
        raise SystemExit("Chromium is not installed (apt-get install chromium)")
    args.out.mkdir(parents=True, exist_ok=True)
    with Stack() as stack:
        stack.start_broker()
        stack.start_workers()
        base_url = stack.start_gateway(port=free_port())
        wait_until_healthy(base_url)
        photo, job_id = solved_photo(base_url)
        overlay = httpx.get(f"{base_url}/v1/jobs/{job_id}/overlay.png", timeout=30)
        overlay.raise_for_status()
        save_small(Image.open(io.BytesIO(overlay.content)), args.out / "overlay.png")
        save_small(page_screenshot(base_url, photo), args.out / "page.png")
    for name in ("page.png", "overlay.png"):
        print(f"{args.out / name}: {(args.out / name).stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
