"""Whether the person's digits on a page are written in an ink of their own: evidence of a
person's writing that print in a face the cell model has not seen (read as entries) lacks."""

from __future__ import annotations

import numpy as np

from services.recognizer.cells.kinds import (
    CELL,
    ENTRY_CLASSES,
    PRINTED_CLASSES,
    SIZE,
    STROKE_MARGIN,
    straight_features,
)
from services.recognizer.cells.marks import MARK_MARGIN
from services.recognizer.cells.tuning import (
    INK_APART,
    INK_CORE,
    INK_SPREAD,
    MIN_PRINTED,
    SURE_KIND,
)
from services.recognizer.grid.straighten import ink_map
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


def _apart(tones: np.ndarray, printed: np.ndarray) -> np.ndarray:
    """(len(tones),) bool: each tone stands apart from the `printed` tones' ink (INK_APART,
    and INK_SPREAD times their own spread)."""
    centre = np.median(printed, axis=0)
    spread = float(np.median(np.abs(printed - centre).max(axis=1)))
    return np.abs(tones - centre).max(axis=1) > max(INK_APART, INK_SPREAD * spread)


def with_one_print_ink(probs: np.ndarray, tones: np.ndarray) -> np.ndarray:
    """(SIZE*SIZE, 20) class probabilities of a screenshot's cells where its digits come in
    two inks: a screen prints its givens in one ink, and an app that types the person's
    digits in another shows which are whose. The print's ink is that of the digits the
    cell model is surest are printed (at least MIN_PRINTED of them, else nothing
    changes), or the ink apart from it when that is the plainer one (of less chroma); a
    digit whose ink lies nearer the other ink than the print's is the person's, and one
    nearer the print's ink is print. Digit values are kept. A page whose digits all
    share one ink, or whose inks differ in lightness alone (a thin face's strokes are
    lighter than a bold one's), keeps the cell model's kinds. `tones`: ink_tones of the
    grid's cells."""
    printed = probs[:, PRINTED_CLASSES].sum(axis=1)
    digit = printed + probs[:, ENTRY_CLASSES].sum(axis=1) > 0.5
    toned = digit & ~np.isnan(tones[:, 0])
    sure = toned & (printed > SURE_KIND)
    if sure.sum() < MIN_PRINTED:
        return probs
    apart = toned.copy()
    apart[toned] = _apart(tones[toned], tones[sure])
    if not apart.any():
        return probs
    print_ink = np.median(tones[sure], axis=0)
    other_ink = np.median(tones[apart], axis=0)
    if abs(np.ptp(other_ink) - np.ptp(print_ink)) <= INK_APART:
        return probs  # apart in lightness alone, as a thin face's lighter strokes are
    if np.ptp(other_ink) < np.ptp(print_ink):
        # An app prints its givens in the plainer ink, the person's digits in a colour:
        # the cell model was surer of the coloured digits as print.
        print_ink, other_ink = other_ink, print_ink
    nearer_other = (np.abs(tones - other_ink).max(axis=1)
                    < np.abs(tones - print_ink).max(axis=1))
    persons, printed_ink = toned & nearer_other, toned & ~nearer_other
    out = probs.copy()
    out[persons, ENTRY_CLASSES] += out[persons, PRINTED_CLASSES]
    out[persons, PRINTED_CLASSES] = 0.0
    out[printed_ink, PRINTED_CLASSES] += out[printed_ink, ENTRY_CLASSES]
    out[printed_ink, ENTRY_CLASSES] = 0.0
    return out


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
    return bool(_apart(entries, printed).any())


COLOUR_FEATURES = 9


def ink_colour_features(tones: np.ndarray) -> np.ndarray:
    """(SIZE*SIZE, COLOUR_FEATURES) each cell's ink colour beside the page's, from every
    cell's ink_tones: its tone less the page's median tone per channel, its chroma and
    lightness and how far each lies from the page's most neutral and darkest ink, how
    far its tone lies from the most neutral ink's, and whether it has ink.
    On a screen the person's digits come in a colour of their own; which colour that is
    varies from app to app, so the features are the page's contrasts, not the colours."""
    inked = ~np.isnan(tones[:, 0])
    tones = np.where(np.isnan(tones), 1.0, tones)
    chroma = tones.max(axis=1) - tones.min(axis=1)
    light = tones.mean(axis=1)
    if inked.any():
        median, neutral = np.median(tones[inked], axis=0), chroma[inked].min()
        darkest, middle = light[inked].min(), np.median(light[inked])
        plain = tones[np.flatnonzero(inked)[chroma[inked].argmin()]]
    else:
        median, neutral, darkest, middle = np.ones(tones.shape[1]), 0.0, 1.0, 1.0
        plain = np.ones(tones.shape[1])
    return np.column_stack([tones - median, chroma, chroma - neutral, light - darkest,
                            light - middle, np.abs(tones - plain).max(axis=1),
                            inked]).astype(np.float32)


def screen_grey(straight: np.ndarray) -> np.ndarray:
    """A screenshot's grid in grey for its cells' ink: each pixel's darkest channel. A
    digit in colour keeps its contrast there, which luminance gives away (a pure blue
    entry is no darker than mid grey, and a dark theme's blue entries, inverted, turn a
    light orange)."""
    return straight.min(axis=2) if straight.ndim == 3 else straight


FAINT_FEATURES = 4


def faint_ink_features(gray: np.ndarray) -> np.ndarray:
    """(SIZE*SIZE, FAINT_FEATURES) how much ink below the stroke level each cell's inset
    holds: its darkest pixel, its 99th percentile and the shares of pixels a tenth and a
    fifth as dark as the grid's ink. A screen's paper is one flat shade, so the pencil
    candidates of a hairline face, lighter than that level once a cell is 40 px, still
    stand out from a blank cell's nothing."""
    ink = ink_map(gray)
    m = int(STROKE_MARGIN * CELL)
    insets = ink[:SIZE * CELL, :SIZE * CELL].reshape(SIZE, CELL, SIZE, CELL).transpose(
        0, 2, 1, 3)[:, :, m:CELL - m, m:CELL - m].reshape(SIZE * SIZE, CELL - 2 * m, -1)
    # A grid line's or a title bar's edge reaching into the inset (a lattice a little
    # off) runs across it; a candidate digit never spans half of it: such rows and
    # columns are left out.
    faint = insets >= 0.1
    across = (faint.mean(axis=2, keepdims=True) >= 0.5) | (faint.mean(axis=1, keepdims=True)
                                                          >= 0.5)
    insets = np.where(across, 0.0, insets).reshape(SIZE * SIZE, -1)
    return np.column_stack([insets.max(axis=1), np.percentile(insets, 99, axis=1),
                            (insets >= 0.1).mean(axis=1) * 10,
                            (insets >= 0.2).mean(axis=1) * 10]).astype(np.float32)


def screen_features(straight: np.ndarray, tones: np.ndarray | None = None) -> np.ndarray:
    """The screens' model's feature rows: straight_features, the ink's colour
    (ink_colour_features of ink_tones, `tones` when the caller has them) and the faint
    ink of each cell in screen_grey (faint_ink_features)."""
    tones = ink_tones(straight) if tones is None else tones
    return np.hstack([straight_features(straight), ink_colour_features(tones),
                      faint_ink_features(screen_grey(straight))])
