"""Rebuild the shipped digit classifier from scratch: synthetic data only, fixed seeds.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/train_digits.py
    OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/train_digits.py --soft

--soft rebuilds the second shipped model, digits_soft.joblib, read only on grids out of
focus: the same training with DEFOCUSED_GRIDS photos out of focus by the cell added
(the same as --defocused-grids 500 --out services/recognizer/models/digits_soft.joblib).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from gridsight.training.digits import (  # noqa: E402
    DEFOCUSED_GRIDS,
    OTHER_SIDE_GRIDS,
    train,
    train_and_save,
)
from services.recognizer.cells.classifier import MODEL_PATH, SOFT_MODEL_PATH


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, default=1500, help="training grids (81 cells each)")
    parser.add_argument("--calibration-grids", type=int, default=150)
    # The defaults rebuild the main model; the defocused share alone (--soft) the soft-grid
    # one. Retraining the main model with the defocused share read 16x16 glyphs and
    # half-solved pages worse, so the two models stay apart.
    parser.add_argument("--defocused-grids", type=int, default=0,
                        help="further photos out of focus by the cell, with a blank offset "
                             f"fitted (measured: {DEFOCUSED_GRIDS})")
    parser.add_argument("--other-side-grids", type=int, default=0,
                        help="12x12 and 16x16 grids whose digit glyphs are learnt too "
                             f"(measured: {OTHER_SIDE_GRIDS})")
    parser.add_argument("--hidden", type=int, default=256, help="hidden units")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--soft", action="store_true",
                        help=f"the soft-grid model: --defocused-grids {DEFOCUSED_GRIDS}, "
                             f"written to {SOFT_MODEL_PATH.name}")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    if args.soft:
        args.defocused_grids = args.defocused_grids or DEFOCUSED_GRIDS
    args.out = args.out or (SOFT_MODEL_PATH if args.soft else MODEL_PATH)
    train_and_save(lambda: train(args.grids, args.calibration_grids, args.seed,
                                 defocused_grids=args.defocused_grids,
                                 other_side_grids=args.other_side_grids, hidden=args.hidden),
                   args.out)


if __name__ == "__main__":
    main()
