"""Whether the person's digits on a page are written in an ink of their own: evidence of a
person's writing that print in a face the cell model has not seen (read as entries) lacks."""

from __future__ import annotations

import numpy as np

from services.recognizer.cells.kinds import CELL, SIZE
from services.recognizer.cells.marks import MARK_MARGIN
from services.recognizer.cells.tuning import INK_APART, INK_CORE, INK_SPREAD
from services.recognizer.ranks import ranked


def ink_tones(straight: np.ndarray, wanted: np.ndarray | None = None) -> np.ndarray:
    """(SIZE*SIZE, channels) the colour of each cell's darkest strokes as a share of its
    paper's, per channel (nan in a cell with no mark). `wanted`: (SIZE*SIZE,) bool, the
    cells whose tones are asked for (the others stay nan)."""
    image = straight.astype(np.float32).reshape(*straight.shape[:2], -1)
    m = int(MARK_MARGIN * CELL)
    cells = image[:SIZE * CELL, :SIZE * CELL].reshape(SIZE, CELL, SIZE, CELL, -1)
    cells = cells.transpose(0, 2, 1, 3, 4)[:, :, m:CELL - m, m:CELL - m]
    cells = cells.reshape(SIZE * SIZE, -1, image.shape[-1])
    tones = np.full((SIZE * SIZE, image.shape[-1]), np.nan)
    # The percentiles every cell takes, over all cells at once.
    light = cells.mean(axis=2)
    papers = np.percentile(light, 90, axis=1)
    channel_papers = np.maximum(np.percentile(cells, 90, axis=1), 1.0)
    for i in range(SIZE * SIZE) if wanted is None else np.flatnonzero(wanted):
        cell, cell_light = cells[i], light[i]
        paper = float(papers[i])
        dark = cell_light < paper - 0.5 * (paper - cell_light.min())
        if dark.sum() < 5 or paper < 1:
            continue
        core = dark & (cell_light <= ranked(cell_light[dark], (INK_CORE,))[0])
        tones[i] = cell[core].mean(axis=0) / channel_papers[i]
    return tones


def second_ink(straight: np.ndarray, kinds: np.ndarray) -> bool:
    """Whether a cell these (SIZE, SIZE, 4) kinds take as the person's digit is written in
    an ink apart from the printed digits' (INK_APART): evidence of a person's writing that
    print in a face the cell model has not seen (read as entries) lacks."""
    kind = np.asarray(kinds).reshape(SIZE * SIZE, -1).argmax(axis=1)
    if not (kind == 2).any():
        return False
    tones = ink_tones(straight, (kind == 1) | (kind == 2))
    printed = tones[(kind == 1) & ~np.isnan(tones[:, 0])]
    entries = tones[(kind == 2) & ~np.isnan(tones[:, 0])]
    if not len(printed) or not len(entries):
        return False
    centre = np.median(printed, axis=0)
    spread = float(np.median(np.abs(printed - centre).max(axis=1)))
    apart = np.abs(entries - centre).max(axis=1)
    return bool((apart > max(INK_APART, INK_SPREAD * spread)).any())
