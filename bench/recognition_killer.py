"""Killer sudoku recognition benchmark: synthetic pictures per style, held-out styles and faces.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/recognition_killer.py [--quick] [--n 40] \\
        [--only web page progress handwritten] [--seed 300]
    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/recognition_killer.py --held-out \\
        [--n 20] [--train-grids 120] [--family-folds 4] [--seed0 900000]
    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/recognition_killer.py --side 6 [--quick]

Every picture goes through `recognize(kind="auto")` and `solve_page` as a job does.
Per group of pictures: share solved exactly (the solver's solution is the true one), read
exactly (kind, every wall, every sum, every blank), sums read right (share of all sums),
walls right (pictures with every wall right), kind right, wrong answers given as
`solved`, and read + solve seconds (median, p95).

The default run reads every renderer style with the shipped models, plus the permanent
unseen styles, a small grid inside a page screenshot, photographed print and classic
screenshots (kind right; and the time baseline), classic pages a person wrote on (kind
right), killers in progress (the person's digits and notes; checked by solve_page) and
printed killers a person wrote on by hand, photographed ("handwritten").
`--held-out` retrains the models once per held-out group on a smaller training set,
leaving out one trained style (leave one style out) or one fold of font families (leave
one family out) and reads only that group with it; the worst group is the figure that
counts. `--side 6` draws every group as 6x6 killers (2x3 boxes; the models are trained on
9x9 killers only) from seeds of their own, and its classic rows as 6x6 classic grids in
both box shapes. `--seed0` moves every picture to other seeds: the default seeds (700000
on for 9x9) are the ones the reader was tuned on, so a figure meant to be untouched needs
fresh ones; `--seed` offsets each group's first picture within its seeds.
Writes bench/out/recognition_killer*.md.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import joblib  # noqa: E402
import numpy as np  # noqa: E402

from gridsight.synth.fonts import SERIF_FAMILIES, digit_fonts, font_family  # noqa: E402
from gridsight.synth.half_solved import half_solved_page  # noqa: E402
from gridsight.synth.killer_render import (  # noqa: E402
    in_progress,
    is_bold,
    on_page,
    pick_sum_font,
    render_killer,
)
from gridsight.synth.killer_styles import (  # noqa: E402
    ALL_STYLES,
    TRAINED_STYLES,
    UNSEEN_STYLES,
    hairline_huge,
    vary,
)
from gridsight.synth.photo import photograph  # noqa: E402
from gridsight.synth.puzzles import make_killer, make_sudoku  # noqa: E402
from gridsight.synth.render import render_sudoku  # noqa: E402
from gridsight.training.sums import cell_size, photo_options, train  # noqa: E402
from services.recognizer import RecognitionError, recognize  # noqa: E402
from services.recognizer.killer import sums as sum_reader  # noqa: E402
from services.solver import repair, solve_page  # noqa: E402
from services.solver.entries import page_marks  # noqa: E402
from services.solver.grid import default_box  # noqa: E402

OUT = ROOT / "bench" / "out"
SEED0 = 700_000  # far from the training seeds
SIDE = 9  # the grids' side: --side sets it (and, for 6, SEED0 to SIDE_SEED0[6])
SIDE_SEED0 = {9: SEED0, 6: 1_600_000}  # 6x6: far from the other benches' seeds
TIME_LIMIT = 10.0  # the solve worker's default limit
NAMES = {"print": "print (screenshot)", "photo": "print, photographed",
         "dark": "app, dark mode", "fills": "colour fills, no outlines",
         "page": "small grid in a page screenshot", "plain": "plain (unseen)",
         "thin_colour": "thin solid coloured cages (unseen)",
         "progress": "in progress (entries, notes)",
         "handwritten": "print written on by hand, photographed (entries, notes)",
         "huge_hairline": "huge cages, 1-px dots by the lines, 912-px (unseen)"}
# Killers printed in papers and books, which people write on by hand.
PRINTED_STYLES = ("print", "bold_serif", "web")


def encode(image, fmt: str) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, fmt, **({"quality": 90} if fmt == "JPEG" else {}))
    return buffer.getvalue()


def killer_case(seed: int, style: str, exclude_families: frozenset[str] = frozenset()):
    """(picture bytes, puzzle, solution, image info) for one synthetic killer.

    `style` is a renderer style, "photo" (print, photographed), "page" (a grid of a random
    trained style inside a page screenshot), "mixed" (a random trained style) or
    "progress" (a random style, any light one, with the person's digits and notes in it,
    one of them wrong) or "handwritten" (a printed style a person wrote digits and
    pencil notes on by hand, one digit wrong, photographed).
    """
    rng = random.Random(seed)
    puzzle, solution = make_killer(rng, size=SIDE)
    if style in HUGE_CAGED:
        puzzle, solution = make_killer(rng, size=SIDE, givens=True, huge=True)
    if style == "handwritten":
        return handwritten_case(seed, rng, puzzle, solution, exclude_families)
    base = {"photo": "print", "page": None, "mixed": None, "progress": None,
            "bold_large": "bold_serif"}.get(style, style)
    if base is None:
        pool = ALL_STYLES if style == "progress" else TRAINED_STYLES
        base = rng.choice(sorted(set(pool) - ({"dark"} if style == "progress" else set())))
    if style == "huge_hairline":  # 912-px screenshots: the cell size decides the look
        return huge_hairline_case(seed, rng, puzzle, solution, exclude_families)
    look = vary(ALL_STYLES[base], rng)
    if style == "bold_large":  # sums set large, a puzzle in progress
        look = replace(look, sum_height=rng.uniform(0.25, 0.35), sum_box=True)
    font = pick_sum_font(look, rng, exclude_families)
    marks = in_progress(solution, rng, rng.uniform(0.15, 0.5), rng.uniform(0.05, 0.2),
                        wrong=1 if style == "progress" else 0) \
        if style in ("progress", "bold_large") else None
    image = render_killer(puzzle, style=look, seed=seed, cell_px=cell_size(rng),
                          margin=rng.randint(6, 40), sum_font=font, marks=marks)
    info = dict(image.info)
    if style == "photo":
        image, truth = photograph(image, rng=np.random.default_rng(seed), **photo_options(rng))
        info["lattice"] = truth.lattice
        return encode(image, "JPEG"), puzzle, solution, info
    if style == "page":
        image = on_page(image, rng)
        return encode(image, "PNG"), puzzle, solution, dict(image.info)
    return encode(image, "PNG"), puzzle, solution, info


def huge_hairline_case(seed: int, rng: random.Random, puzzle, solution,
                       exclude_families: frozenset[str] = frozenset()):
    """A huge-cage killer outlined by 1-px dots beside the grid lines, drawn at cells of
    about 100 px (hairline_huge): killer_case's parts."""
    cell_px = rng.randint(92, 104)
    look = hairline_huge(rng, cell_px)
    image = render_killer(puzzle, style=look, seed=seed, cell_px=cell_px,
                          margin=rng.randint(6, 24),
                          sum_font=pick_sum_font(look, rng, exclude_families))
    return encode(image, "PNG"), puzzle, solution, dict(image.info)


