"""Real labelled photos for training, when ../shared/data is beside the project.

`half_solved_photos/train/` holds phone photos of printed newspaper puzzles a person
filled in, with labels (0 blank, 1-9 a digit, 10 pencil notes) and the grid's corners in
`metadata.csv`. Cells are cut with the corners from the metadata, refined along the
grid lines, so training does not depend on the grid finder. Only `train/` is used for
fitting; `val/` is for measuring. The models train without this folder too (synthetic
data only); their info records which was used.
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from services.recognizer.grid.decode import decode
from services.recognizer.grid.lattice import refine_lattice
from services.recognizer.grid.outlines import binarize

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"
HALF_SOLVED_TRAIN = SHARED / "half_solved_photos" / "train"
NOTES = 10  # label of a cell holding pencil candidates


def half_solved_grids(folder: Path = HALF_SOLVED_TRAIN) -> Iterator[tuple[str, np.ndarray,
                                                                          np.ndarray, np.ndarray]]:
    """(name, grey working picture, lattice in its pixels, 9x9 labels) per photo."""
    metadata = folder / "metadata.csv"
    if not metadata.exists():
        return
    with metadata.open() as handle:
        rows = list(csv.DictReader(handle))
    for row in rows:
        image = folder / "images" / row["Name"]
        label_file = folder / "labels" / (image.stem + ".txt")
        if not image.exists() or not label_file.exists():
            continue
        labels = np.array([[int(v) for v in line.split()]
                           for line in label_file.read_text().splitlines() if line.strip()])
        gray, scale, (width, height) = decode(image.read_bytes())
        corners = np.array([[float(row[f"x_{name}"]) * width, float(row[f"y_{name}"]) * height]
                            for name in ("topleft", "topright", "bottomright", "bottomleft")])
        lattice = refine_lattice(binarize(gray), corners / scale)
        yield image.name, gray, lattice, labels
