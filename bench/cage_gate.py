"""The cage check before the classic shortcut: where it fires, beside a baseline rule.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/cage_gate.py [--n 10] [--kind]

A grid with many large digits is read as classic at once unless `killer.cage_walls_seen`
finds cage walls on its classic lattice; then it goes through the (slower) killer reader
and the kind evidence. On classic pages the check should stay quiet, on killers in
progress (the person's digits make them look classic by count) it must fire.

Groups: the shared half-solved val photos and the print-only dev photos when ../shared
is beside the repository (real classic pages), synthetic classic pages written on
(`half_solved_page`), and synthetic killers in progress in every renderer style. Per
group: pictures, pictures with at least CLASSIC_GIVENS large digits (the check is asked
only then), and how many of those the baseline rule (mean wall probability over both
directions at least 0.2; fills by full CIELAB distance) and the current check call
caged, and how many the cheap look of cells/print_look.py (cage_free) spares the check
(a miss where it does and the check finds cages). The outline walls' mean (the lesser
direction's) on the plain edge features and with the large digits painted out: the
largest rise painting them out makes, and how many pictures skip the painting
(plain mean below DIGITS_OUT_FROM). `--kind` also reads every picture with
recognize(kind="auto") and counts the kind right (slower). Writes bench/out/cage_gate.md.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import numpy as np  # noqa: E402
from recognition_killer import encode  # noqa: E402

from gridsight.synth.half_solved import half_solved_page  # noqa: E402
from gridsight.synth.killer_render import in_progress, on_page, pick_sum_font, render_killer  # noqa: E402
from gridsight.synth.killer_styles import ALL_STYLES, vary  # noqa: E402
from gridsight.synth.puzzles import make_killer  # noqa: E402
from gridsight.training.sums import cell_size  # noqa: E402
from services.recognizer import RecognitionError, recognize  # noqa: E402
from services.recognizer.cells import digits  # noqa: E402
from services.recognizer.cells.kinds import CELL  # noqa: E402
from services.recognizer.cells.print_look import cage_free  # noqa: E402
from services.recognizer.grid import exposure, full_resolution  # noqa: E402
from services.recognizer.grid.decode import decode, decode_colour  # noqa: E402
from services.recognizer.grid.straighten import straighten  # noqa: E402
from services.recognizer.killer.cages import (  # noqa: E402
    edge_probabilities,
    edge_profiles,
    wall_ink,
    wall_probabilities,
)
from services.recognizer.killer.fills import cell_fills, coloured_line_walls, colourful, fill_walls  # noqa: E402
from services.recognizer.killer.reading import CAGES_SEEN, cage_walls_seen  # noqa: E402
from services.recognizer.killer.sums import load_killer_model  # noqa: E402
from services.recognizer.killer.tuning import DIGITS_OUT_FROM  # noqa: E402

SHARED = ROOT.parent / "shared" / "data"
OUT = ROOT / "bench" / "out"
SEED0 = 760_000


def classic_view(data: bytes):
    """(grey, lattice, colour, large digits) as recognize() has them at the shortcut, or
    None when the grid is not 9x9 or not found."""
    gray, scale, _ = decode(data)
    gray = exposure.brightened(gray)
    as_decoded = gray
    gray, _, lattice = exposure.locate_either_way(gray)
    colour = None
    region = full_resolution.full_resolution_grid(data, lattice, scale, gray is not as_decoded)
    if region is not None:
        region, (gray, _, lattice) = region
        colour = region.colour
    lattice, _, features = digits.stand_upright(gray, lattice)
    if lattice.shape[0] != 10:
        return None
    probs, large = digits.read_cells(gray, lattice, features)
    if colour is None:
        colour = decode_colour(data, gray.shape)
    return gray, lattice, colour, large, probs


def baseline_rule(gray, lattice, colour) -> bool:
    """The baseline rule: any wall set's mean over both directions (not each direction)."""
    found = [wall_probabilities(wall_ink(gray, lattice), load_killer_model().walls, 9)]
    by_line = coloured_line_walls(colour, lattice)
    if by_line is not None:
        found.append(by_line)
    fills = cell_fills(colour, lattice)
    if colourful(fills):
        found.append(fill_walls(fills))
    return any(np.mean(r) + np.mean(d) >= 2 * CAGES_SEEN for r, d in found)


def outline_means(gray, lattice) -> tuple[float, float]:
    """The outline walls' mean, the lesser direction's: (plain, large digits painted out)."""
    ink, model = wall_ink(gray, lattice), load_killer_model().walls
    plain = edge_profiles(ink, 9)
    return tuple(float(min(np.mean(r), np.mean(d))) for r, d in
                 (edge_probabilities(*plain, model), wall_probabilities(ink, model, 9, plain)))


def screenshots(count: int):
    from load import pictures

    for i, (data, _) in enumerate(pictures(count)):
        yield f"screenshot {i}", data


def real_pictures(folder: Path):
    for path in sorted(folder.glob("*.jpg")):
        yield path.name, path.read_bytes()


