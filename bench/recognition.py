"""Recognition benchmark: real labelled photos first, synthetic pictures beside them.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/recognition.py [--quick] [--photos DIR]

Real sets, each reported on its own, when ../shared/data is beside the repository:
- `--photos` (default sudoku_photos_dev): the sudoku_dataset layout, `imageN.jpg` with
  `imageN.dat` (two header lines, then 9 rows of 9 digits, 0 = blank). No model was
  fitted on this source.
- `--half-solved` (default half_solved_photos/val): newspaper pages filled in by hand;
  labels 0 blank, 1-9 a digit (printed or handwritten), 10 pencil notes. The models use
  `train/` only, never `val/`. Note cells are left out of "cells right" here (reading
  them is the half-solved issue's); digits are scored by value, printed or handwritten.
- the same real photos turned 90/180/270 degrees in their pixels, and upright pixels with
  lying EXIF orientation tags: the rotation reported must stand the puzzle upright.
Synthetic sets: screenshots, flat and curved photos, and one per failure class seen in
real photos (framed heading on the grid, creases, shadow stripes, dark, faded, heavy
noise, inverted, a deep shadow at a grid corner, also under light grey thin lines).
Prints and writes bench/out/recognition.md and a reliability plot.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from PIL import Image, ImageOps  # noqa: E402

from gridsight.synth.fonts import digit_fonts  # noqa: E402
from gridsight.synth.grids import random_solution  # noqa: E402
from gridsight.synth.photo import jpeg_with_orientation, photograph  # noqa: E402
from gridsight.synth.puzzles import made_unique  # noqa: E402
from gridsight.synth.render import LIGHT_LINED, STYLES, Style, render_sudoku  # noqa: E402
from gridsight.training.digits import expected_calibration_error  # noqa: E402
from services.contracts import Reading  # noqa: E402
from services.recognizer import RecognitionError, recognize  # noqa: E402
from services.recognizer.cells.digits import cell_probabilities  # noqa: E402
from services.recognizer.grid.decode import decode  # noqa: E402
from services.recognizer.grid.locate import locate  # noqa: E402

sys.path.insert(0, str(ROOT / "bench"))
from recognition_nonogram import nonogram_results, nonogram_table  # noqa: E402

NONOGRAM_NOTE = ("Nonograms: bench/recognition_nonogram.py's sets (10x10 to 30x30, one "
                 "solution each); seconds from upload bytes to answer, solving included")

try:
    from services.solver import solve_reading
except ImportError:  # the solver is optional here
    solve_reading = None

OUT = ROOT / "bench" / "out"
CREDIT = ("Real photos: the sudoku_dataset of Baptiste Wicht and Jean Hennebert "
          "(images under CC BY 4.0).")
HALF_SOLVED_CREDIT = ("Half-solved photos: AlexKubiesa/sudoku-scanner, datasets/end_to_end "
                      "(MIT licence); scored on val/, models fitted on train/ only. Solving is "
                      "not scored there: the labels do not say which digits are printed.")


def _jpeg(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "JPEG", quality=90)
    return buffer.getvalue()


def _png(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


FAILURE_CLASSES = {
    "photo: framed heading on the grid": {"header_frame": True},
    "photo: creases": {"creases": 2},
    "photo: shadow stripes": {"stripes": 3},
    "photo: deep shadow at a grid corner": {"corner_shadow": True},
    "photo: dark": {"exposure": "dark"},
    "photo: faded": {"exposure": "faded"},
    "photo: heavy noise": {"noise": 16.0},
    "photo: inverted": {"exposure": "inverted"},
    "photo: shadow beside the grid from a corner": {"spur_shadow": True},
    "photo: out of focus": {"defocus": 0.06},  # sigma 6 % of a cell, large cells too
    "photo: far out of focus": {"defocus": 0.10},  # about as soft as the softest dev photos
    # A lens's own blur: each point spread over a disk, not a Gaussian; at the same spread
    # it reads far worse (7 % of a cell: about the softest dev photos' edge sharpness).
    "photo: lens out of focus": {"defocus": 0.07, "lens_disk": True},
    # A page tilted to the lens: 4-12 % of a cell from one side of the grid to the other.
    "photo: tilted out of focus": {"defocus": 0.08, "defocus_tilt": 0.5},
    # Light grey thin lines (render.LIGHT_LINED) and a deep shadow at a grid corner: the
    # box lines with a page's or the shadow's edge were read as a 4x4 grid.
    "photo: light-lined, deep shadow at a grid corner": {"corner_shadow": True},
}
# Failure classes drawn in one style rather than a random one of STYLES.
CLASS_STYLES = {"photo: light-lined, deep shadow at a grid corner": LIGHT_LINED}


def synthetic_set(kind: str, count: int, seed0: int, unique: bool = False):
    """(name, bytes, givens) for rendered screenshots or synthetic photos. The givens are a
    random share of a solution, rarely one answer's worth; `unique` adds digits until the
    answer is unique, as on printed puzzles (the same random draws otherwise)."""
    fonts = [path for _, path in digit_fonts()]
    for i in range(count):
        seed = seed0 + i
        rng = random.Random(seed)
        solution = random_solution(9, None, rng)
        givens = [[v if rng.random() < rng.uniform(0.3, 0.45) else 0 for v in row]
                  for row in solution]
        if unique:
            givens = made_unique(givens, solution)
        font, drawn = rng.choice(fonts), rng.choice(sorted(STYLES))
        image = render_sudoku(givens, font=font, style=CLASS_STYLES.get(kind, drawn),
                              cell_px=rng.randint(28, 64), seed=seed, jitter=rng.uniform(0, 0.05))
        if kind == "screenshot":
            yield f"{kind}-{seed}", _png(image), np.asarray(givens)
            continue
        photo, _ = photograph(image, rng=np.random.default_rng(seed),
                              curvature=0.04 if kind == "curved photo" else 0.0,
                              fill=(0.6, 0.95), rotation=12,
                              out_size=rng.choice([(640, 480), (1024, 768), (1600, 1200)]),
                              **FAILURE_CLASSES.get(kind, {}))
        yield f"{kind}-{seed}", _jpeg(photo), np.asarray(givens)


def labelled_photos(folder: Path):
    for image in sorted(folder.glob("*.jpg"), key=lambda p: (len(p.stem), p.stem)):
        label = image.with_suffix(".dat")
        if not label.exists():
            continue
        rows = label.read_text().splitlines()[2:11]
        givens = np.array([[int(v) for v in row.split()] for row in rows])
        yield image.name, image.read_bytes(), givens


def read_classic(data: bytes) -> Reading:
    """The classic reader alone: grid, lattice and digit classifier, no kind detection."""
    gray, _, _ = decode(data)
    _, lattice = locate(gray)
    return Reading(kind="sudoku", cells=cell_probabilities(gray, lattice).tolist())


NOTES = 10  # half-solved label of a cell holding pencil candidates: not scored here


def half_solved_photos(folder: Path):
    for image in sorted((folder / "images").glob("*.jpg")):
        label = folder / "labels" / (image.stem + ".txt")
        if label.exists():
            rows = [line.split() for line in label.read_text().splitlines() if line.strip()]
            yield image.name, image.read_bytes(), np.array(rows, int)


def turned_and_tagged(items, every: int = 1):
    """Each `every`-th photo turned 90, 180 and 270 degrees clockwise in its pixels, and
    upright with a lying EXIF tag (6: shown turned 90, 3: 180, 8: 270): (name, bytes,
    labels, expected rotation)."""
    turns = {1: Image.Transpose.ROTATE_270, 2: Image.Transpose.ROTATE_180,
             3: Image.Transpose.ROTATE_90}
    for i, (name, data, labels) in enumerate(items):
        if i % every:
            continue
        upright = ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB")
        for k, transpose in turns.items():
            yield f"{name} turned {90 * k}", _jpeg(upright.transpose(transpose)), labels, \
                (360 - 90 * k) % 360
        for tag, shown_turn in ((6, 90), (3, 180), (8, 270)):
            yield f"{name} tag {tag}", jpeg_with_orientation(upright, tag), labels, \
                (360 - shown_turn) % 360


def digit_probabilities(reading: Reading) -> np.ndarray:
    """(81, 10) probabilities of each cell's digit, printed or the person's own: on a page
    read as written on, `cells` holds the printed givens and `entries` the person's."""
    given = np.asarray(reading.cells).reshape(81, 10)
    if reading.entries is None:
        return given
    entry = np.asarray(reading.entries).reshape(81, 10)
    # A cell is read as the person's digit where an entry is likelier than a printed one.
    use_entry = (1 - entry[:, 0]) > (1 - given[:, 0])
    return np.where(use_entry[:, None], entry, given)


