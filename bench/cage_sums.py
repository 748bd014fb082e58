"""Killer readings with many doubtful cage sums: the repair with the 45-rule pruning of
sum candidates (cage_sums.py) beside the same repair without it, in one run.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/cage_sums.py [--plain 100] [--hard 20]

Readings come from generated killers with known answers: `--plain` ones
(make_killer, cages of up to 5 cells) and `--hard` ones (make_killer(hard=True),
large cages as in newspaper "fiendish" killers; several readings per puzzle, since
one takes seconds to make). In each, k sums (k = 5, 10, 20) are read with doubt:
the right value at p 0.3-0.6 among 2-4 candidates and a tail of faint ones, a
wrong value on top in about a third of them (tests/solver/doubtful_sums.py). The
repair runs with its default budget; per group and k: readings, answered (a
solution given), right (the true unique solution), wrong as `solved`, `unknown`
verdicts, suspects per reading, and the CPU time per reading (mean, p95), old and
new alternating reading by reading. Writes bench/out/cage_sums.md.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "solver"))

from doubtful_sums import doubtful_reading  # noqa: E402

from gridsight.synth.puzzles import make_killer  # noqa: E402
from services.solver import repair, solve_reading  # noqa: E402

DOUBTFUL = (5, 10, 20)
REPAIRS = (("without pruning", False), ("45-rule pruning", True))


def readings(plain: int, hard: int, per_hard: int):
    """(group, k, reading, solution) for every reading of the run."""
    for seed in range(plain):
        puzzle, solution = make_killer(random.Random(seed), 9)
        for k in DOUBTFUL:
            reading, _ = doubtful_reading(puzzle, k, random.Random(seed * 100 + k))
            yield "plain", k, reading, solution
    for seed in range(hard):
        puzzle, solution = make_killer(random.Random(seed), 9, hard=True)
        for k in DOUBTFUL:
            for j in range(per_hard):
                reading, _ = doubtful_reading(puzzle, k, random.Random(seed * 100 + k + j))
                yield "hard", k, reading, solution


def run_one(reading, solution, prune: bool) -> dict:
    repair.RULE_OUT_SUMS = prune
    started = time.thread_time()
    result = solve_reading(reading)
    return {"cpu": time.thread_time() - started,
            "answered": result.solution is not None,
            "right": result.verdict == "unique" and result.solution == solution,
            "unknown": result.verdict == "unknown",
            "wrong_solved": result.status == "solved" and result.solution != solution,
            "suspects": len(result.suspects)}


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plain", type=int, default=40, help="plain killers")
    parser.add_argument("--hard", type=int, default=10, help="hard killers")
    parser.add_argument("--per-hard", type=int, default=3,
                        help="readings per hard killer and k")
    args = parser.parse_args()
    rows: dict[tuple[str, int], dict[bool, list[dict]]] = {}
    for group, k, reading, solution in readings(args.plain, args.hard, args.per_hard):
        # Old and new alternate reading by reading, so a busy machine slows both alike.
        for _, prune in REPAIRS:
            rows.setdefault((group, k), {}).setdefault(prune, []).append(
                run_one(reading, solution, prune))
        print(group, k, len(rows[group, k][True]), flush=True)
    repair.RULE_OUT_SUMS = True
    lines = ["| killers | k doubtful | readings | repair | answered | right | unknown | "
             "wrong as solved | suspects (mean) | CPU s mean | CPU s p95 | CPU new/old |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for (group, k), by in sorted(rows.items()):
        old_mean = statistics.mean(r["cpu"] for r in by[False])
        for name, prune in REPAIRS:
            rs = by[prune]
            mean = statistics.mean(r["cpu"] for r in rs)
            lines.append(
                f"| {group} | {k} | {len(rs)} | {name} | "
                f"{sum(r['answered'] for r in rs)} | {sum(r['right'] for r in rs)} | "
                f"{sum(r['unknown'] for r in rs)} | {sum(r['wrong_solved'] for r in rs)} | "
                f"{statistics.mean(r['suspects'] for r in rs):.1f} | {mean:.3f} | "
                f"{p95([r['cpu'] for r in rs]):.3f} | {mean / old_mean:.2f} |")
    table = "\n".join(lines)
    print(table)
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    (out / "cage_sums.md").write_text(
        "# Many doubtful cage sums: the repair with and without the 45-rule pruning\n\n"
        f"`bench/cage_sums.py --plain {args.plain} --hard {args.hard} --per-hard "
        f"{args.per_hard}`, CPU seconds of the solving thread, default budget "
        f"({repair.KILLER_SETTLE_SECONDS} s).\n\n" + table + "\n")


if __name__ == "__main__":
    main()
