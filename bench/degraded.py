"""Printed sudoku photos damaged by kind and strength (gridsight.synth.degrade), read and
solved by this working tree and by another commit side by side.

    OPENBLAS_NUM_THREADS=1 nice .venv/bin/python bench/degraded.py [--against main] \
        [--count 10] [--seed 81000000] [--kinds "salt and pepper" inverted]

The other commit is checked out with `git worktree add` into a temporary folder (removed
at the end); each version reads in a worker process of its own (bench/side_by_side.py's
workers), the order alternating from picture to picture. Each picture is read with
recognize(kind="auto") and solved with solve_page, as a job does. Per kind and strength
(worst first, by this version's share solved exactly): solved exactly (answered `solved`
with the true solution), cells right (the reading's likeliest value equals the print),
answered `solved` wrongly, median seconds (read and solve) of each, and the median of
the per-picture time ratios (this / other). Seeds: kind k, strength s, picture i uses
seed + 10 000 k + 1000 s + i; the default seeds were not used for fitting.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from side_by_side import Worker, pct, workers_against  # noqa: E402

from gridsight.synth.degrade import KINDS, STRENGTHS, degraded_photo  # noqa: E402


def groups(kinds: list[str]):
    """(kind index, kind, strength) for every group asked, clean first."""
    for k, kind in enumerate(KINDS):
        if kinds and kind not in kinds:
            continue
        for strength in ((0,) if kind == "clean" else range(1, len(STRENGTHS[kind]) + 1)):
            yield k, kind, strength


def score(answer: dict, picture) -> tuple[bool, int, bool]:
    """(solved exactly, cells right, answered solved wrongly) for one worker's answer."""
    cells = answer.get("cells")
    right = 0
    if cells is not None and len(cells) == 9:
        right = int((np.asarray(cells) == picture.givens).sum())
    solved = answer.get("status") == "solved"
    exact = solved and np.array_equal(np.asarray(answer.get("solution")), picture.solution)
    return exact, right, solved and not exact


def run_group(mine: Worker, other: Worker, pictures) -> dict:
    row = {label: dict(exact=0, cells=0, wrong=0, seconds=[]) for label in ("mine", "other")}
    row["ratios"], row["n"] = [], 0
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "picture.jpg"
        for i, picture in enumerate(pictures):
            path.write_bytes(picture.data)
            order = [(mine, "mine"), (other, "other")]
            answers = {label: worker.ask(path, True)
                       for worker, label in (order if i % 2 == 0 else order[::-1])}
            for label, answer in answers.items():
                exact, right, wrong = score(answer, picture)
                tally = row[label]
                tally["exact"] += exact
                tally["cells"] += right
                tally["wrong"] += wrong
                tally["seconds"].append(answer["seconds"])
            row["ratios"].append(answers["mine"]["seconds"] / answers["other"]["seconds"])
            row["n"] += 1
    return row


def table_row(name: str, row: dict) -> str:
    n = row["n"]
    mine, other = row["mine"], row["other"]

    def shares(t: dict) -> str:
        return f"{100 * t['exact'] / n:.0f} % / {100 * t['cells'] / (81 * n):.2f} %"

    return (f"| {name} | {n} | {shares(other)} | {shares(mine)} "
            f"| {other['wrong']} / {mine['wrong']} "
            f"| {pct(other['seconds'], 50):.3f} / {pct(mine['seconds'], 50):.3f} "
            f"| {pct(row['ratios'], 50):.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="main", help="the other commit")
    parser.add_argument("--count", type=int, default=10, help="pictures per kind and strength")
    parser.add_argument("--seed", type=int, default=81_000_000)
    parser.add_argument("--kinds", nargs="*", default=[], help="kinds of damage to run")
    args = parser.parse_args()
    rows = []
    with workers_against(args.against) as (mine, other):
        for k, kind, strength in groups(args.kinds):
            seed0 = args.seed + 10_000 * k + 1000 * strength
            pictures = (degraded_photo(seed0 + i, kind, strength) for i in range(args.count))
            name = kind if kind == "clean" else f"{kind} {strength}"
            row = run_group(mine, other, pictures)
            rows.append((name, row))
            print(table_row(name, row), flush=True)
    rows.sort(key=lambda r: (r[1]["mine"]["exact"] / r[1]["n"],
                             r[1]["mine"]["cells"] / r[1]["n"]))
    total = {label: sum(r[label]["exact"] for _, r in rows) for label in ("mine", "other")}
    wrong = {label: sum(r[label]["wrong"] for _, r in rows) for label in ("mine", "other")}
    n = sum(r["n"] for _, r in rows)
    print(f"\nother = {args.against}, this = the working tree; worst group first\n")
    print("| damage, strength | n | other: solved exactly / cells right "
          "| this: solved exactly / cells right | solved wrongly other / this "
          "| median s other / this | this / other time, median of pairs |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, row in rows:
        print(table_row(name, row))
    print(f"| all | {n} | {100 * total['other'] / n:.1f} % | {100 * total['mine'] / n:.1f} % "
          f"| {wrong['other']} / {wrong['mine']} | | |")


if __name__ == "__main__":
    main()
