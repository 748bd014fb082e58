"""Killer readings with many doubtful cage sums, repaired two ways side by side: with the
45 rule (cage_sums.py, sum_order.py) and without it, or this checkout against another.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/cage_sums.py [--plain 100] [--hard 20] \
        [--per-hard 3] [--seed 0] [--old ../old-checkout]

Readings come from generated killers with known answers: `--plain` ones
(make_killer, cages of up to 5 cells) and `--hard` ones (make_killer(hard=True),
large cages as in newspaper "fiendish" killers; several readings per puzzle, since
one takes seconds to make), puzzle seeds from `--seed` on. In each, k sums (k = 5, 10,
20) are read with doubt: the right value at p 0.3-0.6 among 2-4 candidates and a tail
of faint ones, a wrong value on top in about a third of them
(tests/solver/doubtful_sums.py). Each repair runs in a worker process of its own with
its default budget (with `--old`, that checkout's code; `git worktree add DIR main`),
the two alternating reading by reading. Per group and k: readings, right (the true
unique solution), `unknown` verdicts, wrong answers (a solution given that is not the
true one) and those of them `solved`, suspects per reading, and the CPU time per
reading (mean, p95). Writes bench/out/cage_sums.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
# A worker imports the solver of the checkout it is given, before anything else.
CODE = Path(sys.argv[sys.argv.index("--worker") + 1]) if "--worker" in sys.argv else ROOT
sys.path.insert(0, str(CODE))
sys.path.insert(0, str(ROOT / "tests" / "solver"))

from doubtful_sums import doubtful_reading  # noqa: E402

from gridsight.synth.puzzles import make_killer  # noqa: E402

DOUBTFUL = (5, 10, 20)


def readings(plain: int, hard: int, per_hard: int, first: int = 0):
    """(group, k, reading, solution) for every reading of the run."""
    for seed in range(first, first + plain):
        puzzle, solution = make_killer(random.Random(seed), 9)
        for k in DOUBTFUL:
            reading, _ = doubtful_reading(puzzle, k, random.Random(seed * 100 + k))
            yield "plain", k, reading, solution
    for seed in range(first, first + hard):
        puzzle, solution = make_killer(random.Random(seed), 9, hard=True)
        for k in DOUBTFUL:
            for j in range(per_hard):
                reading, _ = doubtful_reading(puzzle, k, random.Random(seed * 100 + k + j))
                yield "hard", k, reading, solution


def serve() -> None:
    """Worker: a reading (JSON) and whether to prune per line in, its repair's answer out."""
    from services.contracts import Reading
    from services.solver import repair, solve_reading

    for line in sys.stdin:
        job = json.loads(line)
        repair.RULE_OUT_SUMS = job["prune"]
        reading = Reading.model_validate(job["reading"])
        started = time.thread_time()
        result = solve_reading(reading)
        print(json.dumps({"cpu": time.thread_time() - started, "status": result.status,
                          "verdict": result.verdict, "solution": result.solution,
                          "suspects": len(result.suspects)}), flush=True)


class Worker:
    def __init__(self, code: Path, prune: bool):
        self.prune = prune
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker", str(code)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True)

    def run(self, reading, solution) -> dict:
        self.process.stdin.write(json.dumps({"reading": reading.model_dump(mode="json"),
                                             "prune": self.prune}) + "\n")
        self.process.stdin.flush()
        out = json.loads(self.process.stdout.readline())
        answered = out["solution"] is not None
        wrong = answered and out["solution"] != solution
        return {"cpu": out["cpu"], "right": out["verdict"] == "unique" and not wrong,
                "unknown": out["verdict"] == "unknown", "wrong": wrong,
                "wrong_solved": wrong and out["status"] == "solved",
                "suspects": out["suspects"]}

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--plain", type=int, default=40, help="plain killers")
    parser.add_argument("--hard", type=int, default=10, help="hard killers")
    parser.add_argument("--per-hard", type=int, default=3,
                        help="readings per hard killer and k")
    parser.add_argument("--seed", type=int, default=0, help="the first puzzle seed")
    parser.add_argument("--old", help="another checkout, to compare with this one")
    args = parser.parse_args()
    if args.old:
        old = Path(args.old).resolve()
        repairs = ((f"{old.name}", Worker(old, True)), ("this checkout", Worker(ROOT, True)))
    else:
        repairs = (("without the 45 rule", Worker(ROOT, False)),
                   ("with the 45 rule", Worker(ROOT, True)))
    rows: dict[tuple[str, int], list[list[dict]]] = {}
    count = 0
    for group, k, reading, solution in readings(args.plain, args.hard, args.per_hard,
                                                args.seed):
        # The two alternate, each first every other reading, so a busy machine slows
        # both alike.
        count += 1
        turn = repairs if count % 2 else repairs[::-1]
        got = {name: worker.run(reading, solution) for name, worker in turn}
        by = rows.setdefault((group, k), [[] for _ in repairs])
        for i, (name, _) in enumerate(repairs):
            by[i].append(got[name])
        print(group, k, len(by[0]), flush=True)
    for _, worker in repairs:
        worker.close()
    lines = ["| killers | k | readings | repair | right | `unknown` | wrong (as `solved`) | "
             "suspects (mean) | CPU s mean / p95 | mean vs first |",
             "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|"]
    for (group, k), by in sorted(rows.items()):
        first_mean = statistics.mean(r["cpu"] for r in by[0])
        for (name, _), rs in zip(repairs, by, strict=True):
            mean = statistics.mean(r["cpu"] for r in rs)
            lines.append(
                f"| {group} | {k} | {len(rs)} | {name} | {sum(r['right'] for r in rs)} | "
                f"{sum(r['unknown'] for r in rs)} | {sum(r['wrong'] for r in rs)} "
                f"({sum(r['wrong_solved'] for r in rs)}) | "
                f"{statistics.mean(r['suspects'] for r in rs):.1f} | {mean:.3f} / "
                f"{p95([r['cpu'] for r in rs]):.3f} | {mean / first_mean:.2f} |")
    table = "\n".join(lines)
    print(table)
    out = ROOT / "bench" / "out"
    out.mkdir(exist_ok=True)
    command = " ".join(sys.argv[1:])
    (out / "cage_sums.md").write_text(
        "# Many doubtful cage sums, two repairs side by side\n\n"
        f"`bench/cage_sums.py {command}`, CPU seconds of the solving thread, default "
        "budget.\n\n" + table + "\n")


if __name__ == "__main__":
    if "--worker" in sys.argv:
        serve()
    else:
        main()