def answer_keeps_givens(solution, givens: np.ndarray) -> bool:
    """Whether a 9x9 answer holds every printed digit of the labels (0 blank, 10 notes)."""
    printed = (givens >= 1) & (givens <= 9)
    return solution is not None and bool(np.all(np.asarray(solution)[printed] == givens[printed]))


def run(name: str, items, kind: str = "auto", solve: bool = True) -> dict:
    """Read every item: (name, bytes, labels) or (name, bytes, labels, expected rotation)."""
    probs, labels, seconds, exact, solved, failures, misreads = [], [], [], 0, 0, [], []
    solved_known = solve_reading is not None and solve
    total = kind_right = rotation_right = rotation_known = 0
    suspects_right = suspects_known = not_read = 0
    for item, data, givens, *rotation in items:
        total += 1
        started = time.perf_counter()
        try:
            reading = read_classic(data) if kind == "classic" else recognize(data, kind)
        except RecognitionError as error:
            seconds.append(time.perf_counter() - started)
            failures.append(f"{item}: {error}")
            not_read += 1
            continue
        seconds.append(time.perf_counter() - started)
        if reading.kind != "sudoku" or reading.size != 9:
            # A 9x9 sudoku read as another kind or side is a grid not found.
            failures.append(f"{item}: read as a {reading.size}x{reading.size} "
                            f"{reading.kind}")
            not_read += 1
            continue
        kind_right += 1
        if rotation:
            rotation_known += 1
            rotation_right += reading.rotation == rotation[0]
            if reading.rotation != rotation[0]:
                failures.append(f"{item}: rotation {reading.rotation}, not {rotation[0]}")
        scored = givens.ravel() != NOTES
        p = digit_probabilities(reading)
        probs.append(p[scored])
        labels.append(givens.ravel()[scored])
        wrong = (p.argmax(1) != givens.ravel()) & scored
        exact += not wrong.any()
        for k in np.flatnonzero(wrong):
            misreads.append(f"{item} r{k // 9}c{k % 9}: {givens.ravel()[k]} read as "
                            f"{p[k].argmax()} (p={p[k].max():.2f})")
        if solved_known:
            result = solve_reading(reading, time_limit=10.0)
            got = result.puzzle.givens if result.puzzle is not None else None
            right_puzzle = got is not None and np.array_equal(np.asarray(got), givens)
            solved += right_puzzle
            if got is not None:
                # The suspects must name exactly the readings the repair changed.
                read = np.asarray(reading.cells).argmax(-1)
                changed = set(zip(*np.nonzero(read != np.asarray(got)), strict=True))
                named = {(s.row, s.col) for s in result.suspects
                         if s.what == "cell" and s.read != s.chosen}
                suspects_known += 1
                suspects_right += changed == named
                if changed != named:
                    failures.append(f"{item}: suspects {sorted(named)} but changed "
                                    f"{sorted(changed)}")
            if result.status == "solved" and not right_puzzle:
                # A printed digit read blank may leave the same unique answer: right, though
                # the page shows that digit as found rather than given.
                failures.append(f"{item}: " + ("solved, a printed digit read blank"
                                               if answer_keeps_givens(result.solution, givens)
                                               else "WRONG ANSWER GIVEN AS SOLVED"))
    p = np.concatenate(probs) if probs else np.zeros((0, 10))
    y = np.concatenate(labels) if labels else np.zeros(0, int)
    right = p.argmax(1) == y if len(y) else np.zeros(0, bool)
    wrong_conf = p.max(1)[~right] if len(y) else np.zeros(0)
    read = len(seconds) - not_read
    return {
        "set": name if kind == "auto" else f"{name} (kind={kind})",
        "images": total, "found": read,
        "kind_right": kind_right / total if total else float("nan"),
        "rotation_right": rotation_right / rotation_known if rotation_known else None,
        "cell_acc": float(right.sum() / len(y)) if len(y) else float("nan"),
        "exact": exact / total if total else float("nan"),
        "solved": solved / total if solved_known and total else None,
        "suspects_right": suspects_right / suspects_known if suspects_known else None,
        "ece": expected_calibration_error(p, y) if len(y) else float("nan"),
        "worst_wrong": float(wrong_conf.max()) if len(wrong_conf) else 0.0,
        "median_s": float(np.median(seconds)), "p95_s": float(np.percentile(seconds, 95)),
        "probs": p, "labels": y, "failures": failures, "misreads": misreads,
    }


