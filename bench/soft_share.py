"""How much weight the soft-grid digit model should get on a soft grid: the readings of
both digit models on synthetic out-of-focus photos, pooled at each share.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/soft_share.py [--count 60] [--seed 61000000]

Three classes of defocus (a Gaussian, a lens's disk, a Gaussian varying across a tilted
page), each photo out of focus by a share of a cell drawn from 6-12 %, read at its true
lattice a little off as bench/out_of_focus.py reads it. Only grids focus.py calls soft
count (the pipeline reads the others with the main model alone). Per share: the mean
negative log likelihood of the true reading (lower is more honest), cells misread and,
in brackets, misread at p > 0.9; then the share with the least likelihood loss, by class
and over all classes. pipeline.SOFT_SHARE is the share the recognizer uses.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
from multiprocessing import Pool
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402
from out_of_focus import straightened  # noqa: E402

from gridsight.synth.fonts import digit_fonts  # noqa: E402
from services.recognizer.cells.classifier import load_model, load_soft_model  # noqa: E402
from services.recognizer.cells.digits import SOFT_SHARE  # noqa: E402
from services.recognizer.cells.features import read_grid_cells  # noqa: E402
from services.recognizer.grid.focus import focus_views  # noqa: E402

CLASSES = {"gaussian": {}, "lens disk": {"lens": True}, "tilted 0.5": {"tilt": 0.5}}
DEFOCUS = (0.06, 0.12)
SHARES = np.round(np.linspace(0, 1, 21), 2)


def read_both(job: tuple[str, int]) -> tuple[str, np.ndarray, np.ndarray, np.ndarray] | None:
    """(class, main model's, soft model's probabilities averaged over the views, givens)
    for one photo, or None when focus.py calls its grid sharp."""
    name, seed = job
    fonts = [path for _, path in digit_fonts()]
    defocus = random.Random(seed).uniform(*DEFOCUS)
    straight, givens = straightened(seed, defocus, fonts, **CLASSES[name])
    views = focus_views(straight)
    if len(views) == 1:
        return None
    features = np.concatenate([read_grid_cells(view)[0] for view in views])

    def averaged(model) -> np.ndarray:
        return model.predict_proba(features).reshape(len(views), -1, 10).mean(axis=0)

    return name, averaged(load_model()), averaged(load_soft_model()), givens


def scores(main: np.ndarray, soft: np.ndarray, truth: np.ndarray, share: float
           ) -> tuple[float, int, int]:
    """(mean NLL, cells misread, misread at p > 0.9) of the reading pooled at `share`."""
    probs = (1 - share) * main + share * soft
    picked = probs.argmax(axis=1)
    wrong = picked != truth
    nll = -np.log(np.clip(probs[np.arange(len(truth)), truth], 1e-12, 1)).mean()
    return float(nll), int(wrong.sum()), int((wrong & (probs.max(axis=1) > 0.9)).sum())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=60, help="photos per class")
    parser.add_argument("--seed", type=int, default=61_000_000,
                        help="first seed; each class adds 100 000")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    jobs = [(name, args.seed + 100_000 * i + k)
            for i, name in enumerate(CLASSES) for k in range(args.count)]
    with Pool(args.jobs) as pool:
        read = [r for r in pool.map(read_both, jobs, chunksize=4) if r is not None]
    pooled = {name: [r[1:] for r in read if r[0] == name] for name in CLASSES}
    pooled["all"] = [r[1:] for r in read]
    stacked = {name: tuple(np.concatenate(part) for part in zip(*rows, strict=True))
               for name, rows in pooled.items() if rows}
    print(f"soft grids: {', '.join(f'{n} {len(r)}' for n, r in pooled.items())} "
          f"(of {args.count} photos a class); shipped SOFT_SHARE {SOFT_SHARE}")
    print("share | " + " | ".join(f"{name}: NLL, misread (p > 0.9)" for name in stacked))
    best = {name: (np.inf, None) for name in stacked}
    for share in SHARES:
        cells = []
        for name, (main_p, soft_p, truth) in stacked.items():
            nll, wrong, sure = scores(main_p, soft_p, truth, share)
            best[name] = min(best[name], (nll, share))
            cells.append(f"{nll:.4f}, {wrong} ({sure})")
        print(f"{share:.2f} | " + " | ".join(cells))
    print("least NLL at share: " + ", ".join(f"{n} {s:.2f}" for n, (_, s) in best.items()))


if __name__ == "__main__":
    main()
