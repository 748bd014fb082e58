"""Rebuild the shipped symbol model (0, A-P, "a digit") from rendered grids only.

    OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 .venv/bin/python scripts/train_symbols.py
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import joblib  # noqa: E402

from gridsight.training.symbols import (  # noqa: E402
    held_out_accuracy,
    held_out_families,
    train,
)
from services.recognizer.cells.symbols import SYMBOL_MODEL_PATH


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--grids", type=int, default=240)
    parser.add_argument("--test-grids", type=int, default=30)
    parser.add_argument("--family-grids", type=int, default=4,
                        help="grids per held-out font family for the per-family figures")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=SYMBOL_MODEL_PATH)
    args = parser.parse_args()
    started = time.perf_counter()
    model = train(args.grids, args.seed)
    print(f"trained on {model.info['glyphs']} glyphs in {time.perf_counter() - started:.0f} s")
    scores = held_out_accuracy(model, args.test_grids)
    model.info["held_out"] = scores
    for name, value in scores.items():
        print(f"  {name}: {value:.4f}" if isinstance(value, float) else f"  {name}: {value}")
    families = held_out_families(model, args.family_grids)
    worst = min(families, key=families.get)
    model.info["held_out_families"] = families
    print("  held-out families, one at a time in the held-out style: " + ", ".join(
        f"{name} {value:.4f}" for name, value in sorted(families.items(), key=lambda i: i[1])))
    print(f"  worst held-out family: {worst} {families[worst]:.4f}")
    joblib.dump(model, args.out, compress=3)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
