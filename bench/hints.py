"""Hints benchmark: the logical (human-style) path on easy to hardest 9x9 and on killers.

    nice .venv/bin/python bench/hints.py [--sample N] [--killers N] [--seed N]

Sets: generated easy 9x9 (36 clues), generated minimal 9x9 (about 24 clues), top1465 and
forum hardest 11+ from ../shared/bench/sudoku/ (sampled; skipped when the folder is not
there), and generated killers without givens. For each puzzle the whole path is walked
from the givens, every step checked against the unique solution before it is applied (a
wrong placement or the true digit removed counts as a wrong step). Reported per set: how
many paths finish without trial and error (forcing chains of every kind count as logic,
trial and the solution's digit do not), and how many without forcing chains either; path
time (median, max); the time of a single hint (every step of the path is one next_step
call: p50, p95); the median rating. Times are CPU (process) time, which other work on
the machine changes less than wall time. Writes bench/out/hints.md.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gridsight.synth.puzzles import make_killer, make_sudoku  # noqa: E402
from services.solver.grid import geometry  # noqa: E402
from services.solver.logic import Board, next_step  # noqa: E402
from services.solver.logic.forcing import (  # noqa: E402
    DIGIT_FORCING_CHAIN,
    FORCING_CHAIN,
    NESTED_FORCING_CHAIN,
)
from services.solver.logic.path import FROM_SOLUTION, TRIAL  # noqa: E402
from services.solver.logic.path import Path as LogicPath  # noqa: E402
from services.solver.propagate import initial_candidates, search  # noqa: E402

OUT = ROOT / "bench" / "out"
# ../shared beside the repository (or beside the worktrees' folder)
SHARED = next((p / "shared" / "bench" / "sudoku" for p in (ROOT.parent, ROOT.parent.parent)
               if (p / "shared" / "bench" / "sudoku").is_dir()), None)
HARD_SETS = {"top1465": "magictour_top1465.txt",
             "forum hardest 11+": "forum_hardest_1905_11plus.txt"}


def grid_of(line: str) -> list[list[int]]:
    return [[0 if ch in ".0" else int(ch) for ch in line[r * 9:r * 9 + 9]] for r in range(9)]


def solution_of(givens) -> list[int]:
    geo = geometry(9, (3, 3))
    found, _ = search(initial_candidates(givens, geo), geo, limit=1)
    return [m.bit_length() for m in found[0]]


def walk(board: Board, truth: list[int]) -> dict:
    """The whole path, step by step, each checked and timed."""
    steps, times, wrong = [], [], 0
    started = time.process_time()
    while len(steps) < 2000:
        t = time.process_time()
        step = next_step(board, truth)
        times.append(time.process_time() - t)
        if step is None:
            break
        wrong += sum(truth[c] != d for c, d in step.placements)
        wrong += sum(truth[c] == d for c, d in step.eliminations)
        step.apply(board)
        steps.append(step)
    path = LogicPath(steps, board.solved())
    rating = path.rating()
    used = {s.technique for s in steps}
    return {"seconds": time.process_time() - started, "hint_times": times[:-1] or times,
            "wrong": wrong, "finished": path.finished, "score": rating["score"],
            "logical": path.finished and not used & {TRIAL, FROM_SOLUTION},
            "no_forcing": path.finished and not used & {
                TRIAL, FROM_SOLUTION, FORCING_CHAIN, DIGIT_FORCING_CHAIN, NESTED_FORCING_CHAIN},
            "used": used}


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def sudoku_sets(rng: random.Random, sample: int, generated: int):
    easy = [make_sudoku(rng, 9, target_clues=36)[0] for _ in range(generated)]
    minimal = [make_sudoku(rng, 9)[0] for _ in range(generated)]
    sets = [("generated easy (36 clues)", easy), ("generated minimal (~24 clues)", minimal)]
    if SHARED is None:
        print("skipping top1465 and forum hardest: ../shared/bench/sudoku/ is not there")
        return sets
    for name, file in HARD_SETS.items():
        lines = [ln.strip() for ln in (SHARED / file).read_text().split() if len(ln.strip()) == 81]
        sets.append((name, [grid_of(ln) for ln in rng.sample(lines, min(sample, len(lines)))]))
    return sets


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sample", type=int, default=2000, help="puzzles per hard set")
    parser.add_argument("--generated", type=int, default=50, help="generated 9x9 per set")
    parser.add_argument("--killers", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows = []
    for name, grids in sudoku_sets(rng, args.sample, args.generated):
        runs = [walk(Board.start(g, 9, (3, 3)), solution_of(g)) for g in grids]
        rows.append((name, runs))
        print(name, "done", flush=True)
    killers = []
    for k in range(args.killers):
        puzzle, solution = make_killer(random.Random(args.seed * 100000 + k), 9)
        cages = [([tuple(c) for c in cage.cells], cage.sum) for cage in puzzle.cages]
        killers.append(walk(Board.start(None, 9, (3, 3), cages),
                            [v for row in solution for v in row]))
    if killers:
        rows.append(("generated killers", killers))
    table = ["| set | puzzles | wrong steps | finished without trial | ... and without "
             "forcing chains | path s median / max | single hint ms p50 / p95 | "
             "median rating |", "|---|---|---|---|---|---|---|---|"]
    for name, runs in rows:
        n = len(runs)
        hint_ms = [t * 1000 for r in runs for t in r["hint_times"]]
        secs = [r["seconds"] for r in runs]
        table.append(
            f"| {name} | {n} | {sum(r['wrong'] for r in runs)} | "
            f"{100 * sum(r['logical'] for r in runs) / n:.1f} % | "
            f"{100 * sum(r['no_forcing'] for r in runs) / n:.1f} % | "
            f"{statistics.median(secs):.3f} / {max(secs):.3f} | "
            f"{pct(hint_ms, 0.5):.1f} / {pct(hint_ms, 0.95):.1f} | "
            f"{statistics.median(r['score'] for r in runs):.2f} |")
    text = "\n".join(table)
    print(text)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "hints.md").write_text(text + "\n")


if __name__ == "__main__":
    main()
