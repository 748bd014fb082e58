"""How surely the nonogram reader reads the clue numbers of held-out pictures, picture by
picture: the pictures (style and fonts held out of the clue model's training) that
tests/recognizer/test_clue_model.py draws, each clue number's true value's probability.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/clue_surety.py [--count 8] [--seed 994000]

Per picture: numbers in lines whose count of numbers was read right, of them read wrong
(the true value at p <= 0.5) and left unsure (under 0.9); the totals against the test's
bounds (read right 99.5 %, at most 10 % under 0.9). The test keeps the pictures with the
most numbers under 0.9.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from gridsight.training.clues import clue_picture, true_number_probs  # noqa: E402
from services.recognizer.nonogram.clues import clue_model  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=8)
    parser.add_argument("--seed", type=int, default=994_000)
    args = parser.parse_args()
    model = clue_model()
    print("| seed | numbers | read wrong | under 0.9 |\n|---:|---:|---:|---:|")
    probs = []
    for seed in range(args.seed, args.seed + args.count):
        own = np.array(true_number_probs(model, [clue_picture(seed, held_out=True)]))
        probs.append(own)
        print(f"| {seed} | {len(own)} | {int((own <= 0.5).sum())} | {int((own < 0.9).sum())} |",
              flush=True)
    every = np.concatenate(probs)
    print(f"\n{len(every)} numbers: read right {(every > 0.5).mean():.3%} (floor 99.5 %), "
          f"under 0.9 {(every < 0.9).mean():.2%} (bound 10 %)")


if __name__ == "__main__":
    main()
