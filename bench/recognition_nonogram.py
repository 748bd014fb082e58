"""Nonogram recognition benchmark: pictures of 10x10 to 30x30 nonograms read and solved.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/recognition_nonogram.py [--count 20]

Synthetic sets from gridsight.synth.nonogram_render, each puzzle with exactly one
solution, widths and heights drawn from 10, 15, 20, 25, 30: screenshots in the styles and
fonts the reader was built on, in held-out fonts, in the held-out style with held-out
fonts, half-filled screenshots, and photos (gridsight.synth.photo). Scored: kind and size
right, clue numbers right (a line whose count of numbers is wrong scores none of its
numbers), solved exactly (status solved with the true picture), wrong answers given as
solved, right numbers read less than 90 % sure (honest confidences keep this small), and
seconds from upload bytes to answer (recognize + solve). bench/recognition.py
prints these rows too.
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
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from gridsight.synth.nonogram_render import (  # noqa: E402
    HELD_OUT_STYLES,
    NONOGRAM_STYLES,
    half_filled_marks,
    render_nonogram,
)
from gridsight.synth.photo import photograph  # noqa: E402
from gridsight.synth.puzzles import make_nonogram  # noqa: E402
from services.recognizer import RecognitionError, recognize  # noqa: E402
from services.solver import solve_page, solve_puzzle  # noqa: E402

SIDES = (10, 15, 20, 25, 30)
# (set name, styles, held-out fonts, half-filled, photo)
SETS = [
    ("screenshot", tuple(NONOGRAM_STYLES), False, False, False),
    ("screenshot, held-out fonts", tuple(NONOGRAM_STYLES), True, False, False),
    ("screenshot, held-out style and fonts", tuple(HELD_OUT_STYLES), True, False, False),
    ("half-filled screenshot", tuple(NONOGRAM_STYLES | HELD_OUT_STYLES), False, True, False),
    ("photo", tuple(NONOGRAM_STYLES | HELD_OUT_STYLES), False, False, True),
    ("photo, held-out style and fonts", tuple(HELD_OUT_STYLES), True, False, True),
]


def pictures(styles, held_out: bool, half_filled: bool, photo: bool, count: int, seed0: int):
    """(name, bytes, puzzle, picture) of nonograms with one solution each."""
    for i in range(count):
        seed = seed0 + i
        rng = random.Random(seed)
        width, height = rng.choice(SIDES), rng.choice(SIDES)
        while True:
            puzzle, picture = make_nonogram(rng, width, height, rng.uniform(0.45, 0.6),
                                            smooth=1)
            if solve_puzzle(puzzle).verdict == "unique":
                break
        marks = half_filled_marks(picture, rng) if half_filled else None
        image = render_nonogram(puzzle, style=rng.choice(styles), seed=seed, marks=marks,
                                held_out_fonts=held_out, title=rng.random() < 0.5)
        buffer = io.BytesIO()
        if photo:
            image, _ = photograph(image, rng=np.random.default_rng(seed), fill=(0.85, 0.95),
                                  rotation=4, perspective=0.04, out_size=(2400, 1800))
            image.save(buffer, "JPEG", quality=90)
        else:
            image.save(buffer, "PNG")
        yield f"{width}x{height}-{seed}", buffer.getvalue(), puzzle, picture


UNSURE = 0.9


def clue_score(read, truth) -> tuple[int, int, int]:
    """(numbers right, numbers, numbers right but read less than UNSURE sure) of one line's
    clue; an empty line is the one number 0."""
    truth = truth or [0]
    values = [n.candidates[0].value for n in read] or [0]
    if len(values) != len(truth):
        return 0, len(truth), 0
    right = [a == b for a, b in zip(values, truth, strict=True)]
    unsure = sum(ok and n.candidates[0].prob < UNSURE for ok, n in zip(right, read))
    return sum(right), len(truth), unsure


def run_set(name: str, items) -> dict:
    total = kind = size = exact_clues = solved = wrong_solved = review = 0
    numbers = numbers_right = numbers_unsure = 0
    seconds, failures = [], []
    for item, data, puzzle, picture in items:
        total += 1
        started = time.perf_counter()
        try:  # the time of a read that fails counts too
            reading = recognize(data, "auto")
            result = solve_page(reading, time_limit=10.0) if reading.kind == "nonogram" else None
        except RecognitionError as error:
            failures.append(f"{item}: {error}")
            continue
        finally:
            seconds.append(time.perf_counter() - started)
        if result is None:
            failures.append(f"{item}: read as {reading.kind}")
            continue
        kind += 1
        if (reading.width, reading.height) != (len(puzzle.cols), len(puzzle.rows)):
            failures.append(f"{item}: read as {reading.width}x{reading.height}")
            continue
        size += 1
        right_here = 0
        for read, truth in [*zip(reading.row_clues, puzzle.rows, strict=True),
                            *zip(reading.col_clues, puzzle.cols, strict=True)]:
            right, count, unsure = clue_score(read, truth)
            right_here += right
            numbers += count
            numbers_unsure += unsure
            if right < count:
                failures.append(f"{item}: clue read {[n.candidates[0].value for n in read]}, "
                                f"is {truth}")
        numbers_right += right_here
        exact_clues += (reading.row_clues is not None and right_here == sum(
            len(t or [0]) for t in puzzle.rows + puzzle.cols))
        solved += result.status == "solved" and result.solution == picture
        review += result.status == "needs_review"
        if result.status == "solved" and result.solution != picture:
            wrong_solved += 1
            failures.append(f"{item}: WRONG ANSWER GIVEN AS SOLVED")
    return {"set": name, "images": total, "kind": kind / total, "size": size / total,
            "numbers": numbers_right / max(numbers, 1), "numbers_n": numbers,
            "unsure": numbers_unsure / max(numbers_right, 1),
            "exact": exact_clues / total, "solved": solved / total, "review": review / total,
            "wrong_solved": wrong_solved, "median_s": float(np.median(seconds)),
            "p95_s": float(np.percentile(seconds, 95)), "failures": failures}


def nonogram_results(count: int, seed: int) -> list[dict]:
    return [run_set(name, pictures(styles, held, half, photo, count, seed + 1000 * k))
            for k, (name, styles, held, half, photo) in enumerate(SETS)]


def nonogram_table(results: list[dict]) -> str:
    lines = ["| set | images | read as nonogram | size right | clue numbers right "
             "| right but < 90 % sure | all clues exact | solved exactly | needs review "
             "| wrong answers as solved | median s | p95 s |", "|" + "---|" * 12]
    for r in results:
        lines.append(f"| {r['set']} | {r['images']} | {r['kind']:.1%} | {r['size']:.1%} | "
                     f"{r['numbers']:.2%} of {r['numbers_n']} | {r['unsure']:.1%} | "
                     f"{r['exact']:.1%} | "
                     f"{r['solved']:.1%} | {r['review']:.1%} | {r['wrong_solved']} | "
                     f"{r['median_s']:.2f} | {r['p95_s']:.2f} |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=40, help="pictures per set")
    parser.add_argument("--seed", type=int, default=170_000)
    args = parser.parse_args()
    results = nonogram_results(args.count, args.seed)
    print(nonogram_table(results))
    for r in results:
        for line in r["failures"][:12]:
            print(f"  {r['set']}: {line}")


if __name__ == "__main__":
    main()
