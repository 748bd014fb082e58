"""The shipped orientation model loads and tells the way up of unseen grids in a held-out
font family, cell by cell and, more surely, grid by grid."""

from __future__ import annotations

import numpy as np

from gridsight.training.digits import held_out_fonts, sample_grid
from gridsight.training.orientation import turned_cells
from services.recognizer.cells.orientation import MODEL_PATH, load_orientation_model

CELL_FLOOR = 0.85  # a single 0, 1 or 8 cannot tell its way up; a grid of them can
SEEDS = range(910_000, 910_008)  # far from the training script's


def test_model_is_small_and_loads():
    assert MODEL_PATH.stat().st_size < 2_000_000
    assert load_orientation_model().info["cells"] > 10_000


def test_held_out_font_cells_and_grids():
    model = load_orientation_model()
    cells_right, grids_right, grids = [], 0, 0
    for seed in SEEDS:
        sample = sample_grid(seed, held_out_fonts(), photo_share=0.5)
        if sample is None:
            continue
        gray, lattice, givens = sample
        x, y = turned_cells(gray, lattice, givens > 0)
        log_probs = np.log(model.predict_proba(x) + 1e-9)
        cells_right.append(log_probs.argmax(axis=1) == y)
        for turn in range(4):  # each quarter turn of the grid: its cells vote together
            mine = y == turn
            grids += 1
            grids_right += int(log_probs[mine].sum(axis=0).argmax() == turn)
    assert np.concatenate(cells_right).mean() >= CELL_FLOOR
    assert grids >= 24 and grids_right == grids