# Other sizes: side, box shape, and the conventions drawn (values above 9).
SIZE_SETS = [(4, (2, 2), ("digits",)), (6, (2, 3), ("digits",)), (6, (3, 2), ("digits",)),
             (8, (2, 4), ("digits",)), (12, (3, 4), ("digits", "hex", "letters")),
             (16, (4, 4), ("digits", "hex", "letters"))]


def sizes_set(size: int, box: tuple[int, int], conventions, photo: bool, count: int,
              seed0: int, style: Style | None = None):
    """(name, bytes, givens, box, convention) of grids of another side, in fonts held out
    of the digit model (Lato) and of the symbol model (its held-out families, in its
    held-out style for the grids above 9), or all in `style`."""
    from gridsight.synth.puzzles import make_sudoku
    from gridsight.training.digits import held_out_fonts
    from gridsight.training.symbols import HELD_OUT_STYLE, font_split

    fonts = held_out_fonts() if size <= 9 else font_split()[1]
    for i in range(count):
        seed = seed0 + i
        rng = random.Random(seed)
        convention = conventions[i % len(conventions)]
        givens, _ = make_sudoku(rng, size, box)
        drawn = rng.choice(sorted(STYLES)) if size <= 9 else HELD_OUT_STYLE
        image = render_sudoku(givens, font=rng.choice(fonts), style=style or drawn, box=box,
                              cell_px=rng.randint(28, 56) if size <= 9 else rng.randint(26, 40),
                              seed=seed, jitter=rng.uniform(0, 0.04), symbols=convention)
        name = f"{size}x{size} {'photo' if photo else 'screenshot'}-{seed}"
        if not photo:
            yield name, _png(image), np.asarray(givens), box, convention
            continue
        picture, _ = photograph(image, rng=np.random.default_rng(seed), fill=(0.7, 0.95),
                                rotation=8, out_size=(1024, 768) if size <= 9 else (1600, 1200))
        yield name, _jpeg(picture), np.asarray(givens), box, convention


