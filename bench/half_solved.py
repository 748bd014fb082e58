"""Half-solved pages on the shared half_solved_photos/val set (never trained on).

Cell states (blank / digit value / pencil notes) by labelled kind, the confusion between
kinds, notes read as a confident given, photos with every cell right, time per photo, and
wrong_entries on the val puzzles whose printed givens are labelled in
bench/half_solved_givens.txt. On every photo besides: the labelled digits (printed and
the person's) extend to one solution, so none of the set's entries is wrong, and the
answer is checked against that solution; any entry listed wrong is a false alarm. The
baseline, measured in the same run, is the classic reading (the shipped digit model
alone, which has no notes state).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/half_solved.py [--photos DIR] [--limit N]
"""

from __future__ import annotations

import argparse
import csv
import os
import sys
import time
from collections import Counter
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import joblib  # noqa: E402
import numpy as np  # noqa: E402

from services.recognizer import (  # noqa: E402
    RecognitionError,
    recognize,
)
from services.recognizer.cells import kinds  # noqa: E402
from services.recognizer.cells.digits import read_cells  # noqa: E402
from services.recognizer.cells.half_solved import MIN_ENTRIES, MIN_NOTES, SURE_KIND  # noqa: E402
from services.recognizer.grid.decode import decode  # noqa: E402
from services.recognizer.grid.exposure import locate_either_way  # noqa: E402
from services.recognizer.shipped_models import load_shipped_models  # noqa: E402
from services.solver import solve_page, solve_puzzle  # noqa: E402

NOTES = 10
KIND_NAMES = ("blank", "printed", "entry", "notes")
GIVENS_FILE = Path(__file__).with_name("half_solved_givens.txt")


def labelled_givens(path: Path = GIVENS_FILE) -> dict[str, np.ndarray]:
    lines = [ln.strip() for ln in path.read_text().splitlines()
             if ln.strip() and not ln.startswith("#")]
    return {lines[i]: np.array([[0 if ch == "." else int(ch) for ch in row]
                                for row in lines[i + 1:i + 10]]) for i in range(0, len(lines), 10)}


def with_candidate_model(parser: argparse.ArgumentParser) -> argparse.Namespace:
    """The parsed arguments, after `--model M` (a candidate cell-kind model instead of the
    shipped one) and `--screen-model S` (the same for screenshots) have been put in place."""
    parser.add_argument("--model", type=Path, default=None,
                        help="a candidate cell-kind model instead of the shipped one")
    parser.add_argument("--screen-model", type=Path, default=None,
                        help="a candidate screens' cell-kind model instead of the shipped one")
    args = parser.parse_args()
    if args.model is not None:
        use_kind_model(joblib.load(args.model))
    if args.screen_model is not None:
        use_kind_model(joblib.load(args.screen_model), kinds.SCREEN_MODEL_PATH)
    return args


def use_kind_model(candidate, replaced: Path = kinds.MODEL_PATH) -> None:
    """Every recognizer module that reads cell kinds reads the model at `replaced` as
    `candidate`: those that imported load_kind_model by name (cells/half_solved.py) hold
    their own binding, which patching kinds.load_kind_model alone leaves on the shipped
    model."""
    current = sys.modules["services.recognizer.cells.half_solved"].load_kind_model

    def load(path: Path = kinds.MODEL_PATH):
        return candidate if path == replaced else current(path)

    for name, module in list(sys.modules.items()):
        if name.startswith("services.") and getattr(module, "load_kind_model", None) in (
                current, kinds.load_kind_model):
            module.load_kind_model = load


def timed_reading(data: bytes):
    """(the picture's Reading as a sudoku, or None when no grid is found; seconds taken)."""
    t0 = time.perf_counter()
    try:
        reading = recognize(data, "sudoku")
    except RecognitionError:
        reading = None
    return reading, time.perf_counter() - t0


def states(reading) -> tuple[np.ndarray, np.ndarray]:
    """(cell states 0 / 1-9 / NOTES, kind index per cell) from a Reading."""
    cells = np.asarray(reading.cells)
    if reading.cell_kinds is None:
        return cells.argmax(-1), np.where(cells.argmax(-1) > 0, 1, 0)
    kind = np.asarray(reading.cell_kinds).argmax(-1)
    printed = cells[..., 1:].argmax(-1) + 1
    entry = np.asarray(reading.entries)[..., 1:].argmax(-1) + 1
    state = np.select([kind == 0, kind == 1, kind == 2], [0, printed, entry], NOTES)
    return state, kind


def baseline_states(data: bytes) -> np.ndarray:
    gray, _, _ = decode(data)
    gray, _, lattice = locate_either_way(gray)
    return read_cells(gray, lattice)[0].argmax(-1)


