"""Rebuild the shipped nonogram clue digit model from synthetic pictures only.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/train_clues.py [--pictures 300]

`--refit-pair-odds` keeps the shipped network and fits only its pair odds, as training
does last (on the same calibration pictures).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import joblib  # noqa: E402

from gridsight.training.clues import calibration_seeds, fit_pair_odds, train  # noqa: E402
from gridsight.training.digits import train_and_save  # noqa: E402
from services.recognizer.nonogram.clues import CLUE_MODEL_PATH, clue_model


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pictures", type=int, default=300)
    parser.add_argument("--calibration-pictures", type=int, default=40)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=CLUE_MODEL_PATH)
    parser.add_argument("--refit-pair-odds", action="store_true")
    args = parser.parse_args()
    if args.refit_pair_odds:
        model = clue_model()
        seeds = calibration_seeds(model.info["seed"], args.calibration_pictures)
        print(f"pair odds: x{fit_pair_odds(model, seeds)}")
        joblib.dump(model, args.out, compress=3)
        return
    train_and_save(train, args.out, args.pictures, args.calibration_pictures, args.seed)


if __name__ == "__main__":
    main()