def handwritten_case(seed: int, rng: random.Random, puzzle, solution,
                     exclude_families: frozenset[str] = frozenset()):
    """A printed killer a person has written on by hand (entries in pen or pencil, small
    pencil notes, one entry wrong), photographed: killer_case's parts."""
    # Paper has no highlighted row nor selected cell.
    look = replace(vary(ALL_STYLES[rng.choice(PRINTED_STYLES)], rng), band=None, selected=None)
    font = pick_sum_font(look, rng, exclude_families)
    marks = in_progress(solution, rng, rng.uniform(0.15, 0.5), rng.uniform(0.05, 0.2),
                        wrong=1)
    image = render_killer(puzzle, style=look, seed=seed, cell_px=rng.randint(48, 80),
                          margin=rng.randint(10, 40), sum_font=font, marks=marks,
                          by_hand=True)
    info = dict(image.info)
    image, truth = photograph(image, rng=np.random.default_rng(seed), **photo_options(rng))
    info["lattice"] = truth.lattice
    return encode(image, "JPEG"), puzzle, solution, info


def score_reading(reading, info) -> dict:
    """Kind, walls, sums and blanks of one reading against the truth."""
    n = len(info["walls_right"])
    if reading.kind != "killer" or reading.walls_right is None or reading.size != n or \
            n != 9 and tuple(reading.box or ()) != default_box(n):
        # Kind, size and (sides other than 9) box shape: what the solver is told.
        return dict(kind=False, walls=False, sums_right=0, exact=False)
    walls = bool(((np.asarray(reading.walls_right) >= 0.5)
                  == np.asarray(info["walls_right"])).all()
                 and ((np.asarray(reading.walls_down) >= 0.5)
                      == np.asarray(info["walls_down"])).all())
    read = {tuple(s.cell): s.candidates[0].value for s in reading.cage_sums}
    sums_right = sum(read.get(cell) == value for cell, value in info["sums"].items())
    blank = bool((np.asarray(reading.cells).argmax(axis=-1) == 0).all())
    marks = marks_right(reading, info)
    exact = walls and read == info["sums"] and blank and marks
    return dict(kind=True, walls=walls, sums_right=sums_right, exact=exact, marks=marks)


