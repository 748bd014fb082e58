"""What the costly stages give on pictures a cheap gate would send past them.

    OPENBLAS_NUM_THREADS=1 nice .venv/bin/python bench/gate_evidence.py [--n 20]

A gate may skip a stage only where the stage's output is what the skip puts in the
Reading. Per group, for the pictures that enter each stage:
- the half-solved reading (cells/half_solved.py): how many readings equal the print-only
  fields a gate would give (print_only_fields), and how many carry a "written_reading";
- the wall model in cage_walls_seen (killer/reading.py): the mean wall probabilities
  each way (walls count as seen at CAGES_SEEN) and the share of edges each way with a
  cage-line-like run of thin ink beside the grid line on both sides (a band look a
  gate could use): a gate on it is safe only where every picture whose walls are seen
  shows such runs.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import services.recognizer.killer.reading as killer_reading  # noqa: E402
import services.recognizer.pipeline as pipeline  # noqa: E402
from services.recognizer import recognize  # noqa: E402
from services.recognizer.cells.half_solved import print_only_fields  # noqa: E402
from services.recognizer.killer.tuning import CAGES_SEEN, SPAN  # noqa: E402

SHARED = Path("/work/shared/data") if not (ROOT.parent / "shared").exists() \
    else ROOT.parent / "shared" / "data"
BAND = (2, 0.22)  # pixels from the grid line .. share of a cell: where a cage line runs
COVER = 0.3  # share of an edge's middle a run of thin ink covers to count


def band_share(ink: np.ndarray, n: int = 9) -> float:
    """The smaller of the shares of edges each way with a run of thin ink on both sides
    of the grid line, within BAND of it, along the edge's middle (SPAN)."""
    p = ink.shape[0] // n
    low, reach = BAND[0], int(BAND[1] * p)
    a0, a1 = int(SPAN[0] * p), int(SPAN[1] * p)
    g = (ink[:n * p, :n * p] >= 0.35).reshape(n, p, n, p)
    across = g[:, a0:a1]
    right = np.minimum(across[:, :, :-1, p - reach:p - low].mean(axis=1).max(axis=-1),
                       across[:, :, 1:, low:reach].mean(axis=1).max(axis=-1))
    down_cells = g[:, :, :, a0:a1]
    down = np.minimum(down_cells[:-1, p - reach:p - low].mean(axis=-1).max(axis=1),
                      down_cells[1:, low:reach].mean(axis=-1).max(axis=1))
    return float(min((right >= COVER).mean(), (down >= COVER).mean()))


def watched() -> dict:
    seen: dict = {}
    half_solved, walls = pipeline.half_solved_reading, killer_reading.wall_probabilities

    def half_solved_reading(colour, lattice, probs, straight=None):
        out = half_solved(colour, lattice, probs, straight)
        seen["print_only"] = np.array_equal(out[0], probs) and \
            out[1] == print_only_fields(probs)
        seen["written_reading"] = "written_reading" in out[1]
        return out

    def wall_probabilities(ink, model, n=9):
        out = walls(ink, model, n)
        seen["walls"] = min(float(np.mean(out[0])), float(np.mean(out[1])))
        seen["band"] = band_share(ink, n)
        return out

    pipeline.half_solved_reading = half_solved_reading
    killer_reading.wall_probabilities = wall_probabilities
    return seen


def groups(n: int) -> dict:
    from recognition_killer import killer_case, style_cases

    def folder(path: Path):
        return [(p.name, p.read_bytes) for p in sorted(path.glob("*.jpg"))[:n]]

    def killers(style: str):
        return [(f"killer {s}", lambda s=s, d=d, e=e: killer_case(s, d, e)[0])
                for s, d, e in style_cases(style, n)]

    return {"dev photos": lambda: folder(SHARED / "sudoku_photos_dev"),
            "half-solved train": lambda: folder(SHARED / "half_solved_photos/train/images"),
            "killers in progress": lambda: killers("progress"),
            "handwritten killers": lambda: killers("handwritten")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=20, help="pictures per group")
    args = parser.parse_args()
    seen = watched()
    for name, make in groups(args.n).items():
        rows = []
        for _, data in make():
            seen.clear()
            recognize(data(), "auto")
            rows.append(dict(seen))
        hs = [r for r in rows if "print_only" in r]
        wall = [r for r in rows if "walls" in r]
        walls_seen = [r["band"] for r in wall if r["walls"] >= CAGES_SEEN]
        unseen = [r["band"] for r in wall if r["walls"] < CAGES_SEEN]
        print(f"{name}: {len(rows)} pictures; half-solved reading entered {len(hs)}, "
              f"print-only {sum(r['print_only'] for r in hs)}, written_reading "
              f"{sum(r['written_reading'] for r in hs)}; wall model entered {len(wall)}, "
              f"walls seen {len(walls_seen)} (band share min "
              f"{min(walls_seen, default=float('nan')):.3f}), not seen {len(unseen)} "
              f"(band share max {max(unseen, default=float('nan')):.3f})")


if __name__ == "__main__":
    main()