def run_sizes(name: str, items) -> dict:
    """Read and solve grids of other sides: kind, size, box and convention right, cells,
    exact grids, solved with the right answer, and wrong answers given as solved."""
    total = kind_size = box_right = conv_right = exact = solved = wrong_solved = 0
    cells = cells_right = 0
    seconds, failures = [], []
    for item, data, givens, box, convention in items:
        total += 1
        started = time.perf_counter()
        try:
            reading = recognize(data, "auto")
        except RecognitionError as error:
            seconds.append(time.perf_counter() - started)
            failures.append(f"{item}: {error}")
            continue
        seconds.append(time.perf_counter() - started)
        n = len(givens)
        if not (reading.kind == "sudoku" and reading.size == n):
            failures.append(f"{item}: read as {reading.kind} {reading.size}x{reading.size}")
            continue
        kind_size += 1
        box_right += tuple(reading.box or ()) == tuple(box)
        conv_right += n <= 9 or reading.symbols == convention
        read = np.asarray(reading.cells).argmax(-1)
        cells += givens.size
        cells_right += int((read == givens).sum())
        exact += bool((read == givens).all())
        if solve_reading is None:
            continue
        result = solve_reading(reading, time_limit=10.0)
        right = result.puzzle is not None and np.array_equal(result.puzzle.givens, givens)
        solved += result.status == "solved" and right
        if result.status == "solved" and not right:
            wrong_solved += 1
            failures.append(f"{item}: WRONG ANSWER GIVEN AS SOLVED")
    return {"set": name, "images": total, "kind_size": kind_size / total,
            "box": box_right / total, "convention": conv_right / total,
            "cells": cells_right / max(cells, 1), "exact": exact / total,
            "solved": solved / total, "wrong_solved": wrong_solved,
            "median_s": float(np.median(seconds)), "p95_s": float(np.percentile(seconds, 95)),
            "failures": failures}


def sizes_table(results: list[dict]) -> str:
    lines = ["| set | images | kind and size right | box right | convention right | cells right "
             "| grids exact | solved exactly | wrong answers as solved | median s | p95 s |",
             "|" + "---|" * 11]
    for r in results:
        lines.append(f"| {r['set']} | {r['images']} | {r['kind_size']:.1%} | {r['box']:.1%} | "
                     f"{r['convention']:.1%} | {r['cells']:.3%} | {r['exact']:.1%} | "
                     f"{r['solved']:.1%} | {r['wrong_solved']} | {r['median_s']:.3f} | "
                     f"{r['p95_s']:.3f} |")
    return "\n".join(lines)