def marks_right(reading, info) -> bool:
    """Every entry and every notes cell of a puzzle in progress read as such, nothing
    else read as either (True on a picture without marks that reads none)."""
    if reading.cell_kinds is None:
        return "entries" not in info
    entries, notes = page_marks(reading)
    want_entries = info.get("entries") or [[0] * SIDE for _ in range(SIDE)]
    want_notes = sorted(map(tuple, info.get("notes", [])))
    return entries == want_entries and sorted(map(tuple, notes)) == want_notes


def run_group(name: str, cases) -> dict:
    """Read and solve each (seed, style, excluded families) case; the group's figures."""
    row = dict(name=name, n=0, solved=0, exact=0, kind=0, walls=0, sums=0, sums_right=0,
               wrong_solved=0, times=[], failures=[])
    for seed, style, exclude in cases:
        data, _, solution, info = killer_case(seed, style, exclude)
        row["n"] += 1
        row["sums"] += len(info["sums"])
        started = time.perf_counter()
        try:
            reading = recognize(data, "auto")
        except RecognitionError as e:
            row["times"].append(time.perf_counter() - started)
            row["failures"].append(f"{style} {seed}: failed to read ({e})")
            continue
        score = score_reading(reading, info)
        for key in ("kind", "walls", "exact"):
            row[key] += score[key]
        row["sums_right"] += score["sums_right"]
        if not score["kind"]:
            row["times"].append(time.perf_counter() - started)
            row["failures"].append(f"{style} {seed}: read as {reading.kind} "
                                   f"{reading.size}x{reading.size}")
            continue
        result = solve_page(reading, time_limit=TIME_LIMIT)
        if "entries" in info:
            row["marks"] = row.get("marks", 0) + score["marks"]
            if not score["marks"]:
                row["failures"].append(f"{style} {seed}: entries or notes misread")
        row["times"].append(time.perf_counter() - started)
        good = result.solution == solution
        row["solved"] += good
        if result.status == "solved" and not good:
            row["wrong_solved"] += 1
            row["failures"].append(f"{style} {seed}: WRONG answer given as solved")
        elif not good:
            row["failures"].append(f"{style} {seed}: not solved ({result.status}, "
                                   f"{len(info['sums']) - score['sums_right']} sums misread, "
                                   f"walls {'right' if score['walls'] else 'wrong'})")
    return row


