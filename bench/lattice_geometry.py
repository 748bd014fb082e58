"""How far the located lattice lies from the true one, on synthetic photos of two kinds the
grid finder once got wrong: thin light-grey app lines (digits may bend a curve fitted
through their fragments) and thick lines in small photos (the page may outscore the grid).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/lattice_geometry.py [--sweep faint|bold]

Per sweep: photos, the worst error (the farthest line intersection from the truth, in
cells), the bound the tests hold it to, and the seeds whose errors come nearest it.
tests/recognizer/test_recognizer_geometry.py holds those few seeds to the bound; this
bench keeps the whole sweep.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.recognizer.conftest import (  # noqa: E402
    synthetic_photo_of,
    worst_intersection_error,
)

# name: (style, seeds, photo size, bound in cells)
SWEEPS = {
    "faint": ("app", range(500, 540), (1024, 768), 0.35),
    "bold": ("bold", range(400, 430), (640, 480), 0.3),
}
WORST_SHOWN = 5


def sweep_errors(style: str, seeds: range, out_size) -> dict[int, float]:
    errors = {}
    for seed in seeds:
        data, _, truth = synthetic_photo_of(seed, style, out_size=out_size)
        errors[seed] = worst_intersection_error(data, truth)
    return errors


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sweep", choices=sorted(SWEEPS), action="append")
    args = parser.parse_args()
    print("| sweep | photos | worst error (cells) | bound | nearest the bound (seed: error) |")
    print("|---|---|---|---|---|")
    for name in args.sweep or sorted(SWEEPS):
        style, seeds, out_size, bound = SWEEPS[name]
        errors = sweep_errors(style, seeds, out_size)
        worst = sorted(errors, key=errors.get, reverse=True)[:WORST_SHOWN]
        shown = ", ".join(f"{seed}: {errors[seed]:.3f}" for seed in worst)
        print(f"| {name} | {len(errors)} | {max(errors.values()):.3f} | {bound} | {shown} |")


if __name__ == "__main__":
    main()
