"""Two versions of the reader timed side by side on the same pictures, and their readings
compared.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/side_by_side.py --other /tmp/ver-main \
        [--n 30] [--only textured progress] [--nines "photo: dark"] [--sides 6 16] \
        [--photos ../shared/data/sudoku_photos_dev]

`--other` is another checkout of the project (e.g. `git archive main | tar -x -C DIR`).
Each version runs in a worker process of its own; every picture goes to both, one after
the other, the order alternating from picture to picture, so that a machine loaded by
other work slows both alike. Killer pictures (bench/recognition_killer.py's groups) and
synthetic 9x9 sets (bench/recognition.py's) are read and solved as a job does; grids of
other sides (`--sides`: bench/recognition.py's sets of those sides, screenshots and
photos, its seeds) and real photos (`--photos`) are read (and the sides solved) with no
answer to check: their readings and statuses are compared. Per group: median and p95
seconds of each version, the median of the per-picture ratios (this version / other;
wall and CPU seconds: on a loaded machine CPU seconds vary less) and the ratio of the
p95s, pictures solved exactly, sums read right, and the pictures whose readings differ
(kind, walls, sums, cells, status).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# One BLAS and one OpenCV thread, as the service's workers run (gridsight/stack.py).
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "OPENCV_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
ROOT = Path(__file__).resolve().parents[1]


def most_likely(grid) -> list[list[int]] | None:
    """Each cell's most probable value (index) of a [row][col][value] grid."""
    if grid is None:
        return None
    return [[int(max(range(len(p)), key=p.__getitem__)) for p in row] for row in grid]


def describe(reading) -> dict:
    """What a reading says, each probability grid cut to its most likely values."""
    out = dict(kind=reading.kind, cells=most_likely(reading.cells),
               rotation=getattr(reading, "rotation", 0), timings=getattr(reading, "timings", {}))
    if reading.kind == "killer":
        out["walls"] = [[[int(p >= 0.5) for p in row] for row in walls]
                        for walls in (reading.walls_right, reading.walls_down)]
        out["sums"] = sorted((tuple(s.cell), s.candidates[0].value)
                             for s in reading.cage_sums)
    for key in ("cell_kinds", "entries"):
        if getattr(reading, key, None) is not None:
            out[key] = most_likely(getattr(reading, key))
    written = getattr(reading, "written_reading", None)
    if written is not None:
        out["written_reading"] = [most_likely(written.cells), most_likely(written.cell_kinds),
                                  most_likely(written.entries)]
    if getattr(reading, "row_clues", None) is not None:
        out["clues"] = [[[c.candidates[0].value for c in line] for line in lines]
                        for lines in (reading.row_clues, reading.col_clues)]
    return out


def serve(root: Path) -> None:
    """Worker: read picture paths from stdin, answer one JSON line each."""
    sys.path.insert(0, str(root))
    from services.recognizer import RecognitionError, recognize

    for line in sys.stdin:
        path, solve = json.loads(line)
        data = Path(path).read_bytes()
        started, cpu = time.perf_counter(), time.process_time()
        try:
            reading = recognize(data, "auto")
        except RecognitionError as e:
            print(json.dumps(dict(seconds=time.perf_counter() - started,
                                  cpu=time.process_time() - cpu, error=str(e))), flush=True)
            continue
        read_seconds = time.perf_counter() - started
        out = describe(reading)
        if solve:
            from services.solver import solve_page

            result = solve_page(reading, time_limit=10.0)
            out["status"] = result.status
            out["solution"] = result.solution
        out["read_seconds"] = read_seconds
        out["seconds"] = time.perf_counter() - started
        out["cpu"] = time.process_time() - cpu
        print(json.dumps(out), flush=True)


class Worker:
    def __init__(self, root: Path):
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--serve", str(root)], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, cwd=root)

    def ask(self, path: Path, solve: bool) -> dict:
        self.process.stdin.write(json.dumps([str(path), solve]) + "\n")
        self.process.stdin.flush()
        return json.loads(self.process.stdout.readline())

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


@contextmanager
def workers_against(commit: str) -> Iterator[tuple[Worker, Worker]]:
    """(a worker of this tree, a worker of `commit`), the commit checked out with
    `git worktree add` into a temporary folder; workers and checkout removed at the end."""
    folder = Path(tempfile.mkdtemp(prefix="gridsight-other-"))
    checkout = folder / "other"
    subprocess.run(["git", "worktree", "add", "--detach", str(checkout), commit],
                   cwd=ROOT, check=True, capture_output=True)
    try:
        mine, other = Worker(ROOT), Worker(checkout)
        try:
            yield mine, other
        finally:
            for worker in (mine, other):
                worker.process.kill()
                worker.process.wait()
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(checkout)], cwd=ROOT,
                       check=False, capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)


SAME = ("kind", "cells", "walls", "sums", "status", "rotation", "error", "cell_kinds",
        "entries", "written_reading", "clues")