def size_results(count: int, seed: int, light_lines: bool = False) -> list[dict]:
    """One screenshot and one photo set per entry of SIZE_SETS; with `light_lines`, also
    a photo set of each drawn with light grey thin lines (render.LIGHT_LINED)."""
    out = []
    for k, (size, box, conventions) in enumerate(SIZE_SETS):
        for photo in (False, True):
            label = (f"{size}x{size} ({box[0]}x{box[1]} boxes, {'/'.join(conventions)}) "
                     + ("photo" if photo else "screenshot"))
            items = sizes_set(size, box, conventions, photo, count,
                              seed + 50_000 + 1000 * k + 500 * photo)
            out.append(run_sizes(label, items))
        if light_lines:
            label = f"{size}x{size} ({box[0]}x{box[1]} boxes) light-lined photo"
            items = sizes_set(size, box, conventions, True, count, seed + 80_000 + 1000 * k,
                              LIGHT_LINED)
            out.append(run_sizes(label, items))
    return out


def table(results: list[dict]) -> str:
    head = ("| set | images | grid found | read as classic | rotation right | cells right "
            "| grids exact | solved after repair | suspects = changes | ECE "
            "| most confident misread | median s | p95 s |")
    lines = [head, "|" + "---|" * 13]
    for r in results:
        solved = "-" if r["solved"] is None else f"{r['solved']:.1%}"
        named = "-" if r["suspects_right"] is None else f"{r['suspects_right']:.1%}"
        rotation = "-" if r["rotation_right"] is None else f"{r['rotation_right']:.1%}"
        lines.append(f"| {r['set']} | {r['images']} | {r['found']} | {r['kind_right']:.1%} | "
                     f"{rotation} | {r['cell_acc']:.3%} | "
                     f"{r['exact']:.1%} | {solved} | {named} | {r['ece']:.4f} | "
                     f"{r['worst_wrong']:.2f} | "
                     f"{r['median_s']:.3f} | {r['p95_s']:.3f} |")
    return "\n".join(lines)


CONFIDENCE_BINS = (0.0, 0.5, 0.7, 0.9, 0.99, 1.0001)


def misread_confidences(results: list[dict]) -> str:
    """How many misreads fall in each confidence band, per set: a misread at p >= 0.9 is
    the kind the solver's repair cannot catch."""
    bands = [f"{lo:.2f}-{min(hi, 1):.2f}" for lo, hi in zip(CONFIDENCE_BINS[:-1],
                                                            CONFIDENCE_BINS[1:], strict=True)]
    lines = ["| set | misreads | " + " | ".join(f"p {b}" for b in bands) + " |",
             "|" + "---|" * (len(bands) + 2)]
    for r in results:
        wrong = r["probs"].argmax(1) != r["labels"]
        counts, _ = np.histogram(r["probs"].max(1)[wrong], bins=CONFIDENCE_BINS)
        lines.append(f"| {r['set']} | {int(wrong.sum())} | "
                     + " | ".join(str(int(c)) for c in counts) + " |")
    return "\n".join(lines)


