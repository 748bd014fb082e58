"""Regenerate the README's pictures: the page with a solved photo, its overlay, a killer,
and a review case.

Runs the whole service on this machine (its own broker, both workers, the gateway),
solves pictures through the page in headless Chromium, and writes docs/page.png,
docs/overlay.png, docs/killer.png and docs/review.png. The photo is a real phone photo
from ../shared/data/sudoku_photos_dev when that folder is present (the sudoku_dataset of
Baptiste Wicht and Jean Hennebert, CC BY 4.0), else a synthetic one; the killer is an app
screenshot drawn by gridsight.synth; the review case is a misprinted grid with one digit
twice in a row.

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
from gridsight.synth.killer_render import render_killer  # noqa: E402
from gridsight.synth.photo import photograph  # noqa: E402
from gridsight.synth.puzzles import make_killer, make_sudoku  # noqa: E402
from gridsight.synth.render import render_sudoku  # noqa: E402
from tests.browser.conftest import CHROMIUM_ARGS, chromium_path  # noqa: E402
from tests.conftest import wait_for_job, wait_until_healthy  # noqa: E402

MAX_BYTES = 300 * 1024
TRIES = 8  # seeds to try until the service reads a photo right (the photos are random)
REAL_PHOTOS = ROOT.parent / "shared" / "data" / "sudoku_photos_dev"
REAL_PHOTO_NAMES = ("image1", "image10", "image20", "image30", "image40")


def real_photos():
    """(jpeg bytes, true solution unknown: None) for a few real photos, when present."""
    for name in REAL_PHOTO_NAMES:
        path = REAL_PHOTOS / f"{name}.jpg"
        if path.exists():
            yield path.read_bytes(), None


def picture_bytes(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, "PNG")
    return buffer.getvalue()


def puzzle_photo(seed: int) -> tuple[bytes, list[list[int]]]:
    givens, solution = make_sudoku(random.Random(seed))
    page = render_sudoku(givens, style="newspaper", seed=seed, cell_px=40)
    photo, _ = photograph(page, rng=np.random.default_rng(seed), out_size=(800, 600))
    buffer = io.BytesIO()
    photo.save(buffer, "JPEG", quality=88)
    return buffer.getvalue(), solution


def solved_photo(base_url: str) -> tuple[bytes, str]:
    """A photo the service solves (a real one when present, else a synthetic one read to
    its true answer), and that job's id."""
    candidates = [*real_photos(), *(puzzle_photo(seed) for seed in range(TRIES))]
    with httpx.Client(base_url=base_url, timeout=30) as http:
        for data, solution in candidates:
            created = http.post("/v1/jobs", files={"image": ("photo.jpg", data, "image/jpeg")})
            job = wait_for_job(http, created.json()["id"])
            if job["status"] == "solved" and (
                    solution is None or job["result"]["solution"] == solution):
                return data, job["id"]
    raise SystemExit(f"none of {len(candidates)} photos was read right; is the recognizer "
                     "trained?")


def killer_picture() -> bytes:
    puzzle, _ = make_killer(random.Random(5))
    return picture_bytes(render_killer(puzzle, style="app", seed=5, cell_px=48))


def review_picture() -> bytes:
    """A misprinted grid: a digit its row already holds, printed crisply."""
    givens, _ = make_sudoku(random.Random(30))
    row = next(r for r, values in enumerate(givens) if sum(map(bool, values)) >= 2)
    first, second = [c for c, v in enumerate(givens[row]) if v][:2]
    givens[row][first] = givens[row][second]
    return picture_bytes(render_sudoku(givens, seed=6, cell_px=44))


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


def page_screenshot(base_url: str, picture: bytes, name: str, ready: str,
                    height: int = 900) -> Image.Image:
    """The job section of the page after `picture` was chosen, once `ready` shows."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        path = Path(folder) / name
        path.write_bytes(picture)
        browser = playwright.chromium.launch(executable_path=chromium_path(),
                                             args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1000, "height": height})
        page.goto(base_url)
        page.get_by_label("A picture from this device").set_input_files(path)
        page.wait_for_selector(f"#job[aria-busy='false'] {ready}", timeout=60_000)
        page.wait_for_function("document.querySelector('#overlay').complete")
        page.wait_for_timeout(300)  # the close-ups are drawn once the picture loads
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
        overlay = httpx.get(f"{base_url}/v1/jobs/{job_id}/overlay.jpg", timeout=30)
        overlay.raise_for_status()
        save_small(Image.open(io.BytesIO(overlay.content)), args.out / "overlay.png")
        save_small(page_screenshot(base_url, photo, "photo.jpg", "#solution-grid"),
                   args.out / "page.png")
        save_small(page_screenshot(base_url, killer_picture(), "killer.png",
                                   "#solution-grid"), args.out / "killer.png")
        save_small(page_screenshot(base_url, review_picture(), "misprint.png",
                                   "#suspects li"), args.out / "review.png")
    for name in ("page.png", "overlay.png", "killer.png", "review.png"):
        print(f"{args.out / name}: {(args.out / name).stat().st_size // 1024} KB")


if __name__ == "__main__":
    main()