def compare(mine: Worker, other: Worker, pictures, solve: bool) -> dict:
    """Both versions on each (name, bytes, solution) picture, alternating who goes first."""
    row = dict(mine=[], other=[], ratios=[], cpu_ratios=[], differ=[], solved=[0, 0],
               wrong_solved=[0, 0], sums=0, sums_right=[0, 0])
    with tempfile.TemporaryDirectory() as folder:
        for i, (name, data, solution, sums) in enumerate(pictures):
            path = Path(folder) / "picture"
            path.write_bytes(data)
            order = [(mine, "mine"), (other, "other")]
            answers = dict((label, worker.ask(path, solve))
                           for worker, label in (order if i % 2 == 0 else order[::-1]))
            a, b = answers["mine"], answers["other"]
            row["mine"].append(a["seconds"])
            row["other"].append(b["seconds"])
            row["ratios"].append(a["seconds"] / b["seconds"])
            row["cpu_ratios"].append(a["cpu"] / b["cpu"])
            row["sums"] += len(sums or {})
            for k, answer in enumerate((a, b)):
                read = {tuple(cell): value for cell, value in answer.get("sums", [])}
                row["sums_right"][k] += sum(read.get(cell) == v for cell, v in (sums or {}).items())
                if solution is None:  # no solution known: only the readings are compared
                    continue
                if answer.get("solution") == solution:
                    row["solved"][k] += 1
                elif answer.get("status") == "solved":
                    row["wrong_solved"][k] += 1
            changed = [key for key in SAME if a.get(key) != b.get(key)]
            if changed:
                row["differ"].append(f"{name}: {', '.join(changed)}")
    return row


def pct(values, q: float) -> float:
    import numpy as np

    return float(np.percentile(values, q)) if values else float("nan")


def report(name: str, row: dict) -> str:
    n = len(row["mine"])
    return (f"| {name} | {n} | {pct(row['other'], 50):.3f} / {pct(row['other'], 95):.3f} "
            f"| {pct(row['mine'], 50):.3f} / {pct(row['mine'], 95):.3f} "
            f"| {pct(row['ratios'], 50):.2f} / {pct(row['mine'], 95) / pct(row['other'], 95):.2f}"
            f" | {pct(row['cpu_ratios'], 50):.2f} | {row['solved'][1]} / {row['solved'][0]} "
            f"| {row['sums_right'][1]} / {row['sums_right'][0]} of {row['sums']} "
            f"| {row['wrong_solved'][1]} / {row['wrong_solved'][0]} | {len(row['differ'])} |")


def killer_pictures(style: str, count: int):
    sys.path.insert(0, str(ROOT / "bench"))
    from recognition_killer import killer_case, style_cases

    for seed, kind, exclude in style_cases(style, count):
        data, _, solution, info = killer_case(seed, kind, exclude)
        yield f"{style} {seed}", data, solution, info["sums"]


def nine_by_nine_pictures(name: str, count: int):
    """bench/recognition.py's synthetic set `name` (its seeds): read, and solved."""
    sys.path.insert(0, str(ROOT / "bench"))
    from recognition import FAILURE_CLASSES, synthetic_set

    names = ["screenshot", "flat photo", "curved photo", *FAILURE_CLASSES]
    for picture, data, _ in synthetic_set(name, count, 700_000 + 1000 * names.index(name)):
        yield picture, data, None, None


def side_pictures(side: int, photo: bool, count: int):
    """bench/recognition.py's sets of grids of `side` (each box shape), its seeds."""
    sys.path.insert(0, str(ROOT / "bench"))
    from recognition import SIZE_SETS, sizes_set

    for k, (size, box, conventions) in enumerate(SIZE_SETS):
        if size == side:
            for name, data, _, _, _ in sizes_set(size, box, conventions, photo, count,
                                                 700_000 + 50_000 + 1000 * k + 500 * photo):
                yield f"{name} ({box[0]}x{box[1]})", data, None, None


def photo_pictures(folder: Path):
    for path in sorted(folder.glob("*.jpg"), key=lambda p: p.name):
        yield path.name, path.read_bytes(), None, None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--other", type=Path, help="the other checkout's root")
    parser.add_argument("--n", type=int, default=30, help="killer pictures per group")
    parser.add_argument("--only", nargs="*", default=[], help="killer groups")
    parser.add_argument("--photos", type=Path, help="a folder of real photos (read only)")
    parser.add_argument("--sides", type=int, nargs="*", default=[],
                        help="grids of these sides (bench/recognition.py's sets), --n each")
    parser.add_argument("--nines", nargs="*", default=[],
                        help="bench/recognition.py's synthetic 9x9 sets, e.g. 'photo: dark'")
    args = parser.parse_args()
    if args.serve:
        serve(args.serve)
        return
    mine, other = Worker(ROOT), Worker(args.other.resolve())
    lines = ["| group | n | other median / p95 s | this median / p95 s "
             "| this / other: median of pairs / of the p95s | CPU seconds: median of pairs "
             "| solved other / this | sums right other / this | wrong solved other / this "
             "| readings differ |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    differ = []
    groups = [(style, killer_pictures(style, args.n), True) for style in args.only]
    groups += [(name, nine_by_nine_pictures(name, args.n), True) for name in args.nines]
    groups += [(f"{side}x{side} {'photo' if photo else 'screenshot'}",
                side_pictures(side, photo, args.n), True)
               for side in args.sides for photo in (False, True)]
    if args.photos:
        groups.append((args.photos.name, photo_pictures(args.photos), False))
    try:
        for name, pictures, solve in groups:
            row = compare(mine, other, pictures, solve)
            lines.append(report(name, row))
            differ += row["differ"]
            print(lines[-1], flush=True)
    finally:
        mine.close()
        other.close()
    print("\n".join(lines))
    if differ:
        print("\nReadings that differ:\n" + "\n".join(f"- {d}" for d in differ))


if __name__ == "__main__":
    main()