def classic_group(count: int, written: bool = False) -> dict:
    """Classic screenshots read with kind=auto: kind right, and the time baseline; or
    (`written`) classic pages a person wrote on, whose many large digits must not make
    them killers nor the person's digits hide that they are classic."""
    name = "classic page written on (kind)" if written else \
        "classic sudoku screenshot (kind, time baseline)"
    row = dict(name=name, n=count, kind=0, times=[])
    for i in range(count):
        rng = random.Random(SEED0 + 90_000 + 500 * written + i)
        if SIDE != 9:  # both box shapes of the side, in turn
            box = CLASSIC_BOXES[SIDE][i % len(CLASSIC_BOXES[SIDE])]
            givens, _ = make_sudoku(rng, SIDE, box)
            data = encode(render_sudoku(givens, seed=i, box=box,
                                        cell_px=rng.randint(36, 72)), "PNG")
        elif written:
            page = half_solved_page(SEED0 + i, app=rng.random() < 0.5,
                                    cell_px=rng.randint(40, 72))
            data = encode(page.image, "PNG")
        else:
            givens, _ = make_sudoku(rng)
            data = encode(render_sudoku(givens, seed=i, cell_px=rng.randint(36, 72)), "PNG")
        started = time.perf_counter()
        reading = recognize(data, "auto")
        row["times"].append(time.perf_counter() - started)
        row["kind"] += reading.kind == "sudoku" and reading.size == SIDE
    return row


CLASSIC_BOXES = {6: [(2, 3), (3, 2)]}


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


