"""Solver benchmark: gridsight against baselines written in this project, same puzzles.

    .venv/bin/python bench/solver.py [--quick] [--seed N]

Sets: hard 9x9 lines from ../shared/bench/sudoku/*.txt beside the repository (sampled,
when present), generated minimal 9x9 (about 22-26 clues), 16x16 and 25x25, generated killer
sudoku without givens (easy ones, and hard ones with large cages: make_killer(hard=True),
seeds 1000.., cached in bench/out/hard_killers.json since some take a minute to make), and
generated nonograms of growing size. gridsight always proves
uniqueness (solve + verdict); baselines mostly only solve. Every answer is checked by
services.solver.check. Prints a table, writes bench/out/solver.md and bench/out/solver.png.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from baselines import backtrack, cpsat_plain, norvig, pulp_cbc  # noqa: E402

from gridsight.synth.puzzles import make_killer, make_nonogram, make_sudoku  # noqa: E402
from services.contracts import KillerPuzzle, SudokuPuzzle  # noqa: E402
from services.solver import solve_puzzle  # noqa: E402
from services.solver.check import nonogram_errors, sudoku_errors  # noqa: E402
from services.solver.grid import default_box  # noqa: E402

OUT = ROOT / "bench" / "out"
SHARED = ROOT.parent / "shared" / "bench" / "sudoku"
HARD_KILLERS = OUT / "hard_killers.json"
HARD_KILLER_SEED = 1000
GRIDSIGHT_LIMIT = 20.0  # seconds per puzzle; a verdict "unknown" is counted as such


@dataclass
class PuzzleSet:
    name: str
    kind: str  # sudoku, killer, nonogram
    puzzles: list
    notes: list[str] = field(default_factory=list)


@dataclass
class Run:
    solver: str
    indices: list[int]
    seconds: list[float]
    timeouts: int = 0
    note: str = ""
    verdicts: dict[str, int] = field(default_factory=dict)


def parse_line(line: str) -> list[list[int]]:
    return [[0 if ch in ".0" else int(ch) for ch in line[r * 9:r * 9 + 9]] for r in range(9)]


def build_sets(quick: bool, rng: random.Random) -> list[PuzzleSet]:
    sets = []
    sample = 40 if quick else 300
    for path in sorted(SHARED.glob("*.txt")):
        lines = [ln.strip() for ln in path.read_text().splitlines() if len(ln.strip()) == 81]
        chosen = rng.sample(lines, min(sample, len(lines)))
        sets.append(PuzzleSet(f"hard 9x9 {path.stem}", "sudoku",
                              [SudokuPuzzle(givens=parse_line(ln)) for ln in chosen],
                              [f"{len(chosen)} of {len(lines)} lines"]))
    plan = [("minimal 9x9 (generated)", 9, 30 if quick else 200),
            ("16x16 (generated)", 16, 6 if quick else 40),
            ("25x25 (generated)", 25, 2 if quick else 10)]
    for name, size, count in plan:
        puzzles = [SudokuPuzzle(size=size, givens=make_sudoku(rng, size)[0])
                   for _ in range(count)]
        clues = statistics.median(sum(v > 0 for row in p.givens for v in row) for p in puzzles)
        sets.append(PuzzleSet(name, "sudoku", puzzles, [f"median {clues:g} clues"]))
    for name, cage in (("killer 9x9, cages 2-5", 5), ("killer 9x9, cages 2-8", 8)):
        puzzles = [make_killer(rng, 9, max_cage=cage)[0] for _ in range(15 if quick else 100)]
        sizes = statistics.mean(len(c.cells) for p in puzzles for c in p.cages)
        sets.append(PuzzleSet(name, "killer", puzzles,
                              [f"no givens, mean cage {sizes:.1f} cells"]))
    hard = hard_killers(15 if quick else 60)
    sizes = [len(c.cells) for p in hard for c in p.cages]
    sets.append(PuzzleSet("hard killer 9x9, cages 2-7", "killer", hard,
                          [f"no givens, mean cage {statistics.mean(sizes):.1f} cells, "
                           f"{sum(s >= 5 for s in sizes) / len(hard):.1f} cages of 5+ cells "
                           f"per puzzle"]))
    blobs = [(10, 20), (20, 20), (30, 20), (50, 10), (100, 5), (200, 3)]
    noise = [(10, 20), (20, 20), (30, 20), (50, 5)]
    if quick:
        blobs = [(10, 5), (30, 5), (50, 2), (100, 2), (200, 1)]
        noise = [(30, 5)]
    for style, smooth, plan in (("blobs", 1, blobs), ("noise", 0, noise)):
        for side, count in plan:
            puzzles = [make_nonogram(rng, side, side, 0.6, smooth)[0] for _ in range(count)]
            sets.append(PuzzleSet(f"nonogram {style} {side}x{side}", "nonogram", puzzles,
                                  [f"random pictures, density 0.6, {smooth} smoothing"]))
    return sets


def hard_killers(count: int) -> list[KillerPuzzle]:
    """make_killer(Random(seed), hard=True) for seeds 1000.., read from the cache when there."""
    cached = json.loads(HARD_KILLERS.read_text()) if HARD_KILLERS.exists() else {}
    puzzles = []
    for seed in range(HARD_KILLER_SEED, HARD_KILLER_SEED + count):
        if str(seed) not in cached:
            cached[str(seed)] = make_killer(random.Random(seed), 9, hard=True)[0].model_dump()
            OUT.mkdir(parents=True, exist_ok=True)
            HARD_KILLERS.write_text(json.dumps(cached))
        puzzles.append(KillerPuzzle.model_validate(cached[str(seed)]))
    return puzzles


def time_gridsight(ps: PuzzleSet, limit: float) -> Run:
    solve_puzzle(ps.puzzles[0], time_limit=limit)  # start-up (imports, first model) excluded
    run = Run("gridsight", list(range(len(ps.puzzles))), [])
    for p in ps.puzzles:
        started = time.perf_counter()
        result = solve_puzzle(p, time_limit=limit)
        run.seconds.append(time.perf_counter() - started)
        run.verdicts[result.verdict] = run.verdicts.get(result.verdict, 0) + 1
        check_answer(ps.kind, p, result.solution)
    return run


def check_answer(kind: str, p, solution) -> None:
    if solution is None:
        return
    if kind == "nonogram":
        errors = nonogram_errors(solution, p.rows, p.cols)
    else:
        cages = [([tuple(c) for c in cg.cells], cg.sum) for cg in p.cages] \
            if kind == "killer" else ()
        errors = sudoku_errors(solution, p.givens, p.box or default_box(p.size), cages)
    if errors:
        raise AssertionError(f"wrong answer: {errors[:3]}")


def time_baseline(name: str, ps: PuzzleSet, indices: list[int], solve, limit: float,
                  note: str = "") -> Run:
    run = Run(name, indices, [], note=note)
    for i in indices:
        p = ps.puzzles[i]
        started = time.perf_counter()
        try:
            answer = solve(p)
        except backtrack.OutOfTime:
            answer = None
        elapsed = time.perf_counter() - started
        if answer is None:  # every puzzle here has a solution: None means it gave up
            run.timeouts += 1
            elapsed = max(elapsed, limit)
        elif ps.kind != "nonogram":
            check_answer(ps.kind, p, answer)
        run.seconds.append(elapsed)
    return run


def baselines_for(ps: PuzzleSet, quick: bool, rng: random.Random) -> list[Run]:
    n = len(ps.puzzles)
    everything = list(range(n))

    def few(k: int) -> list[int]:
        return sorted(rng.sample(everything, min(k, n)))

    runs = []
    if ps.kind == "sudoku":
        size = ps.puzzles[0].size
        box = default_box(size)
        nv = everything if size <= 16 else few(3)
        runs.append(time_baseline("norvig (solve)", ps, nv,
                                  lambda p: norvig.solve(p.givens, box, 1)[0], 600))
        runs.append(time_baseline("norvig (solve+unique)", ps, nv,
                                  lambda p: norvig.solve(p.givens, box, 2)[0], 600))
        bt_limit = 1.0 if quick else 2.0
        runs.append(time_baseline(
            "backtracking", ps, few((10 if quick else 30) if size <= 9 else 3),
            lambda p: backtrack.solve(p.givens, box, bt_limit), bt_limit,
            f"timeout {bt_limit:g} s"))
        pulp_count = {9: 10 if quick else 40, 16: 3 if quick else 8, 25: 1 if quick else 2}
        runs.append(time_baseline(
            "pulp/cbc (solve)", ps, few(pulp_count[size]),
            lambda p: pulp_cbc.solve(p.givens, box, size), 120))
    elif ps.kind == "killer":
        runs.append(time_baseline(
            "pulp/cbc (solve)", ps, few((3 if quick else 10) if ps.name.startswith("hard")
                                        else (4 if quick else 12)),
            lambda p: pulp_cbc.solve(p.givens, (3, 3), 9,
                                     [([tuple(c) for c in cg.cells], cg.sum)
                                      for cg in p.cages], 20), 20, "timeout 20 s"))
    else:
        limit = 10.0

        def plain(p):
            count, complete = cpsat_plain.solve(p.rows, p.cols, limit)
            return count if complete else None

        runs.append(time_baseline("cp-sat automata only (+verdict)", ps, everything, plain,
                                  limit, f"timeout {limit:g} s"))
    return runs


def ms(x: float) -> str:
    return f"{x * 1000:.1f}" if x < 10 else f"{x * 1000:.0f}"


def summarise(ps: PuzzleSet, runs: list[Run]) -> list[list[str]]:
    base = runs[0]
    rows = []
    for run in runs:
        times = sorted(run.seconds)
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        same = statistics.median(base.seconds[i] for i in run.indices)
        ratio = statistics.median(run.seconds) / same if run is not base else 1.0
        notes = [f"n={len(run.indices)}"]
        if run.timeouts:
            notes.append(f"{run.timeouts} timed out (counted at the limit)")
        if run.note and run.timeouts:
            notes.append(run.note)
        if run is base:
            notes.append("verdicts " + ", ".join(f"{k} {v}" for k, v in
                                                 sorted(run.verdicts.items())))
        rows.append([ps.name, run.solver, ms(statistics.median(times)), ms(p99),
                     ms(times[-1]), f"{ratio:.1f}x", "; ".join(notes)])
    return rows


def targets(results: list[tuple[PuzzleSet, list[Run]]]) -> list[str]:
    out = []
    for ps, runs in results:
        g = runs[0]
        med = statistics.median(g.seconds)
        times = sorted(g.seconds)
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        by = {r.solver: r for r in runs}
        if ps.kind == "sudoku" and ps.puzzles[0].size == 9:
            nv = statistics.median(by["norvig (solve)"].seconds)
            out.append(f"{ps.name}: solve+unique median {ms(med)} ms vs Norvig solve alone "
                       f"{ms(nv)} ms -> {'met' if med < nv else 'MISSED'}; p99 {ms(p99)} ms "
                       f"< 50 ms -> {'met' if p99 < 0.05 else 'MISSED'}")
        if ps.kind == "killer":
            out.append(f"{ps.name}: median {ms(med)} ms < 30 ms -> "
                       f"{'met' if med < 0.03 else 'MISSED'}; max {ms(times[-1])} ms < 500 ms "
                       f"-> {'met' if times[-1] < 0.5 else 'MISSED'}")
        if ps.kind == "nonogram" and ps.name.endswith("30x30"):  # target: 30x30 < 1 s
            out.append(f"{ps.name}: max {ms(times[-1])} ms < 1000 ms -> "
                       f"{'met' if times[-1] < 1 else 'MISSED'}")
        side_goals = {"nonogram blobs 100x100": 0.3, "nonogram blobs 200x200": 3.0}
        if ps.name in side_goals:
            goal = side_goals[ps.name]
            out.append(f"{ps.name}: median {ms(med)} ms < {ms(goal)} ms with verdict -> "
                       f"{'met' if med < goal and 'unknown' not in g.verdicts else 'MISSED'}"
                       f" (verdicts {', '.join(f'{k} {v}' for k, v in g.verdicts.items())})")
        if "pulp/cbc (solve)" in by:
            r = by["pulp/cbc (solve)"]
            ratio = statistics.median(r.seconds) / statistics.median(
                g.seconds[i] for i in r.indices)
            out.append(f"{ps.name}: PuLP/CBC median / gridsight median = {ratio:.0f}x "
                       f"(>= 20x -> {'met' if ratio >= 20 else 'MISSED'})")
    return out


def table(rows: list[list[str]]) -> str:
    head = ["set", "solver", "median ms", "p99 ms", "max ms", "median vs gridsight", "notes"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def plot(results: list[tuple[PuzzleSet, list[Run]]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    solvers = []
    for _, runs in results:
        for r in runs:
            if r.solver not in solvers:
                solvers.append(r.solver)
    fig, ax = plt.subplots(figsize=(max(8, len(results) * 1.1), 5))
    width = 0.8 / len(solvers)
    for k, solver in enumerate(solvers):
        xs, ys = [], []
        for i, (_, runs) in enumerate(results):
            for r in runs:
                if r.solver == solver:
                    xs.append(i + k * width)
                    ys.append(statistics.median(r.seconds) * 1000)
        ax.bar(xs, ys, width, label=solver)
    ax.set_yscale("log")
    ax.set_ylabel("median ms per puzzle (log)")
    ax.set_xticks([i + 0.4 - width / 2 for i in range(len(results))])
    ax.set_xticklabels([ps.name for ps, _ in results], rotation=35, ha="right", fontsize=8)
    ax.legend(fontsize=8)
    ax.set_title("gridsight solver (solve + uniqueness) against baselines")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small samples, a short run")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    started = time.perf_counter()
    sets = build_sets(args.quick, rng)
    print(f"built {len(sets)} sets in {time.perf_counter() - started:.1f} s", flush=True)
    results, rows = [], []
    for ps in sets:
        runs = [time_gridsight(ps, GRIDSIGHT_LIMIT)] + baselines_for(ps, args.quick, rng)
        results.append((ps, runs))
        part = summarise(ps, runs)
        rows += part
        for r in part:
            print(" | ".join(r), flush=True)
    OUT.mkdir(parents=True, exist_ok=True)
    report = ["# Solver benchmark", "",
              f"`bench/solver.py{' --quick' if args.quick else ''}` (seed {args.seed}), "
              "one process on this machine. gridsight = `solve_puzzle` (propagation, then "
              "CP-SAT with one worker), always solve + uniqueness verdict; start-up "
              "excluded, model building included. Ratios are baseline median / gridsight "
              "median on the same puzzles.", "",
              "Sets: " + "; ".join(f"{ps.name} ({', '.join(ps.notes)})" for ps in sets), "",
              table(rows), "", "## Targets", ""] + [f"- {t}" for t in targets(results)]
    report += ["", f"Total run time {time.perf_counter() - started:.0f} s."]
    (OUT / "solver.md").write_text("\n".join(report) + "\n")
    plot(results, OUT / "solver.png")
    print()
    print("\n".join(report))


if __name__ == "__main__":
    main()
