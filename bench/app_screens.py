"""App and web screenshots of sudoku in progress, by theme family (gridsight/synth/app_screens.py).

Each picture is read by recognize() as the service reads it; a cell's state (blank, its
digit, or pencil notes) is right when it is the truth's, a digit's kind too (a given or
the person's). Per family: cell states right, givens / entries / notes / blank right,
pictures with every cell right, wrong answers given as `solved` (services.solver's
solve_page), time per picture. Seeds from 5_000_000 on: never those the cell-kind
model is trained on (gridsight/training/cell_kinds.py); HELD_OUT_FAMILY is never trained
on at all.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/app_screens.py [--count N] [--model PATH]
"""

from __future__ import annotations

import argparse
import io
import os
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from bench.half_solved import states, timed_reading, with_candidate_model  # noqa: E402
from gridsight.synth.app_screens import FAMILIES, HELD_OUT_FAMILY, app_screen  # noqa: E402
from services.recognizer.shipped_models import load_shipped_models  # noqa: E402
from services.solver import solve_page  # noqa: E402

FIRST_SEED = 5_000_000
GROUPS = ("given", "entry", "notes", "blank")
KIND_INDEX = {"blank": 0, "given": 1, "entry": 2, "notes": 3}  # as Reading.cell_kinds


def encoded(screen, k: int) -> bytes:
    """PNG, as screenshots are, every third one JPEG as web captures often are."""
    buffer = io.BytesIO()
    if k % 3 == 2:
        screen.image.save(buffer, "JPEG", quality=88)
    else:
        screen.image.save(buffer, "PNG")
    return buffer.getvalue()


def truth_groups(screen) -> np.ndarray:
    out = np.full((9, 9), "blank", object)
    out[np.array(screen.givens) > 0] = "given"
    out[np.array(screen.entries) > 0] = "entry"
    for r, c in screen.notes:
        out[r, c] = "notes"
    return out


def read_family(family: str, count: int, seed: int) -> dict:
    right, total = Counter(), Counter()
    perfect = wrong_solved = solved = 0
    seconds = []
    for k in range(count):
        screen = app_screen(seed + k, family)
        data = encoded(screen, k)
        labels = np.array(screen.labels)
        reading, took = timed_reading(data)
        seconds.append(took)
        state, kind = states(reading) if reading is not None else (None, None)
        if state is None or np.asarray(state).shape != (9, 9):
            state, kind = np.full((9, 9), -1), np.full((9, 9), -1)
        groups = truth_groups(screen)
        # Right: the state and, for a digit, its kind (a given read as the person's digit
        # or the other way round is wrong, though its value is right).
        good = (state == labels) & (kind == np.vectorize(KIND_INDEX.get)(groups))
        for g in GROUPS:
            mask = groups == g
            total[g] += int(mask.sum())
            right[g] += int(good[mask].sum())
        perfect += bool(good.all())
        if reading is not None:
            result = solve_page(reading)
            if result.status == "solved":
                solved += 1
                wrong_solved += not (np.array(result.solution) == np.array(screen.solution)).all()
    return {"right": right, "total": total, "perfect": perfect, "count": count,
            "solved": solved, "wrong_solved": wrong_solved, "seconds": seconds}


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} %" if b else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20, help="pictures per family")
    parser.add_argument("--seed", type=int, default=FIRST_SEED)
    parser.add_argument("--families", nargs="+", default=list(FAMILIES))
    args = with_candidate_model(parser)
    load_shipped_models()
    results = {}
    for i, family in enumerate(args.families):
        results[family] = read_family(family, args.count, args.seed + 10_000 * i)
    print(f"{args.count} pictures per family, seeds from {args.seed}; held out of training: "
          f"{HELD_OUT_FAMILY}\n")
    print("| family | cell states right | givens | entries | notes | blank | every cell right "
          "| solved (wrong) | time per picture, median |")
    print("|---|---|---|---|---|---|---|---|---|")
    worst = None
    for family, r in results.items():
        cells = sum(r["right"].values()) / max(1, sum(r["total"].values()))
        if worst is None or cells < worst[1]:
            worst = (family, cells)
        name = f"{family} (held out)" if family == HELD_OUT_FAMILY else family
        print(f"| {name} | {pct(sum(r['right'].values()), sum(r['total'].values()))} | "
              + " | ".join(pct(r["right"][g], r["total"][g]) for g in GROUPS)
              + f" | {pct(r['perfect'], r['count'])} | {r['solved']} ({r['wrong_solved']}) | "
              f"{1000 * np.median(r['seconds']):.0f} ms |")
    print(f"\nworst family: {worst[0]} ({100 * worst[1]:.1f} % of cell states right)")


if __name__ == "__main__":
    main()
