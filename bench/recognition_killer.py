"""Killer sudoku recognition benchmark: synthetic screenshots per style and photographed print.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/recognition_killer.py [--quick] [--n 40]

Per style: share of pictures read exactly (kind, every wall on the right side of 0.5,
every cage sum's top candidate, every cell blank), share solved exactly by
`solve_reading` after repair, and seconds per picture for reading alone and for reading
plus solving (median, 95th percentile). The baseline row is classic sudoku screenshots
read in the same run, for the time ratio. Writes bench/out/recognition_killer.md.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from gridsight.synth.killer_render import MORE_STYLES, STYLES, render_killer, vary  # noqa: E402
from gridsight.synth.photo import photograph  # noqa: E402
from gridsight.synth.puzzles import make_killer, make_sudoku  # noqa: E402
from gridsight.synth.render import render_sudoku  # noqa: E402
from gridsight.training.sums import photo_options  # noqa: E402
from services.recognizer import RecognitionError, recognize  # noqa: E402
from services.solver import solve_reading  # noqa: E402

OUT = ROOT / "bench" / "out"
SEED0 = 700_000  # far from the training seeds
ALL_STYLES = STYLES | MORE_STYLES


def encode(image, fmt: str) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **({"quality": 90} if fmt == "JPEG" else {}))
    return buffer.getvalue()


def killer_case(seed: int, style: str):
    """(picture bytes, puzzle, solution, image info) for one synthetic killer."""
    rng = random.Random(seed)
    puzzle, solution = make_killer(rng)
    look = vary(ALL_STYLES["print" if style == "photo" else style], rng)
    image = render_killer(puzzle, style=look, seed=seed, cell_px=rng.randint(36, 72),
                          margin=rng.randint(6, 40))
    info = dict(image.info)
    if style == "photo":
        image, truth = photograph(image, rng=np.random.default_rng(seed), **photo_options(rng))
        info["lattice"] = truth.lattice
        return encode(image, "JPEG"), puzzle, solution, info
    return encode(image, "PNG"), puzzle, solution, info


def read_exactly(reading, info) -> bool:
    if reading.kind != "killer" or reading.walls_right is None:
        return False
    walls_ok = ((np.asarray(reading.walls_right) >= 0.5) == np.asarray(info["walls_right"])).all() \
        and ((np.asarray(reading.walls_down) >= 0.5) == np.asarray(info["walls_down"])).all()
    sums = {tuple(s.cell): s.candidates[0].value for s in reading.cage_sums}
    blank = (np.asarray(reading.cells).argmax(axis=-1) == 0).all()
    return bool(walls_ok and sums == info["sums"] and blank)


def run_style(style: str, count: int) -> dict:
    exact = solved = 0
    read_s, total_s, failures = [], [], []
    for i in range(count):
        seed = SEED0 + 1000 * list(ALL_STYLES).index("print" if style == "photo" else style) + i
        if style == "photo":
            seed += 500
        data, _, solution, info = killer_case(seed, style)
        started = time.perf_counter()
        try:
            reading = recognize(data, "auto")
        except RecognitionError as e:
            failures.append(f"{seed}: {e}")
            continue
        read_s.append(time.perf_counter() - started)
        ok = read_exactly(reading, info)
        exact += ok
        result = solve_reading(reading, time_limit=10.0)
        total_s.append(time.perf_counter() - started)
        good = result.solution == solution
        solved += good
        if not good:
            failures.append(f"{seed}: not solved ({result.status}, {result.message})")
        elif not ok:
            failures.append(f"{seed}: read with errors, repaired")
    return dict(style=style, n=count, exact=exact / count, solved=solved / count,
                read=read_s, total=total_s, failures=failures)


def baseline(count: int) -> list[float]:
    times = []
    for i in range(count):
        rng = random.Random(SEED0 + 90_000 + i)
        givens, _ = make_sudoku(rng)
        data = encode(render_sudoku(givens, seed=i, cell_px=rng.randint(36, 72)), "PNG")
        started = time.perf_counter()
        recognize(data, "sudoku")
        times.append(time.perf_counter() - started)
    return times


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 pictures per style")
    parser.add_argument("--n", type=int, default=60, help="pictures per style")
    args = parser.parse_args()
    count = 10 if args.quick else args.n
    base = baseline(count)
    base_median = pct(base, 50)
    lines = ["| style | pictures | read exactly | solved after repair | read s (median / p95) "
             "| read+solve s (median / p95) | median vs classic read |",
             "|---|---|---|---|---|---|---|",
             f"| classic sudoku screenshot (baseline) | {count} | - | - | "
             f"{base_median:.3f} / {pct(base, 95):.3f} | - | 1.00 |"]
    notes = []
    for style in ("app", "web", "colour", "fills", "print", "dark", "photo"):
        row = run_style(style, count)
        name = {"print": "print (screenshot)", "photo": "print, photographed",
                "dark": "app, dark mode", "fills": "colour fills, no outlines"}.get(style, style)
        lines.append(
            f"| {name} | {row['n']} | {row['exact']:.1%} | {row['solved']:.1%} | "
            f"{pct(row['read'], 50):.3f} / {pct(row['read'], 95):.3f} | "
            f"{pct(row['total'], 50):.3f} / {pct(row['total'], 95):.3f} | "
            f"{pct(row['read'], 50) / base_median:.2f} |")
        notes += [f"- {style} {f}" for f in row["failures"]]
        print(lines[-1], flush=True)
    text = "# Killer sudoku recognition\n\n" + "\n".join(lines) + "\n"
    if notes:
        text += "\nNot read exactly or not solved:\n\n" + "\n".join(notes) + "\n"
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "recognition_killer.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
