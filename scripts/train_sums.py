"""Rebuild the shipped killer models (cage walls, cage-sum digits) from synthetic grids only.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/train_sums.py [--grids 400]
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from gridsight.training.digits import train_and_save  # noqa: E402
from gridsight.training.sums import train  # noqa: E402
from services.recognizer.killer.sums import MODEL_PATH


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, default=400)
    parser.add_argument("--calibration-grids", type=int, default=60)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args()
    train_and_save(train, args.out, args.grids, args.calibration_grids, args.seed)


if __name__ == "__main__":
    main()