HEADER = ["| group | pictures | solved exactly | read exactly | sums read right | walls right "
          "| kind right | wrong as solved | read+solve s median / p95 |",
          "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]


def table_row(row: dict) -> str:
    n = max(1, row["n"])
    return (f"| {row['name']} | {row['n']} | {row['solved'] / n:.1%} | {row['exact'] / n:.1%} "
            f"| {row['sums_right'] / max(1, row['sums']):.2%} | {row['walls'] / n:.1%} "
            f"| {row['kind'] / n:.1%} | {row['wrong_solved']} "
            f"| {pct(row['times'], 50):.3f} / {pct(row['times'], 95):.3f} |")


# Styles of puzzles with few huge cages; numbered after the other groups, so that every
# other group keeps its seeds.
HUGE_CAGED = ("huge_dotted", "huge_hairline")


def style_cases(style: str, count: int, offset: int = 0) -> list:
    index = ([s for s in ALL_STYLES if s not in HUGE_CAGED]
             + ["photo", "page", "mixed", "progress", "handwritten", *HUGE_CAGED]).index(style)
    return [(SEED0 + 1000 * index + offset + i, style, frozenset()) for i in range(count)]


def family_folds(k: int) -> list[frozenset[str]]:
    families = sorted({font_family(n) for n, _ in digit_fonts()})
    return [frozenset(families[i::k]) for i in range(k)]


def bold_serif_families() -> frozenset[str]:
    """Families with a bold serif face (Liberation Serif, FreeSerif Bold, TeX Gyre, DejaVu
    Serif, Nimbus Roman ...)."""
    return frozenset(font_family(n) for n, _ in digit_fonts()
                     if font_family(n) in SERIF_FAMILIES and is_bold(n))


def use_model(model) -> None:
    """Make recognize() read with `model` (a held-out one) from now on."""
    path = Path(tempfile.gettempdir()) / f"gridsight-killer-heldout-{os.getpid()}.joblib"
    joblib.dump(model, path)
    os.environ["GRIDSIGHT_KILLER_MODEL"] = str(path)
    sum_reader.load_killer_model.cache_clear()


GROUPS = [*ALL_STYLES, "photo", "page", "progress", "handwritten", "huge_hairline"]


def shipped(count: int, only: list[str] | None = None, seed: int = 0
            ) -> tuple[list[str], list[str]]:
    """`seed`: offset of each group's first case (tune on one range, report on another)."""
    lines, notes = list(HEADER), []
    for style in only or GROUPS:
        row = run_group(NAMES.get(style, style), style_cases(style, count, seed))
        lines.append(table_row(row))
        if "marks" in row:
            notes.append(f"- {row['name']}: every entry and notes cell read right on "
                         f"{row['marks']} of {row['n']} pictures")
        notes += [f"- {f}" for f in row["failures"]]
        print(lines[-1], flush=True)
    for written in ((False, True) if SIDE == 9 else (False,)) if not only else ():
        classic = classic_group(count, written)
        lines.append(f"| {classic['name']} | {count} | - | - | - | - "
                     f"| {classic['kind'] / count:.1%} | - "
                     f"| {pct(classic['times'], 50):.3f} / {pct(classic['times'], 95):.3f} |")
        print(lines[-1], flush=True)
    return lines, notes


def held_out_model(grids: int, narrowing: dict, cache_dir: Path | None):
    """The model trained without the held-out group (seed 1, so the same every run);
    kept in `cache_dir` when given, so that two versions of the reader can be compared
    on the same held-out models without training them twice. Clear the folder when the
    training code changes."""
    key = "_".join([f"g{grids}", *(f"{k}-{'+'.join(sorted(v))}"[:60] + f"-{len(v)}"
                                   for k, v in sorted(narrowing.items()))])
    path = cache_dir / f"{key}.joblib" if cache_dir else None
    if path and path.exists():
        return joblib.load(path)
    model = train(grids, max(20, grids // 5), seed=1, log=lambda *_: None, **narrowing)
    if path:
        cache_dir.mkdir(parents=True, exist_ok=True)
        joblib.dump(model, path)
    return model


def held_out(count: int, grids: int, folds: int, which: str = "all",
             cache_dir: Path | None = None, digits_too: bool = False,
             only: list[str] | None = None, fold_numbers: list[int] | None = None
             ) -> tuple[list[str], list[str]]:
    """`only` / `fold_numbers` (1-based): run just these styles / font folds of `which`,
    so that each group can run on its own (in the background, one at a time)."""
    rows, notes, before = [], [], []
    groups = [(f"style '{s}' held out", dict(styles=sorted(set(TRAINED_STYLES) - {s})),
               style_cases(s, count, offset=500)) for s in TRAINED_STYLES
              if which in ("all", "styles") and (not only or s in only)]
    everything = frozenset(font_family(n) for n, _ in digit_fonts())
    if which in ("all", "bold_serif"):
        # Every bold serif face's family left out together; read bold serif sums in them.
        fold = bold_serif_families()
        for style in ("bold_serif", "bold_large"):
            cases = [(seed, style, everything - fold)
                     for seed, _, _ in style_cases("bold_serif", count, offset=900)]
            groups.append((f"bold serif families held out ({len(fold)} families), {style}",
                           dict(exclude_families=fold), cases))
    for k, fold in enumerate(family_folds(folds) if which in ("all", "fonts") else []):
        if fold_numbers and k + 1 not in fold_numbers:
            continue
        # Trained without the fold's families; read pictures whose sums use only them.
        cases = [(seed, style, everything - fold)
                 for seed, style, _ in style_cases("mixed", count, offset=200 * k)]
        groups.append((f"font fold {k + 1}/{folds} held out ({len(fold)} families)",
                       dict(exclude_families=fold), cases))
    for name, narrowing, cases in groups:
        started = time.perf_counter()
        model = held_out_model(grids, narrowing, cache_dir)
        # `digits_too`: the same model read as before the whole-number reader (its share
        # set to 0), on the same pictures in the same run.
        for label, weight in ([("digits only", 0.0)] if digits_too else []) + [("", None)]:
            variant = replace(model, number_weight=weight) if weight is not None else model
            use_model(variant)
            title = f"{name} ({label})" if label else name
            row = run_group(title, cases)
            (before if label else rows).append(row)
            notes += [f"- {title}: {f}" for f in row["failures"]]
            print(table_row(row), f"({time.perf_counter() - started:.0f} s)", flush=True)
    worst = min(rows, key=lambda r: (r["solved"] / max(1, r["n"]),
                                     r["sums_right"] / max(1, r["sums"])))
    lines = [*HEADER, *map(table_row, rows),
             table_row(worst | dict(name=f"**worst: {worst['name']}**"))]
    if before:
        lines += ["", "The same models with the whole-number reader off (digits only):", "",
                  *HEADER, *map(table_row, before)]
    return lines, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 pictures per group")
    parser.add_argument("--n", type=int, default=60, help="pictures per group")
    parser.add_argument("--held-out", action="store_true",
                        help="leave one style / one font fold out, retraining per group")
    parser.add_argument("--train-grids", type=int, default=120,
                        help="training grids per held-out group (the shipped model: 400)")
    parser.add_argument("--family-folds", type=int, default=4)
    parser.add_argument("--only", nargs="*", choices=GROUPS,
                        help="shipped models: read only these groups (no classic rows)")
    parser.add_argument("--groups", choices=("all", "styles", "fonts", "bold_serif"), default="all",
                        help="which held-out groups (run two at once on two cores)")
    parser.add_argument("--digits-too", action="store_true",
                        help="held out: also read each group with the whole-number reader "
                             "off (the reading before it), same models, same run")
    parser.add_argument("--folds", type=int, nargs="*",
                        help="held out: only these font folds (1-based); with --only, "
                             "the held-out styles to run")
    parser.add_argument("--settle", type=float,
                        help="the repair's settle budget in seconds for this run (default: "
                             "the code's; raise it on a loaded machine, where the budget "
                             "runs out before the repair settles)")
    parser.add_argument("--seed", type=int, default=0,
                        help="shipped models: offset of each group's first picture (0-499; "
                             "held-out styles use 500 on)")
    parser.add_argument("--model-cache", type=Path,
                        help="held-out models: load from / save to this folder")
    parser.add_argument("--side", type=int, choices=sorted(SIDE_SEED0), default=9,
                        help="the killers' side (6: 2x3 boxes, seeds of their own)")
    parser.add_argument("--seed0", type=int,
                        help="first seed (default: the side's); each group adds 1000")
    args = parser.parse_args()
    count = 10 if args.quick else args.n
    global SIDE, SEED0
    SIDE = args.side
    SEED0 = args.seed0 if args.seed0 is not None else SIDE_SEED0[SIDE]
    if args.settle is not None:
        repair.solve_reading.__defaults__ = (*repair.solve_reading.__defaults__[:-1],
                                             args.settle)
    started = time.perf_counter()
    if args.held_out:
        lines, notes = held_out(count, args.train_grids, args.family_folds, args.groups,
                                args.model_cache, args.digits_too, args.only, args.folds)
        title = f"Killer recognition, held-out groups ({args.groups}, " \
                f"{args.train_grids} training grids per group)"
        picked = "-".join([*(args.only or []), *map(str, args.folds or [])])
        out = f"recognition_killer_heldout_{args.groups}{'_' + picked if picked else ''}.md"
        if SEED0 != SIDE_SEED0[SIDE]:
            out = out.replace(".md", f"_seed{SEED0}.md")
    else:
        lines, notes = shipped(count, args.only, args.seed)
        title, out = "Killer recognition, shipped models", "recognition_killer.md"
    if SIDE != 9:
        title += f", {SIDE}x{SIDE} grids from seed {SEED0}"
        out = out.replace(".md", f"_{SIDE}x{SIDE}.md")
    text = (f"# {title}\n\n{time.strftime('%Y-%m-%d')}, {time.perf_counter() - started:.0f} s,"
            f" seeds from {SEED0},"
            f" unseen styles: {', '.join(UNSEEN_STYLES)}\n\n" + "\n".join(lines) + "\n")
    if notes:
        text += "\nNot solved exactly:\n\n" + "\n".join(notes) + "\n"
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
