"""Rebuild the shipped orientation model from scratch (fixed seeds).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/train_orientation.py

Uses the real training photos in ../shared/data/half_solved_photos/train when present.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

from gridsight.training.digits import train_and_save  # noqa: E402
from gridsight.training.orientation import train  # noqa: E402
from services.recognizer.cells.orientation import MODEL_PATH


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, default=400, help="synthetic grids")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args()
    train_and_save(train, args.out, args.grids, args.seed)


if __name__ == "__main__":
    main()
