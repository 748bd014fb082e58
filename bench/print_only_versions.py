"""Print-only pictures read by two versions of the reader: this checkout's synthetic sets
written to disk once, then read and solved by any checkout (an old one's photo effects
may not exist, so it cannot draw the pictures itself).

    .venv/bin/python bench/print_only_versions.py dump --seed 5100000 --count 25 DIR
    OLD/.venv/bin/python bench/print_only_versions.py score DIR old.jsonl   # run from OLD
    .venv/bin/python bench/print_only_versions.py score DIR new.jsonl
    .venv/bin/python bench/print_only_versions.py score ../shared/data/sudoku_photos_dev dev.jsonl
    .venv/bin/python bench/print_only_versions.py compare old.jsonl new.jsonl

`dump` numbers seeds as bench/recognition.py --seed does (set i adds 1000 x i). `score`
needs only services.recognizer.recognize and services.solver.solve_reading, so it runs
in old checkouts too (copy this file there). `compare`, per set: pictures read, cells
right (an unread picture counts 0), exact, givens right after repair, answered `solved`,
answered `solved` wrongly (the answer breaks a printed digit), answered `solved` right
with a printed digit read blank; then the same on the pictures both read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def dump(seed: int, count: int, out: Path, unique: bool = False) -> None:
    import numpy as np

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from recognition import FAILURE_CLASSES, synthetic_set

    for i, name in enumerate(["screenshot", "flat photo", "curved photo", *FAILURE_CLASSES]):
        folder = out / name.removeprefix("photo: ").replace(" ", "_")
        folder.mkdir(parents=True, exist_ok=True)
        for item, data, givens in synthetic_set(name, count, seed + 1000 * i, unique):
            stem = item.rsplit("-", 1)[1]
            (folder / f"{stem}.img").write_bytes(data)
            np.save(folder / f"{stem}.npy", givens)


def pictures(root: Path):
    """(set, name, bytes, givens): a labelled photo folder (imageN.jpg + .dat) or a dump."""
    import numpy as np

    if any(root.glob("*.dat")):
        for image in sorted(root.glob("*.jpg")):
            rows = image.with_suffix(".dat").read_text().splitlines()[2:11]
            yield root.name, image.stem, image.read_bytes(), \
                np.array([[int(v) for v in row.split()] for row in rows])
        return
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        for image in sorted(folder.glob("*.img")):
            yield folder.name, image.stem, image.read_bytes(), np.load(image.with_suffix(".npy"))


def score(root: Path, out: Path) -> None:
    import numpy as np

    from services.recognizer import RecognitionError, recognize
    from services.solver import solve_reading

    with open(out, "w") as f:
        for name_of_set, name, data, givens in pictures(root):
            row = {"set": name_of_set, "name": name, "read": False}
            try:
                reading = recognize(data, "auto")
            except RecognitionError:
                reading = None
            if reading is not None and reading.kind == "sudoku" and reading.size == 9:
                cells = np.asarray(reading.cells).reshape(81, 10)
                entries = getattr(reading, "entries", None)  # absent in readers without cell kinds
                if entries is not None:  # the person's digit where likelier (recognition.py)
                    entry = np.asarray(entries).reshape(81, 10)
                    cells = np.where(((1 - entry[:, 0]) > (1 - cells[:, 0]))[:, None], entry,
                                     cells)
                result = solve_reading(reading, time_limit=10.0)
                got = result.puzzle.givens if result.puzzle is not None else None
                right = got is not None and np.array_equal(np.asarray(got), givens)
                # Solved with the givens not all read, the answer may still be right
                # (recognition.answer_keeps_givens; not imported: old checkouts lack it).
                kept = result.solution is not None and bool(np.all(
                    (givens == 0) | (np.asarray(result.solution) == givens)))
                row.update(read=True, wrong=int((cells.argmax(1) != givens.ravel()).sum()),
                           solved=bool(right), answered=result.status == "solved",
                           wrong_solved=bool(result.status == "solved" and not kept),
                           given_missed=bool(result.status == "solved" and kept and not right))
            f.write(json.dumps(row) + "\n")


def compare(old: Path, new: Path) -> None:
    versions = []
    for path in (old, new):
        rows = defaultdict(dict)
        for line in open(path):
            row = json.loads(line)
            rows[row["set"]][row["name"]] = row
        versions.append(rows)

    def summary(rows: list[dict]) -> str:
        n = len(rows)
        read = [r for r in rows if r["read"]]
        right = sum(81 - r["wrong"] for r in read)
        return (f"{len(read)} / {100 * right / (81 * n):.2f} % / "
                f"{sum(r['wrong'] == 0 for r in read)} / {sum(r['solved'] for r in read)} / "
                f"{sum(r.get('answered', False) for r in read)} / "
                f"{sum(r['wrong_solved'] for r in read)} / "
                f"{sum(r.get('given_missed', False) for r in read)}")

    print("set | pictures | old: read / cells / exact / right after repair / answered solved / "
          "solved wrongly / solved, a printed digit read blank | new | pictures both read | "
          "old | new")
    for name in sorted(versions[0]):
        a, b = versions[0][name], versions[1][name]
        both = [k for k in a if a[k]["read"] and b[k]["read"]]
        print(f"{name} | {len(a)} | {summary(list(a.values()))} | {summary(list(b.values()))} | "
              f"{len(both)} | " + (f"{summary([a[k] for k in both])} | "
                                   f"{summary([b[k] for k in both])}" if both else "- | -"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    d = commands.add_parser("dump")
    d.add_argument("--seed", type=int, required=True)
    d.add_argument("--count", type=int, default=25)
    d.add_argument("--unique", action="store_true",
                   help="puzzles with one answer, as printed ones have (recognition.py)")
    d.add_argument("out", type=Path)
    s = commands.add_parser("score")
    s.add_argument("root", type=Path)
    s.add_argument("out", type=Path)
    c = commands.add_parser("compare")
    c.add_argument("old", type=Path)
    c.add_argument("new", type=Path)
    args = parser.parse_args()
    if args.command == "dump":
        dump(args.seed, args.count, args.out, args.unique)
    elif args.command == "score":
        sys.path.insert(0, os.getcwd())  # the checkout it is run from
        score(args.root, args.out)
    else:
        compare(args.old, args.new)


if __name__ == "__main__":
    main()
