"""Out-of-focus photos at the digit model: cells misread with and without the sharpening
of services/recognizer/grid/focus.py, by defocus (Gaussian sigma as a share of a cell; --lens:
a disk's blur of the same spread).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/out_of_focus.py [--count 20] [--seed 13400000]

Pictures are drawn as bench/recognition.py draws its synthetic photos (random face,
style, cell size and photo size), read at their true lattice a little off (as a found one
is), so only the digit reading is measured. Per level: photos, how many were sharpened,
then misread cells (at p > 0.9) and grids read exactly, as straightened, sharpened once at the
estimated blur, and as read (the probabilities averaged over focus_views, a soft grid's
by the main and the soft-grid digit models as cells/digits.py read_cells reads it).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/out_of_focus.py --placement \
        [--count 40] [--seed 16800000]

--placement: where exposure.locate_through_blur places the grid of photos defocused by a
tenth of a cell (as tests/recognizer/test_focus.py draws them), per photo the farthest
grid corner from the truth in cells (bound 0.5), the farthest first.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from gridsight.synth.fonts import digit_fonts  # noqa: E402
from gridsight.synth.grids import random_solution  # noqa: E402
from gridsight.synth.photo import photograph  # noqa: E402
from gridsight.synth.render import STYLES, render_sudoku  # noqa: E402
from services.recognizer.cells.classifier import load_model  # noqa: E402
from services.recognizer.cells.digits import soft_grid_probabilities  # noqa: E402
from services.recognizer.cells.features import read_grid_cells  # noqa: E402
from services.recognizer.grid.decode import decode  # noqa: E402
from services.recognizer.grid.exposure import brightened, locate_through_blur  # noqa: E402
from services.recognizer.grid.focus import focus_views  # noqa: E402
from services.recognizer.grid.lattice import corners_of  # noqa: E402
from services.recognizer.grid.straighten import straighten  # noqa: E402

LEVELS = (0.0, 0.04, 0.06, 0.08, 0.10, 0.12)


def straightened(seed: int, defocus: float, fonts: list[str], lens: bool = False,
                 tilt: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(the grid straightened from a synthetic photo at its true lattice, its givens);
    `tilt`: the defocus varies across the grid, as photograph's defocus_tilt."""
    rng = random.Random(seed)
    givens = [[v if rng.random() < rng.uniform(0.3, 0.45) else 0 for v in row]
              for row in random_solution(9, None, rng)]
    image = render_sudoku(givens, font=rng.choice(fonts), style=rng.choice(sorted(STYLES)),
                          cell_px=rng.randint(28, 64), seed=seed, jitter=rng.uniform(0, 0.05))
    photo, truth = photograph(image, rng=np.random.default_rng(seed), fill=(0.6, 0.95),
                              rotation=12, defocus=defocus, lens_disk=lens,
                              defocus_tilt=tilt,
                              out_size=rng.choice([(640, 480), (1024, 768), (1600, 1200)]))
    buffer = io.BytesIO()
    photo.save(buffer, "JPEG", quality=90)
    gray, scale, _ = decode(buffer.getvalue())
    lattice = truth.lattice / scale
    cell = np.linalg.norm(lattice[0, -1] - lattice[0, 0]) / 9
    lattice = lattice + np.random.default_rng(seed).normal(0, 0.03 * cell, lattice.shape)
    return straighten(gray, lattice), np.ravel(givens)


def misreads(views: list[np.ndarray], givens: np.ndarray,
             as_read: bool = False) -> tuple[int, int]:
    """(cells misread, of them at p > 0.9), the probabilities averaged over the views;
    `as_read`: by the models the pipeline reads a grid in these views with."""
    features = [read_grid_cells(view)[0] for view in views]
    if as_read and len(views) > 1:
        probs = soft_grid_probabilities(np.concatenate(features), len(views))
    else:
        probs = np.mean([load_model().predict_proba(f) for f in features], axis=0)
    wrong = probs.argmax(axis=1) != givens
    return int(wrong.sum()), int((wrong & (probs.max(axis=1) > 0.9)).sum())


def corner_error(seed: int, defocus: float = 0.10) -> float:
    """The farthest grid corner placed through the blur from the truth, in cells (inf if
    the lattice found is not the grid's 10 x 10)."""
    from tests.recognizer.conftest import bench_photo

    photo, _, truth = bench_photo(seed, defocus=defocus)
    upload = io.BytesIO()
    photo.save(upload, "JPEG", quality=90)  # as bench/recognition.py sends it
    gray, scale, _ = decode(upload.getvalue())
    _, _, lattice = locate_through_blur(brightened(gray))
    true = truth.lattice / scale
    if lattice.shape != true.shape:
        return float("inf")
    cell = np.linalg.norm(true[0, -1] - true[0, 0]) / 9
    return float(np.linalg.norm(corners_of(lattice) - corners_of(true), axis=1).max() / cell)


def placement(seeds: range) -> None:
    errors = {seed: corner_error(seed) for seed in seeds}
    print("| seed | farthest corner (cells) |\n|---:|---:|")
    for seed, error in sorted(errors.items(), key=lambda item: -item[1]):
        print(f"| {seed} | {error:.3f} |")
    print(f"\n{len(errors)} photos, {sum(e >= 0.5 for e in errors.values())} off by 0.5 "
          f"cell or more, worst {max(errors.values()):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=None,
                        help="photos per defocus level (20; --placement: 40)")
    parser.add_argument("--seed", type=int, default=None,
                        help="first seed; each level adds 1000 (13400000; --placement: "
                             "16800000)")
    parser.add_argument("--lens", action="store_true", help="a lens's disk blur")
    parser.add_argument("--placement", action="store_true",
                        help="the grid's placement through the blur instead")
    args = parser.parse_args()
    if args.placement:
        start = 16_800_000 if args.seed is None else args.seed
        placement(range(start, start + (args.count or 40)))
        return
    args.count = args.count or 20
    args.seed = 13_400_000 if args.seed is None else args.seed
    fonts = [path for _, path in digit_fonts()]
    print("defocus | photos | sharpened | straightened: misread (p > 0.9) / exact "
          "| sharpened once: misread (p > 0.9) / exact | as read: misread (p > 0.9) / exact")
    for i, level in enumerate(LEVELS):
        totals = np.zeros((3, 3), int)
        sharpened = 0
        for seed in range(args.seed + 1000 * i, args.seed + 1000 * i + args.count):
            straight, givens = straightened(seed, level, fonts, args.lens)
            views = focus_views(straight)
            sharpened += views[0] is not straight
            for row, read in enumerate(([straight], views[:1], views)):
                wrong, sure = misreads(read, givens, as_read=row == 2)
                totals[row] += (wrong, sure, wrong == 0)
        print(f"{level:.2f} | {args.count} | {sharpened} | "
              + " | ".join(f"{w} ({s}) / {e}" for w, s, e in totals))


if __name__ == "__main__":
    main()