def corners_close(reading, row: dict) -> bool:
    w, h = reading.image_size
    want = np.array([[float(row[f"x_{k}"]) * w, float(row[f"y_{k}"]) * h]
                     for k in ("topleft", "topright", "bottomright", "bottomleft")])
    cell = np.linalg.norm(want[1] - want[0]) / 9
    return bool(np.abs(np.array(reading.corners) - want).max() < 0.1 * cell)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photos", type=Path,
                        default=ROOT.parent / "shared/data/half_solved_photos/val")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--print-only", type=Path,
                        default=ROOT.parent / "shared/data/sudoku_photos_dev",
                        help="print-only photos (imageN.jpg + imageN.dat) read both ways")
    args = with_candidate_model(parser)
    if not args.photos.exists():
        sys.exit(f"no photos at {args.photos}")
    rows = list(csv.DictReader(open(args.photos / "metadata.csv", newline="")))
    if args.limit:
        rows = rows[:args.limit]
    givens_by_puzzle = labelled_givens()
    load_shipped_models()  # as a worker does when it starts: no picture pays for the loading
    right, total, base_right = Counter(), Counter(), Counter()
    confusion = Counter()
    phone_right, phone_cells, phone_perfect, phone_photos = Counter(), Counter(), Counter(), \
        Counter()
    notes_as_given = perfect = base_perfect = found = 0
    seconds, base_seconds, kind_seconds = [], [], []
    wrong_checks = []
    answers = Counter()
    started = time.perf_counter()
    for row in rows:
        data = (args.photos / "images" / row["Name"]).read_bytes()
        labels = np.loadtxt(args.photos / "labels" / (Path(row["Name"]).stem + ".txt"),
                            dtype=int)
        reading, took = timed_reading(data)
        seconds.append(took)
        t0 = time.perf_counter()
        try:
            base = baseline_states(data)
        except RecognitionError:
            base = np.full((9, 9), -1)
        base_seconds.append(time.perf_counter() - t0)
        printed = givens_by_puzzle.get(row["Puzzle"])
        if reading is not None:
            kind_seconds.append(reading.timings.get("cell_kinds", 0.0))
            found += corners_close(reading, row)
            state, kind = states(reading)
            given_p = np.asarray(reading.cells)[..., 1:].max(-1)
        else:
            state, kind, given_p = np.full((9, 9), -1), np.full((9, 9), -1), np.zeros((9, 9))
        perfect += bool((state == labels).all())
        phone = row.get("Source", "?")
        phone_right[phone] += int((state == labels).sum())
        phone_cells[phone] += labels.size
        phone_perfect[phone] += bool((state == labels).all())
        phone_photos[phone] += 1
        base_perfect += bool((base == labels).all())
        for r in range(9):
            for c in range(9):
                v = labels[r, c]
                group = "blank" if v == 0 else "notes" if v == NOTES else "digit"
                if group == "digit" and printed is not None:
                    group = "digit, printed" if printed[r, c] else "digit, handwritten"
                total[group] += 1
                right[group] += int(state[r, c] == v)
                base_right[group] += int(base[r, c] == v)
                confusion[group, KIND_NAMES[kind[r, c]] if kind[r, c] >= 0 else "no grid"] += 1
                notes_as_given += int(v == NOTES and given_p[r, c] >= 0.9 and kind[r, c] != 3)
        if printed is not None and reading is not None:
            wrong_checks.append(check_wrong_entries(row["Name"], reading, labels, printed))
        answers.update(check_answer(reading, labels))
    n = len(rows)
    print(f"{n} photos from {args.photos}, {time.perf_counter() - started:.0f} s\n")
    print(f"grid found (corners within 0.1 cell): {found} of {n}\n")
    print("| cells (label) | n | cell kinds model right | classic reading right "
          "(baseline) | ratio |")
    print("|---|---|---|---|---|")
    groups = ["blank", "digit", "digit, printed", "digit, handwritten", "notes"]
    for g in [g for g in groups if total[g]] + ["all"]:
        t = sum(total.values()) if g == "all" else total[g]
        r = sum(right.values()) if g == "all" else right[g]
        b = sum(base_right.values()) if g == "all" else base_right[g]
        print(f"| {g} | {t} | {r} ({100 * r / t:.1f} %) | {b} ({100 * b / t:.1f} %) | "
              f"{(r / max(b, 1)):.2f}× |")
    print(f"\nphotos with every cell right: {perfect} of {n} (baseline {base_perfect})")
    print("by phone (the worst group counts): " + "; ".join(
        f"{phone} {phone_perfect[phone]} of {phone_photos[phone]} photos all right, cells "
        f"{100 * phone_right[phone] / phone_cells[phone]:.2f} %" for phone in sorted(phone_photos)))
    print(f"notes cells read as a given with p ≥ 0.9: {notes_as_given} of {total['notes']}")
    print(f"time per photo, recognize(): median {1000 * np.median(seconds):.0f} ms, max "
          f"{1000 * max(seconds):.0f} ms (classic reading alone: median "
          f"{1000 * np.median(base_seconds):.0f} ms; the cell-kind stage: median "
          f"{1000 * np.median(kind_seconds or [0]):.0f} ms)\n")
    print("confusion between kinds (rows: label, columns: most probable kind read)\n")
    cols = list(KIND_NAMES) + ["no grid"]
    print("| label | " + " | ".join(cols) + " |")
    print("|---|" + "---|" * len(cols))
    for g in [g for g in groups if total[g]]:
        print(f"| {g} | " + " | ".join(str(confusion[g, k]) for k in cols) + " |")
    if wrong_checks:
        print("\nwrong_entries on photos of puzzles with labelled givens (bench/"
              "half_solved_givens.txt)\n")
        print("| photo | status | solution right | wrong entries expected | listed |")
        print("|---|---|---|---|---|")
        for line in wrong_checks:
            print(line)
    print(f"\nevery photo against the one solution its labelled digits extend to "
          f"({answers['labels consistent']} of {n} do): answered {answers['answered']} "
          f"(`solved` {answers['solved']}, right {answers['solved right']}; "
          f"`needs_review` {answers['needs_review']}, right {answers['review right']}); "
          f"entries listed wrong, all false alarms: {answers['false alarms']} on "
          f"{answers['photos with false alarms']} photos")
    if args.print_only.exists():
        print_only_table(args.print_only, args.limit)