def written_pages(count: int):
    for i in range(count):
        rng = random.Random(SEED0 + i)
        page = half_solved_page(SEED0 + i, app=rng.random() < 0.5, cell_px=rng.randint(40, 72))
        yield f"written {SEED0 + i}", encode(page.image, "PNG")


def killers_in_progress(style: str, count: int):
    """Killers of `style` with 30-60 % of the cells holding the person's digits (one a
    third of them in a page screenshot, a quarter saved as JPEG)."""
    for i in range(count):
        seed = SEED0 + 10_000 + 100 * sorted(ALL_STYLES).index(style) + i
        rng = random.Random(seed)
        puzzle, solution = make_killer(rng)
        look = vary(ALL_STYLES[style], rng)
        marks = in_progress(solution, rng, rng.uniform(0.3, 0.6), rng.uniform(0.05, 0.2),
                            wrong=1)
        image = render_killer(puzzle, style=look, seed=seed, cell_px=cell_size(rng),
                              margin=rng.randint(6, 40), sum_font=pick_sum_font(look, rng),
                              marks=marks)
        if i % 3 == 2:
            image = on_page(image, rng)
        yield f"{style} {seed}", encode(image, "JPEG" if i % 4 == 3 else "PNG")


def run_group(name: str, pictures, want_cages: bool, kind: bool) -> dict:
    row = dict(name=name, n=0, asked=0, old=0, new=0, looked=0, kind=0, misses=[],
               moved=0.0, skipped=0)
    for label, data in pictures:
        row["n"] += 1
        view = classic_view(data)
        if view is not None and view[3] >= digits.CLASSIC_GIVENS:
            row["asked"] += 1
            old, new = baseline_rule(*view[:3]), cage_walls_seen(*view[:3])
            row["old"] += old
            row["new"] += new
            plain, digits_out = outline_means(*view[:2])
            row["moved"] = max(row["moved"], digits_out - plain)
            row["skipped"] += plain < DIGITS_OUT_FROM
            if plain < DIGITS_OUT_FROM and digits_out >= CAGES_SEEN:  # the gate hid walls
                row["misses"].append(f"{name}: {label} plain outline mean {plain:.3f}, "
                                     f"digits out {digits_out:.3f}")
            # The cheap look (cells/print_look.py) that spares the check: never where the
            # check finds cages.
            looked = cage_free(straighten(view[2], view[1], CELL), view[4])
            row["looked"] += looked
            if looked and new:
                row["misses"].append(f"{name}: {label} cage free by the cheap look, caged")
            if new != want_cages:
                row["misses"].append(f"{name}: {label} {'caged' if new else 'no cages'}")
        if kind:
            try:
                read = recognize(data, "auto").kind
            except RecognitionError:
                read = "failed"
            good = read == ("killer" if want_cages else "sudoku")
            row["kind"] += good
            if not good:
                row["misses"].append(f"{name}: {label} read as {read}")
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=10,
                        help="synthetic pictures per group (written pages: 3n)")
    parser.add_argument("--kind", action="store_true", help="also read each with kind=auto")
    args = parser.parse_args()
    started = time.perf_counter()
    groups = []
    for name, folder in (("half-solved val photos (real, classic)",
                          SHARED / "half_solved_photos" / "val" / "images"),
                         ("sudoku_photos_dev (real, classic)", SHARED / "sudoku_photos_dev")):
        if folder.exists():
            groups.append((name, real_pictures(folder), False))
    groups.append(("classic screenshots (bench/load.py)", screenshots(2 * args.n), False))
    groups.append(("classic page written on (synthetic)", written_pages(3 * args.n), False))
    groups += [(f"killer in progress, {style}", killers_in_progress(style, args.n), True)
               for style in sorted(ALL_STYLES)]
    lines = ["| group | pictures | asked (many large digits) | caged, baseline rule "
             "| caged, now | cage free by the cheap look | digits not painted out "
             "| largest rise painting them out |"
             + (" kind right (auto) |" if args.kind else ""),
             "|---|---:|---:|---:|---:|---:|---:|---:|" + ("---:|" if args.kind else "")]
    misses = []
    for name, pictures, want in groups:
        row = run_group(name, pictures, want, args.kind)
        lines.append(f"| {name} | {row['n']} | {row['asked']} | {row['old']} | {row['new']} "
                     f"| {row['looked']} | {row['skipped']} | {row['moved']:.3f} |"
                     + (f" {row['kind']} |" if args.kind else ""))
        misses += row["misses"]
        print(lines[-1], flush=True)
    text = (f"# Cage check before the classic shortcut\n\n{time.strftime('%Y-%m-%d')}, "
            f"{time.perf_counter() - started:.0f} s\n\n" + "\n".join(lines) + "\n")
    if misses:
        text += "\nWrong:\n\n" + "\n".join(f"- {m}" for m in misses) + "\n"
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "cage_gate.md").write_text(text)
    print(text)


if __name__ == "__main__":
    main()
