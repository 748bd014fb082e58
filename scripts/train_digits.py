"""Rebuild the shipped digit classifier from scratch: synthetic data only, fixed seeds.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/train_digits.py
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import joblib  # noqa: E402

from services.recognizer.classifier import MODEL_PATH  # noqa: E402
from services.recognizer.training import train  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, default=1500, help="training grids (81 cells each)")
    parser.add_argument("--calibration-grids", type=int, default=150)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=MODEL_PATH)
    args = parser.parse_args()
    started = time.perf_counter()
    model = train(args.grids, args.calibration_grids, args.seed)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    joblib.dump(model, args.out, compress=3)
    print(f"wrote {args.out} ({args.out.stat().st_size / 1e6:.2f} MB) "
          f"in {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