def written_on(reading) -> bool:
    """Whether the page looks written on from its reading's kind fields alone (the
    recognizer's own decision, half_solved.written_on, also weighs marks the Reading does
    not carry: this count can differ from it on a few pages)."""
    sure = np.asarray(reading.cell_kinds) > SURE_KIND
    return bool(sure[..., 2].sum() >= MIN_ENTRIES or sure[..., 3].sum() >= MIN_NOTES)


def print_only_table(folder: Path, limit: int) -> None:
    """Print-only photos: cells right with the cell-kind hook and with the classic reading."""
    paths = sorted(folder.glob("*.jpg"), key=lambda p: int("".join(filter(str.isdigit,
                                                                           p.stem)) or 0))
    if limit:
        paths = paths[:limit]
    right = base = total = exact = base_exact = 0
    marked_pages = 0
    for path in paths:
        rows = path.with_suffix(".dat").read_text().splitlines()[2:11]
        labels = np.array([[int(v) for v in row.split()] for row in rows])
        data = path.read_bytes()
        try:
            reading = recognize(data, "sudoku")
            got = np.asarray(reading.cells).argmax(-1)
            marked_pages += reading.cell_kinds is not None and written_on(reading)
        except RecognitionError:
            got = np.full((9, 9), -1)
        try:
            classic = baseline_states(data)
        except RecognitionError:
            classic = np.full((9, 9), -1)
        right += int((got == labels).sum())
        base += int((classic == labels).sum())
        total += labels.size
        exact += bool((got == labels).all())
        base_exact += bool((classic == labels).all())
    print(f"\nprint-only photos ({folder.name}, {len(paths)}): givens right "
          f"{right} of {total} ({100 * right / total:.2f} %), classic reading {base} "
          f"({100 * base / total:.2f} %); read exactly {exact} vs {base_exact}; pages taken "
          f"as written on: {marked_pages}")


def check_answer(reading, labels: np.ndarray) -> Counter:
    """Counts for one photo: its answer against the solution its labelled digits extend
    to, and entries listed wrong although the labels agree with that solution or label
    the cell as pencil notes."""
    counts = Counter()
    digits = np.where(labels == NOTES, 0, labels)
    truth = solve_puzzle({"kind": "sudoku", "givens": digits.tolist()})
    if truth.solution is None:
        return counts
    counts["labels consistent"] += 1
    if reading is None:
        return counts
    solution = np.array(truth.solution)
    result = solve_page(reading)
    if result.solution is None:
        return counts
    right = bool((np.array(result.solution) == solution).all())
    counts["answered"] += 1
    status = "solved" if result.status == "solved" else "review"
    counts[result.status] += 1
    counts[f"{status} right"] += right
    # A right digit, or pencil notes, listed as a wrong digit.
    alarms = sum(1 for w in result.wrong_entries
                 if labels[w.row, w.col] in (solution[w.row, w.col], NOTES))
    counts["false alarms"] += alarms
    counts["photos with false alarms"] += alarms > 0
    return counts


def check_wrong_entries(name: str, reading, labels: np.ndarray, printed: np.ndarray) -> str:
    truth = solve_puzzle({"kind": "sudoku", "givens": printed.tolist()})
    solution = np.array(truth.solution)
    hand = (labels >= 1) & (labels <= 9) & (printed == 0)
    expected = sorted((int(r), int(c), int(labels[r, c]), int(solution[r, c]))
                      for r, c in zip(*np.nonzero(hand & (labels != solution)), strict=True))
    result = solve_page(reading)
    listed = sorted((w.row, w.col, w.written, w.correct) for w in result.wrong_entries)
    ok = result.solution is not None and (np.array(result.solution) == solution).all()
    return f"| {name} | {result.status} | {'yes' if ok else 'no'} | {expected} | {listed} |"


if __name__ == "__main__":
    main()
