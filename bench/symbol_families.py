"""The symbol model (12x12/16x16 glyphs) on what it was not fitted on, worst group first.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/symbol_families.py [--model PATH]
        [--grids 30] [--family-grids 4] [--seed 30000]

Groups: the held-out font families (every fourth by name, gridsight/training/symbols.py)
in the training styles, the training fonts in the held-out style, both held out; and each
held-out family on its own in the held-out style. Prints glyph accuracy and counts, and
whether the worst family keeps FAMILY_FLOOR (`--grids 3 --family-grids 1 --seed 761000`
is the quick check, a minute; the suite keeps the pooled floor only).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import joblib  # noqa: E402

from gridsight.training.symbols import held_out_accuracy, held_out_families  # noqa: E402
from services.recognizer.cells.symbols import SYMBOL_MODEL_PATH  # noqa: E402

# The worst held-out font family alone, in the held-out style: 4 grids a family gave
# UniversalisADFStd 0.975 for the shipped model.
FAMILY_FLOOR = 0.93


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=SYMBOL_MODEL_PATH)
    parser.add_argument("--grids", type=int, default=30, help="grids per pooled group")
    parser.add_argument("--family-grids", type=int, default=4, help="grids per family")
    parser.add_argument("--seed", type=int, default=30_000)
    args = parser.parse_args()
    model = joblib.load(args.model)
    pooled = held_out_accuracy(model, args.grids, args.seed)
    families = held_out_families(model, args.family_grids, args.seed + 10_000)
    print("| group | glyph accuracy |\n|---|---|")
    for name, value in pooled.items():
        if not name.endswith("glyphs"):
            print(f"| {name} ({pooled[name + ' glyphs']} glyphs) | {value:.4f} |")
    for name, value in sorted(families.items(), key=lambda item: item[1]):
        print(f"| family {name}, held-out style | {value:.4f} |")
    worst = min(families, key=families.get)
    print(f"\nworst held-out family: {worst} {families[worst]:.4f} "
          f"({'keeps' if families[worst] >= FAMILY_FLOOR else 'BELOW'} the floor {FAMILY_FLOOR}, "
          f"{len(families)} families)")


if __name__ == "__main__":
    main()