def reliability_plot(results: list[dict], path: Path) -> bool:
    """Write the plot; False when matplotlib is not installed."""
    try:
        import matplotlib
    except ImportError:
        return False

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 1], [0, 1], "k:", label="perfect calibration")
    edges = np.linspace(0, 1, 11)
    for r in results:
        if not len(r["labels"]):
            continue
        conf = r["probs"].max(1)
        right = r["probs"].argmax(1) == r["labels"]
        xs, ys = [], []
        for lo, hi in zip(edges[:-1], edges[1:], strict=True):
            inside = (conf > lo) & (conf <= hi)
            if inside.sum() >= 5:
                xs.append(conf[inside].mean())
                ys.append(right[inside].mean())
        ax.plot(xs, ys, "o-", label=r["set"])
    ax.set_xlabel("confidence of the read value")
    ax.set_ylabel("share read right")
    ax.set_title("Digit reliability")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10 images per synthetic set")
    parser.add_argument("--count", type=int, default=50, help="images per synthetic set")
    default_photos = ROOT.parent / "shared" / "data" / "sudoku_photos_dev"
    parser.add_argument("--photos", type=Path, default=default_photos,
                        help="folder of labelled photos (.jpg + .dat)")
    parser.add_argument("--half-solved", type=Path,
                        default=ROOT.parent / "shared" / "data" / "half_solved_photos" / "val",
                        help="folder with images/, labels/ (0-9, 10 = pencil notes)")
    parser.add_argument("--seed", type=int, default=700_000,
                        help="first seed of the synthetic sets (each set adds 1000)")
    parser.add_argument("--verbose", action="store_true", help="list every misread cell")
    parser.add_argument("--sizes", choices=["with", "without", "only"], default="with",
                        help="the sets of other grid sides (4x4 .. 16x16): with the 9x9 "
                             "sets, without them, or only them")
    parser.add_argument("--light-lines", action="store_true",
                        help="with the other sides, a photo set of each side drawn with light "
                             "grey thin lines (gridsight.synth.render.LIGHT_LINED)")
    parser.add_argument("--nonograms", choices=["with", "without", "only"], default="with",
                        help="the nonogram sets (bench/recognition_nonogram.py): with the "
                             "sudoku sets, without them, or only them")
    parser.add_argument("--kind", default="auto", choices=["auto", "sudoku", "classic"],
                        help="the kind sent with every picture (all of them are classic); "
                             "'classic' reads with the classic reader alone, no kind detection")
    parser.add_argument("--unique", action="store_true",
                        help="synthetic 9x9 puzzles with one answer, as printed ones have "
                             "(digits added to the random givens); by default most have "
                             "several answers and can only end as needs_review")
    parser.add_argument("--sets", nargs="+", default=None, metavar="WORD",
                        help="only the synthetic 9x9 sets whose name holds one of these words "
                             "(e.g. dark stripes noise); each keeps its own seeds")
    args = parser.parse_args()
    count = 10 if args.quick else args.count

    print("gridsight recognition benchmark")
    results, notes = [], []
    nines = args.sizes != "only" and args.nonograms != "only"
    if nines and args.photos.is_dir():
        results.append(run(f"real: {args.photos.name}", labelled_photos(args.photos),
                           args.kind))
        results.append(run(f"real: {args.photos.name}, turned and lying tags (every 4th)",
                           turned_and_tagged(labelled_photos(args.photos), 4), args.kind))
        notes.append(CREDIT)
    elif nines:
        notes.append(f"(no labelled photos at {args.photos})")
    if nines and args.half_solved.is_dir():
        results.append(run(f"real: half-solved {args.half_solved.name}",
                           half_solved_photos(args.half_solved), args.kind, solve=False))
        results.append(run(f"real: half-solved {args.half_solved.name}, turned and lying tags "
                           "(every 4th)", turned_and_tagged(half_solved_photos(args.half_solved),
                                                           4), args.kind, solve=False))
        notes.append(HALF_SOLVED_CREDIT)
    names = ["screenshot", "flat photo", "curved photo", *FAILURE_CLASSES]
    chosen = [(i, name) for i, name in enumerate(names)
              if args.sets is None or any(word in name for word in args.sets)]
    results += [run(name, synthetic_set(name, count, args.seed + 1000 * i, args.unique),
                    args.kind)
                for i, name in chosen] if nines else []
    sizes = size_results(count, args.seed, args.light_lines) if args.sizes != "without" and \
        args.nonograms != "only" else []
    nonograms = nonogram_results(count, args.seed + 100_000) \
        if args.nonograms != "without" else []
    if nonograms:
        notes.append(NONOGRAM_NOTE)
    photos_note = "\n\n".join(notes)
    text = table(results) + "\n\nMisreads by confidence:\n\n" + misread_confidences(results)
    if sizes:
        text += ("\n\nOther sides (synthetic; fonts held out of the models, grids above 9x9 "
                 "also in the symbol model's held-out style):\n\n" + sizes_table(sizes))
    if nonograms:
        text += "\n\nNonograms (synthetic):\n\n" + nonogram_table(nonograms)
    solver_note = ("solved after repair: services.solver.solve_reading's puzzle equals the "
                   "labels; suspects = changes: share of solved-or-reviewed pictures whose cell "
                   "suspects (read != chosen) are exactly the cells where the puzzle solved "
                   "differs from the reading" if solve_reading
                   else "solver not importable: column skipped")
    header = f"# Recognition benchmark\n\n{photos_note}\n\n{solver_note}\n"
    print(header)
    print(text)
    for r in results:
        for line in r["failures"] + (r["misreads"] if args.verbose else r["misreads"][:10]):
            print(f"  {r['set']}: {line}")
    for r in sizes + nonograms:
        for line in r["failures"][:10]:
            print(f"  {r['set']}: {line}")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "recognition.md").write_text(header + "\n" + text + "\n")
    plotted = reliability_plot(results, OUT / "reliability.png")
    print(f"\nwrote {OUT / 'recognition.md'}"
          + (f" and {OUT / 'reliability.png'}" if plotted else " (no matplotlib: no plot)"))


if __name__ == "__main__":
    main()
