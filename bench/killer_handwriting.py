"""Killers a person wrote on by hand, page by page: cage walls misread under large
handwritten digits, dark-ink entries read as givens, and rows of pencil notes.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/killer_handwriting.py

The pages are those of tests/recognizer_killer/test_killer_handwritten.py's three sweeps
(six pages each); each sweep's totals are held to that test's bounds here, and the test
keeps the pages nearest them (of the notes rows: 82, the fewest found, and 84, the most
false).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from services.recognizer import recognize  # noqa: E402
from services.solver.entries import page_marks  # noqa: E402
from tests.recognizer_killer.conftest import PRINTED, walls_read, written_on  # noqa: E402

LARGE_DIGIT_STYLES = ("print", "app", "bold_serif", "web")


def wrong_walls(seed: int) -> int:
    data, info, _ = written_on(seed, LARGE_DIGIT_STYLES[seed % 4])
    right, down = walls_read(recognize(data, "killer"))
    return int((right != np.asarray(info["walls_right"])).sum()
               + (down != np.asarray(info["walls_down"])).sum())


def dark_ink(seed: int) -> tuple[int, int, int]:
    """(cells read as givens, entries read right, entries)."""
    data, _, marks = written_on(seed, PRINTED[seed % 3], entry_share=0.35)
    reading = recognize(data, "auto")
    givens = int((np.asarray(reading.cells).argmax(axis=-1) > 0).sum())
    read, _ = page_marks(reading)
    truth = np.asarray(marks.entries)
    return givens, int(((np.asarray(read) == truth) & (truth > 0)).sum()), int((truth > 0).sum())


def notes_rows(seed: int) -> tuple[int, int, int, int]:
    """(notes cells found, cells wrongly taken for notes, notes cells, cells read as givens)."""
    data, _, marks = written_on(seed, PRINTED[seed % 3], entry_share=0.2, notes_share=0.2,
                                cell_px=60)
    reading = recognize(data, "auto")
    _, notes = page_marks(reading)
    notes, truth = set(map(tuple, notes)), set(marks.notes)
    givens = int((np.asarray(reading.cells).argmax(axis=-1) > 0).sum())
    return len(notes & truth), len(notes - truth), len(truth), givens


def main() -> None:
    walls = {seed: wrong_walls(seed) for seed in range(6)}
    print("large digits, wrong wall edges per page:", walls,
          f"total {sum(walls.values())} (bound 8)")
    dark = {seed: dark_ink(seed) for seed in range(64, 70)}
    givens, right, entries = (sum(v[k] for v in dark.values()) for k in range(3))
    print("dark ink, (givens, entries right, entries) per page:", dark,
          f"total givens {givens} (bound {0.03 * entries:.1f}), "
          f"right {right / entries:.3f} (floor 0.9)")
    notes = {seed: notes_rows(seed) for seed in range(80, 86)}
    found, false, total, givens = (sum(v[k] for v in notes.values()) for k in range(4))
    print("notes rows, (found, false, notes cells, givens) per page:", notes,
          f"found {found / total:.3f} (floor 0.85), false {false / total:.3f} (bound 0.12), "
          f"givens {givens} (bound 0)")


if __name__ == "__main__":
    main()
