"""Two versions of the logical solver side by side: the same path, and how fast.

    nice .venv/bin/python bench/hints_exact.py --old ../old-checkout [--top 100] [--forum 30]

Walks the whole path of each puzzle (top1465 and forum hardest 11+ samples from
../shared/bench/sudoku/, generated minimal 9x9 and killers) with the code of this
checkout and of --old (another checkout, for example `git worktree add ../old main`),
in alternating worker processes so that both see the same load. Every step (technique,
text, cells, placements, eliminations, digits) must be the same in both; the first
difference of each puzzle is printed. Then CPU time (process time) of the path (median,
max) and of a single hint (one next_step call: p50, p95), old, new and new / old.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def worker(root: str) -> None:
    """Read puzzles (JSON lines) on stdin, write each path and its times on stdout."""
    sys.path.insert(0, root)
    from services.solver.logic import Board, next_step

    for line in sys.stdin:
        puzzle = json.loads(line)
        cages = puzzle["cages"] and [([tuple(c) for c in cells], total)
                                     for cells, total in puzzle["cages"]]
        board = Board.start(puzzle["givens"], 9, (3, 3), cages)
        truth = puzzle["solution"]
        steps, hints = [], []
        started = time.process_time()
        while len(steps) < 2000:
            t = time.process_time()
            step = next_step(board, truth)
            hints.append(time.process_time() - t)
            if step is None:
                break
            steps.append([step.technique, step.text, step.cells, step.placements,
                          step.eliminations, step.digits])
            step.apply(board)
        print(json.dumps({"steps": steps, "path": time.process_time() - started,
                          "hints": hints[:-1] or hints}), flush=True)


def puzzles(args) -> dict[str, list[dict]]:
    sys.path.insert(0, str(ROOT))
    from bench.hints import HARD_SETS, SHARED, grid_of, solution_of
    from gridsight.synth.puzzles import make_killer, make_sudoku

    rng = random.Random(args.seed)
    sets = {}
    for name, file, n in (("top1465", HARD_SETS["top1465"], args.top),
                          ("forum hardest 11+", HARD_SETS["forum hardest 11+"], args.forum)):
        lines = [ln.strip() for ln in (SHARED / file).read_text().split() if len(ln.strip()) == 81]
        grids = [grid_of(ln) for ln in rng.sample(lines, min(n, len(lines)))]
        sets[name] = [{"givens": g, "cages": None, "solution": solution_of(g)} for g in grids]
    sets["generated minimal"] = []
    for _ in range(args.generated):
        givens, solution = make_sudoku(rng, 9)
        sets["generated minimal"].append(
            {"givens": givens, "cages": None, "solution": [v for row in solution for v in row]})
    sets["generated killers"] = []
    for k in range(args.killers):
        puzzle, solution = make_killer(random.Random(args.seed * 100000 + k), 9)
        sets["generated killers"].append(
            {"givens": None, "cages": [([list(c) for c in cage.cells], cage.sum)
                                       for cage in puzzle.cages],
             "solution": [v for row in solution for v in row]})
    return sets


def run(root: str, chunk: list[dict]) -> list[dict]:
    text = "".join(json.dumps(p) + "\n" for p in chunk)
    out = subprocess.run([sys.executable, __file__, "--worker", root], input=text,
                         capture_output=True, text=True, check=True).stdout
    return [json.loads(line) for line in out.splitlines()]


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def first_difference(old: list, new: list) -> str | None:
    for k, (a, b) in enumerate(zip(old, new)):
        if a != b:
            return f"step {k + 1}: old {a[0]} {a[3]} {a[4]}, new {b[0]} {b[3]} {b[4]}"
    if len(old) != len(new):
        return f"old {len(old)} steps, new {len(new)}"
    return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    parser.add_argument("--old", help="the other checkout")
    parser.add_argument("--top", type=int, default=100)
    parser.add_argument("--forum", type=int, default=30)
    parser.add_argument("--generated", type=int, default=30)
    parser.add_argument("--killers", type=int, default=30)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--chunk", type=int, default=10, help="puzzles per worker run")
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    if not args.old:
        parser.error("--old is needed")
    rows = ["| set | puzzles | steps | differing paths | path s median / max (old, new, "
            "ratio) | single hint ms p50 / p95 (old, new, ratio) |", "|---|---|---|---|---|---|"]
    for name, chunk_all in puzzles(args).items():
        if not chunk_all:
            continue
        old, new = [], []
        for k in range(0, len(chunk_all), args.chunk):
            chunk = chunk_all[k:k + args.chunk]
            old += run(str(Path(args.old).resolve()), chunk)
            new += run(str(ROOT), chunk)
        differ = 0
        for n, (a, b) in enumerate(zip(old, new)):
            diff = first_difference(a["steps"], b["steps"])
            if diff:
                differ += 1
                print(f"{name} #{n}: {diff}", flush=True)
        paths = [[r["path"] for r in runs] for runs in (old, new)]
        hints = [[t * 1000 for r in runs for t in r["hints"]] for runs in (old, new)]

        def three(f, values):
            a, b = f(values[0]), f(values[1])
            return f"{a:.3g} / {b:.3g} / {b / a:.2f}" if a else f"{a:.3g} / {b:.3g}"
        rows.append(
            f"| {name} | {len(old)} | {sum(len(r['steps']) for r in new)} | {differ} | "
            f"median {three(statistics.median, paths)}, max {three(max, paths)} | "
            f"p50 {three(lambda v: pct(v, 0.5), hints)}, "
            f"p95 {three(lambda v: pct(v, 0.95), hints)} |")
        print(rows[-1], flush=True)
    print("\n".join(rows))


if __name__ == "__main__":
    main()
