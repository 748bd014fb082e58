"""What a killer group got wrong, picture by picture: walls, sums, entries, notes, givens.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/killer_failures.py handwritten \\
        [--n 20] [--seed 0]

For each picture of the group (the same cases as bench/recognition_killer.py, from
`--seed` on): the status after solve_page, every wall edge read the wrong way (its
probability, and what lies on each side: E an entry, N notes, S a cage sum, . nothing),
every sum misread (truth, top reading and its probability, the runner-ups), entries and
notes cells misread, givens read where none is printed, and the suspects offered. The
last lines count the wrong walls by what lies beside them, for grouping failures into
classes.

With `--held-out CACHE` a style group is read with the model trained without it (as
`recognition_killer.py --held-out --model-cache CACHE --train-grids G` builds and keeps
it; built here if missing) on the held-out run's pictures (offset 500 within the group's
seeds, plus `--seed`); `--seed0` moves every picture as that script's option does.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402
import recognition_killer  # noqa: E402
from recognition_killer import (  # noqa: E402
    GROUPS,
    TIME_LIMIT,
    family_folds,
    held_out_model,
    killer_case,
    style_cases,
    use_model,
)

from gridsight.synth.fonts import digit_fonts, font_family  # noqa: E402
from gridsight.synth.killer_styles import TRAINED_STYLES
from services.recognizer import RecognitionError, recognize  # noqa: E402
from services.solver import solve_page  # noqa: E402
from services.solver.entries import page_marks  # noqa: E402


def marks_at(info: dict) -> dict:
    """{cell: 'E' entry, 'N' notes, 'S' a cage sum} of the truth (entries win)."""
    out = {cell: "S" for cell in info["sums"]}
    for cell in info.get("notes", []):
        out[tuple(cell)] = "N" + ("S" if tuple(cell) in info["sums"] else "")
    for r, row in enumerate(info.get("entries") or []):
        for c, v in enumerate(row):
            if v:
                out[(r, c)] = "E" + ("S" if (r, c) in info["sums"] else "")
    return out


def dump(seed: int, style: str, classes: Counter,
         exclude: frozenset[str] = frozenset()) -> bool:
    """Print one picture's errors; True when it was solved exactly. `exclude`: font
    families the sums are not drawn in (a font fold's pictures use only its own)."""
    data, _, solution, info = killer_case(seed, style, exclude)
    try:
        reading = recognize(data, "auto")
    except RecognitionError as e:
        print(f"{seed}: failed to read ({e})")
        return False
    kind_right = reading.kind == "killer"
    if not kind_right:
        # What the killer reader saw, had it been asked for a killer.
        print(f"{seed}: read as {reading.kind}; as kind=killer:")
        try:
            reading = recognize(data, "killer")
        except RecognitionError as e:
            print(f"  failed to read as a killer ({e})")
            return False
    result = solve_page(reading, time_limit=TIME_LIMIT)
    good = result.solution == solution and kind_right
    marks = marks_at(info)
    lines = []
    for name, read, truth, step in (("right", reading.walls_right, info["walls_right"], (0, 1)),
                                    ("down", reading.walls_down, info["walls_down"], (1, 0))):
        read, truth = np.asarray(read), np.asarray(truth)
        for r, c in np.argwhere((read >= 0.5) != truth).tolist():
            a, b = (r, c), (r + step[0], c + step[1])
            beside = "".join(sorted(marks.get(a, ".")[0] + marks.get(b, ".")[0]))
            kind = "false" if truth[r, c] == 0 else "missed"
            classes[f"{kind} wall beside {beside}"] += 1
            lines.append(f"  wall {name} {a}|{b}: truth {truth[r, c]} read {read[r, c]:.2f}"
                         f" ({marks.get(a, '.')}|{marks.get(b, '.')})")
    read_sums = {tuple(s.cell): s for s in reading.cage_sums}
    for cell, value in sorted(info["sums"].items()):
        s = read_sums.get(cell)
        if s is None:
            classes["sum not found"] += 1
            lines.append(f"  sum {cell}: {value} not found ({marks.get(cell, '.')})")
        elif s.candidates[0].value != value:
            classes[f"sum misread ({marks.get(cell, '.')})"] += 1
            alts = ", ".join(f"{c.value}:{c.prob:.2f}" for c in s.candidates[:4])
            lines.append(f"  sum {cell}: {value} read {alts} ({marks.get(cell, '.')})")
    for cell in sorted(set(read_sums) - set(info["sums"])):
        classes["extra sum"] += 1
        s = read_sums[cell]
        lines.append(f"  extra sum {cell}: {s.candidates[0].value}:{s.candidates[0].prob:.2f}"
                     f" ({marks.get(cell, '.')})")
    if reading.cell_kinds is not None:
        entries, notes = page_marks(reading)
        want = info.get("entries") or [[0] * 9 for _ in range(9)]
        for r in range(9):
            for c in range(9):
                if entries[r][c] != want[r][c]:
                    classes["entry misread"] += 1
                    lines.append(f"  entry {(r, c)}: {want[r][c]} read {entries[r][c]}"
                                 f" ({marks.get((r, c), '.')})")
        got, truth_notes = set(map(tuple, notes)), set(map(tuple, info.get("notes", [])))
        for cell in sorted(got ^ truth_notes):
            classes["notes misread"] += 1
            lines.append(f"  notes {cell}: {'missed' if cell in truth_notes else 'extra'}"
                         f" ({marks.get(cell, '.')})")
    givens = np.asarray(reading.cells).argmax(axis=-1)
    for r, c in np.argwhere(givens).tolist():
        classes["given read"] += 1
        lines.append(f"  given {(r, c)}: {givens[r, c]} ({marks.get((r, c), '.')})")
    suspects = ", ".join(f"{s.what}{(s.row, s.col)}:{s.read}" for s in result.suspects[:6])
    verdict = "OK" if good else ("WRONG SOLVED" if result.status == "solved" and kind_right
                                 else "fail")
    print(f"{seed}: {verdict} {result.status} {info.get('sum_font', '')!s:.40}"
          f" suspects [{suspects}]")
    print("\n".join(lines))
    return good


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("group", choices=[*GROUPS, "fold"],
                        help="a style group, or 'fold' for a font fold's pictures (--fold)")
    parser.add_argument("--fold", type=int, default=1,
                        help="with 'fold': which font fold (1-based, of 4), read with the "
                             "model trained without it when --held-out is given")
    parser.add_argument("--n", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0, help="offset of the first case")
    parser.add_argument("--seed0", type=int,
                        help="first seed of the benchmark's range (its --seed0)")
    parser.add_argument("--held-out", type=Path, metavar="CACHE",
                        help="read a trained style with the model trained without it, "
                             "kept in this folder, on the held-out run's pictures")
    parser.add_argument("--train-grids", type=int, default=80,
                        help="with --held-out: the held-out model's training grids")
    args = parser.parse_args()
    if args.seed0 is not None:
        recognition_killer.SEED0 = args.seed0
    offset = args.seed
    if args.group == "fold":
        fold = family_folds(4)[args.fold - 1]
        everything = frozenset(font_family(n) for n, _ in digit_fonts())
        if args.held_out:
            use_model(held_out_model(args.train_grids, dict(exclude_families=fold),
                                     args.held_out))
        classes: Counter = Counter()
        cases = style_cases("mixed", args.n, 200 * (args.fold - 1) + offset)
        solved = sum(dump(seed, style, classes, everything - fold) for seed, style, _ in cases)
        report(solved, args.n, classes)
        return
    if args.held_out:
        if args.group not in TRAINED_STYLES:
            parser.error(f"--held-out: {args.group} is no trained style")
        narrowing = dict(styles=sorted(set(TRAINED_STYLES) - {args.group}))
        use_model(held_out_model(args.train_grids, narrowing, args.held_out))
        offset += 500  # where recognition_killer.py --held-out reads the style's pictures
    classes: Counter = Counter()
    solved = sum(dump(seed, style, classes)
                 for seed, style, _ in style_cases(args.group, args.n, offset))
    report(solved, args.n, classes)


def report(solved: int, n: int, classes: Counter) -> None:
    print(f"\nsolved {solved} of {n}")
    for name, count in classes.most_common():
        print(f"{count:5d}  {name}")


if __name__ == "__main__":
    main()
