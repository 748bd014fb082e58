"""Rebuild the shipped nonogram clue digit model from synthetic pictures only.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/train_clues.py [--pictures 300]
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gridsight.training.clues import train  # noqa: E402
from gridsight.training.digits import train_and_save  # noqa: E402
from services.recognizer.nonogram import CLUE_MODEL_PATH  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pictures", type=int, default=300)
    parser.add_argument("--calibration-pictures", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=CLUE_MODEL_PATH)
    args = parser.parse_args()
    train_and_save(train, args.out, args.pictures, args.calibration_pictures, args.seed)


if __name__ == "__main__":
    main()
