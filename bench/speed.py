"""The reader's speed, this working tree against an older commit, side by side.

    OPENBLAS_NUM_THREADS=1 nice .venv/bin/python bench/speed.py [--against a7c8658] \
        [--n 20] [--only screenshots "dev photos"]

The older commit is checked out with `git worktree add` into a temporary folder (removed
at the end); each version reads in a worker process of its own with its own sys.path
(bench/side_by_side.py's workers), models loaded before timing. Every picture goes to
both, the order alternating from picture to picture, so that a machine loaded by other
work slows both alike. Times are CPU seconds of one `recognize(data, "auto")` call.

Groups: the rendered screenshots of bench/load.py, the phone photos of
../shared/data/sudoku_photos_dev, the half-solved photos of
../shared/data/half_solved_photos/val, half-solved screenshots (gridsight.synth's pages
written on, flat), killer screenshots (bench/recognition_killer.py's "mixed" style, and
in progress: the person's digits and notes in them), nonogram screenshots
(bench/recognition_nonogram.py's), and synthetic 12 MP phone photos.
Per group: median and p95 of both, their ratios, and the pictures
whose readings differ (bench/side_by_side.py's `describe`: kind, cells, cell kinds,
entries, walls, sums, clues, rotation, error).
"""

from __future__ import annotations

import argparse
import io
import os
import random
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
sys.path.insert(0, str(ROOT))

from side_by_side import SAME, Worker, pct, workers_against  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
if not SHARED.exists():
    SHARED = Path("/work/shared/data")


def screenshots(count: int):
    from load import pictures

    for i, (data, _) in enumerate(pictures(count)):
        yield f"screenshot {i}", data


def folder_photos(folder: Path, count: int):
    for path in sorted(folder.glob("*.jpg"), key=lambda p: p.name)[:count]:
        yield path.name, path.read_bytes()


def killers(count: int, style: str = "mixed"):
    from recognition_killer import killer_case, style_cases

    for seed, drawn, exclude in style_cases(style, count):
        yield f"killer {seed}", killer_case(seed, drawn, exclude)[0]


def nonograms(count: int):
    from recognition_nonogram import SETS
    from recognition_nonogram import pictures as nonogram_pictures

    _, styles, held_out, half_filled, photo = SETS[0]
    for name, data, _, _ in nonogram_pictures(styles, held_out, half_filled, photo, count,
                                              9_100_000):
        yield f"nonogram {name}", data


def half_solved_screenshots(count: int):
    """gridsight.synth's half-solved pages, flat: app screenshots (the person's digits in
    another colour, grey notes) and pages written on in pen or pencil, alternating."""
    from gridsight.synth.half_solved import half_solved_page

    for i in range(count):
        page = half_solved_page(9_300_000 + i, app=i % 2 == 0)
        buffer = io.BytesIO()
        page.image.save(buffer, "PNG")
        yield f"half-solved {'app' if i % 2 == 0 else 'page'} {i}", buffer.getvalue()


def twelve_megapixel_photos(count: int):
    import numpy as np

    from gridsight.synth.photo import photograph
    from gridsight.synth.puzzles import make_sudoku
    from gridsight.synth.render import render_sudoku

    for i in range(count):
        seed = 9_200_000 + i
        givens, _ = make_sudoku(random.Random(seed))
        image = render_sudoku(givens, seed=seed, cell_px=90)
        image, _ = photograph(image, rng=np.random.default_rng(seed), fill=(0.6, 0.8),
                              rotation=4, perspective=0.04, out_size=(4000, 3000))
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=90)
        yield f"12 MP photo {seed}", buffer.getvalue()


def groups(n: int) -> dict:
    return {"screenshots": lambda: screenshots(n),
            "dev photos": lambda: folder_photos(SHARED / "sudoku_photos_dev", max(n, 30)),
            "half-solved photos": lambda: folder_photos(
                SHARED / "half_solved_photos" / "val" / "images", n),
            "half-solved screenshots": lambda: half_solved_screenshots(n),
            "killer screenshots": lambda: killers(n),
            "killers in progress": lambda: killers(n, "progress"),
            "nonogram screenshots": lambda: nonograms(n),
            "12 MP photos": lambda: twelve_megapixel_photos(max(3, n // 4))}


def run_group(mine: Worker, other: Worker, pictures) -> dict:
    row = dict(mine=[], other=[], mine_wall=[], other_wall=[], differ=[], errors=[0, 0])
    with tempfile.TemporaryDirectory() as folder:
        for i, (name, data) in enumerate(pictures):
            path = Path(folder) / "picture"
            path.write_bytes(data)
            order = [(mine, "mine"), (other, "other")]
            answers = {label: worker.ask(path, False)
                       for worker, label in (order if i % 2 == 0 else order[::-1])}
            a, b = answers["mine"], answers["other"]
            for label, answer in answers.items():
                row[label].append(answer["cpu"])
                row[f"{label}_wall"].append(answer["seconds"])
            row["errors"][0] += "error" in a
            row["errors"][1] += "error" in b
            # What only this version reads (e.g. cell kinds) is no difference.
            changed = [key for key in SAME if (key in b or key == "error")
                       and a.get(key) != b.get(key)]
            if changed:
                row["differ"].append(f"{name}: {', '.join(changed)}"
                                     + (f" (this: {a['error']})" if "error" in a else "")
                                     + (f" (other: {b['error']})" if "error" in b else ""))
    return row


def table_row(name: str, row: dict) -> str:
    mine, other = row["mine"], row["other"]
    return (f"| {name} | {len(mine)} "
            f"| {1000 * pct(other, 50):.0f} / {1000 * pct(other, 95):.0f} "
            f"| {1000 * pct(mine, 50):.0f} / {1000 * pct(mine, 95):.0f} "
            f"| {pct(mine, 50) / pct(other, 50):.2f} / {pct(mine, 95) / pct(other, 95):.2f} "
            f"| {1000 * pct(row['mine_wall'], 95):.0f} "
            f"| {row['errors'][1]} / {row['errors'][0]} | {len(row['differ'])} |")


def warm_up(worker: Worker) -> None:
    """Models loaded (and first calls made) before anything is timed."""
    from load import pictures

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "picture"
        path.write_bytes(pictures(1)[0][0])
        worker.ask(path, False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="a7c8658", help="the older commit")
    parser.add_argument("--n", type=int, default=20, help="pictures per group")
    parser.add_argument("--only", nargs="*", default=[], help="groups to run")
    args = parser.parse_args()
    chosen = {name: make for name, make in groups(args.n).items()
              if not args.only or name in args.only}
    lines = [f"CPU ms per recognize() call; other = {args.against}, this = the working tree",
             "", "| pictures | n | other median / p95 | this median / p95 "
             "| this / other: median / p95 | this p95 wall ms | errors other / this "
             "| readings differ |", "|---|---:|---:|---:|---:|---:|---:|---:|"]
    differ = []
    with workers_against(args.against) as (mine, other):
        warm_up(mine)
        warm_up(other)
        for name, make in chosen.items():
            row = run_group(mine, other, make())
            lines.append(table_row(name, row))
            differ += row["differ"]
            print(lines[-1], flush=True)
    print("\n".join(lines))
    if differ:
        print("\nReadings that differ:\n" + "\n".join(f"- {d}" for d in differ))


if __name__ == "__main__":
    main()
