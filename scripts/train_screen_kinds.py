"""Rebuild the screens' cell-kind classifier (blank / printed / entry / notes of a
screenshot's cells, services/recognizer/models/screen_kinds.joblib) from generated app
screenshots of the trained theme families, print-only pages and app pages
(gridsight/training/screen_kinds.py). The theme family bench/app_screens.py holds out is
never drawn. Fixed seeds.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/train_screen_kinds.py
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from gridsight.training.cell_kinds import train  # noqa: E402
from gridsight.training.digits import train_and_save  # noqa: E402
from gridsight.training.screen_kinds import screen_cells  # noqa: E402
from services.recognizer.cells.kinds import SCREEN_MODEL_PATH  # noqa: E402


def build(args: argparse.Namespace):
    x, y = screen_cells(args.pages, 100 + args.seed)
    x_cal, y_cal = screen_cells(args.calibration, 200 + args.seed)
    print(f"{len(y)} training cells, {len(y_cal)} calibration cells; classes "
          f"{np.bincount(y, minlength=20).tolist()}")
    model = train(x, y, x_cal, y_cal, args.seed,
                  {"pages": args.pages, "cells": len(y), "seed": args.seed,
                   "members": args.members}, colour=True, members=args.members)
    print(f"temperature {model.temperature:.2f}")
    return model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=1400, help="training pages")
    parser.add_argument("--calibration", type=int, default=60,
                        help="pages the temperature is fitted on (other seeds)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--members", type=int, default=3,
                        help="networks from successive seeds whose scores are averaged")
    parser.add_argument("--out", type=Path, default=SCREEN_MODEL_PATH)
    args = parser.parse_args()
    train_and_save(build, args.out, args)


if __name__ == "__main__":
    main()
