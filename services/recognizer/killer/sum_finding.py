"""Cage sums across the grid: each cage head's glyphs found (killer/sum_glyphs.py), one text
height for the grid, and numbers printed under an outline's top line told from its pieces.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from services.recognizer.cells.glyphs import Glyph, trimmed
from services.recognizer.killer.sum_glyphs import cell_ink, corner_glyphs, side_piece
from services.recognizer.killer.sum_tuning import (
    CORNER,
    CORNER_GAP,
    DIGIT_OF_TALLEST,
    EDGE,
    GRAIN_SHARE,
    JOINED_TALLER,
    LEFT_SLACK,
    LINE_FROM,
    LINE_ROWS,
    LINE_SHARE,
    LINE_ZONE,
    NARROW,
    ONE_FLAG_ROWS,
    ONE_TALL,
    OUTLINED_HEADS,
    START_PERCENTILE,
    TEXT_ALIKE,
    UNDER_MIN,
    UNDER_SHARE,
)


def find_sums(ink: np.ndarray, heads, maybe=(), n: int = 9
              ) -> dict[tuple[int, int], list[Glyph]]:
    """{cell: its sum's glyphs} for the cells in `heads` and `maybe` whose corner holds one.

    `heads` are the cells the walls make the first of their cage; `maybe` are cells that
    would be so if a doubtful wall were read the other way. The heads' text height is the
    grid's: blobs far from it are dashes or specks, not numbers.
    """
    found = {}
    for r, c in list(heads) + list(maybe):
        glyphs = corner_glyphs(cell_ink(ink, r, c, n))
        if glyphs:
            found[(r, c)] = glyphs
    found = _under_the_line(ink, found, n)
    sure = [found[cell][0].h for cell in heads if cell in found]
    if not sure:
        return {}
    typical = float(np.median(sure))
    # The numbers of one grid are set alike, from the same place in their corner (their
    # first digits' bearings differ by a fifth of the text height). Ink starting left of
    # where nearly all of them start, over a line running on down the cell's
    # side, is the outline: a dash broken off beside the number ('19' read as '1' '1' in
    # the textured style) or the outline's corner ('6' read as '16').
    start = float(np.percentile([found[cell][0].x for cell in heads if cell in found],
                                START_PERCENTILE))
    limit = start - LEFT_SLACK * typical
    for cell, gs in list(found.items()):
        if gs[0].x <= limit:
            again = corner_glyphs(cell_ink(ink, *cell, n), limit, typical)
            if again:
                found[cell] = again
            else:
                # Nothing but the outline: two of a dotted side's dots, joined by the
                # faint ink between them, pass for an '8' (held-out print: a sum read in
                # a blank cell whose top wall was in doubt).
                del found[cell]
    # Under a cage's first cell, the cage's inset side runs down through the corner of
    # each cell. Where a doubtful wall makes such a cell a maybe-head, a lone bar of that
    # side with no flag is no '1' when no outline's top line crosses the corner, as a
    # cage's first cell has (held-out textured: a dash read '1' at 0.998, and the repair
    # never settled), or when the top line turns down into the bar: the outline's corner
    # of a cage whose first cell lies elsewhere (held-out web: an L-shaped cage's lower
    # corner read '1'). A number the outline runs around breaks the line above it.
    if sum(top_line(cell_ink(ink, *cell, n)) is not None for cell in heads) \
            >= OUTLINED_HEADS * len(heads):
        for cell in maybe:
            gs, raw = found.get(tuple(cell)), cell_ink(ink, *cell, n)
            if gs and len(gs) == 1 \
                    and side_piece(raw, (gs[0].x, gs[0].y, gs[0].w, gs[0].h)) \
                    and not flagged_one(gs[0], start, typical):
                line = top_line(raw)
                if line is None or _turns_down_into(raw, line, gs[0]):
                    del found[tuple(cell)]
    # The grid prints its numbers in one ink: in a maybe-head, a number far fainter than
    # the heads' is grain of a textured ground clumped into a digit's shape (held-out
    # textured: a '6' at 0.22 of the sums' darkness, in an empty cell under a doubtful
    # wall, and the repair never settled).
    printed = float(np.median([peak_ink(found[cell]) for cell in heads if cell in found]))
    for cell in maybe:
        if tuple(cell) in found and peak_ink(found[tuple(cell)]) < GRAIN_SHARE * printed:
            del found[tuple(cell)]
    # A head whose lone digit the person's digit touches: looked at again, now that the
    # text height is known.
    for cell in heads:
        if tuple(cell) not in found:
            again = corner_glyphs(cell_ink(ink, *cell, n), text_height=typical)
            if again:
                found[tuple(cell)] = again
    # Digits on a line share their top and height: ink hanging below that (or, beside a
    # digit of the text's height, above it) is a piece of the cage outline that touches
    # the number.
    found = {cell: _cut_number(gs, typical) for cell, gs in found.items()}
    return {cell: gs for cell, gs in found.items() if 0.65 * typical <= gs[0].h <= 1.35 * typical}


def peak_ink(glyphs: list[Glyph]) -> float:
    """The darkest ink of a number's glyphs."""
    return max(float(g.image.max()) for g in glyphs)


def _turns_down_into(ink_cell: np.ndarray, line: tuple[int, int], glyph) -> bool:
    """Whether the outline's top `line` (top_line) runs over the glyph's columns just
    above it (the corner's arm and a dash's break between at most): its corner, turning
    down into the side."""
    if glyph.y - line[1] - 1 > max(line[1] - line[0] + 2, CORNER_GAP * glyph.h):
        return False
    over = ink_cell[line[0]:line[1] + 1, glyph.x:glyph.x + glyph.w] >= 0.35
    return bool(over.any(axis=0).mean() >= 0.5)  # its faint anti-aliased edge aside


def flagged_one(glyph, x0: float, tall: float) -> bool:
    """Whether a glyph is a '1' set as the grid's sums are (their start `x0`, their height
    `tall`): a stem as tall as they are, of the same width in every lower row, with a flag
    reaching left from its top (ONE_TALL, ONE_FLAG_ROWS). A lone narrow bar is the cage
    outline's side as well; the flag and the stem's place tell the digit."""
    if abs(glyph.h - tall) > ONE_TALL * tall or glyph.h < 6:
        return False
    dark = glyph.image >= 0.5 * glyph.image.max()
    h = dark.shape[0]
    lower = dark[h // 2:h - max(1, h // 6)]  # above a serif foot
    spans = [np.flatnonzero(row) for row in lower]
    if any(len(s) == 0 or s[-1] - s[0] + 1 != len(s) for s in spans):
        return False  # the stem is one solid run in every lower row
    left = int(np.median([s[0] for s in spans]))
    right = int(np.median([s[-1] for s in spans]))
    stem = right - left + 1
    if stem > NARROW * h or glyph.x + left <= x0:
        return False
    top = dark[:max(2, int(ONE_FLAG_ROWS * h))]
    inked = np.flatnonzero(top.any(axis=0))
    if len(inked) == 0:
        return False  # the glyph's box reaches above its dark ink: faint top, no flag
    reach = int(inked[0])
    # The flag stays level with the stem's top: no ink right of the stem up there (an
    # outline corner turning right) nor left of it lower down.
    return left - reach >= max(2.0, 0.5 * stem) and not top[:, right + 2:].any() \
        and not dark[int(ONE_FLAG_ROWS * h):h - max(1, h // 6), :max(0, left - 1)].any()


def top_line(ink_cell: np.ndarray) -> tuple[int, int] | None:
    """(first, last) row of the cage outline's top line across the cell's corner, or None.

    The line (solid, dashes or dots) is inked over much of the corner right of where
    numbers reach, a line's thickness high, near the top of the cell.
    """
    p = ink_cell.shape[0]
    edge = int(round(EDGE * p))
    inked = ink_cell[:int(LINE_ZONE * p), int(LINE_FROM * p):int(CORNER[0] * p)] >= 0.35
    share = inked.mean(axis=1)
    share[:edge] = 0  # the grid line
    rows = np.flatnonzero(share >= LINE_SHARE)
    if rows.size == 0:
        return None
    first = last = int(rows[0])
    while last + 1 < len(share) and share[last + 1] >= LINE_SHARE:
        last += 1
    return (first, last) if last - first + 1 <= LINE_ROWS * p else None


def _under_the_line(ink: np.ndarray, found: dict, n: int) -> dict:
    """The numbers looked at again under the outline's top line, where the grid sets them
    there: a digit that touches the line above it joins it (a dash on a '9' reads '6', two
    digits joined through the dots read as one), so its blob starts on the line.

    Where most numbers of the grid have a digit starting below their cell's top line,
    those with a glyph starting on it are found again without the rows down to the
    line's last. A digit counts, not the number's first glyph: that may be the outline's
    side, its dots run together from the top line down (held-out Universalis Condensed on
    grain: 13 sums of a grid). Where fewer do (large dots close over small condensed
    digits join most of them), a number is found again when a glyph starting on the line
    is clearly taller than the digits under it elsewhere, and the new one is as tall as
    those. A grid whose numbers sit level with the line (a paper box breaks it around
    them) has no digits under it, and is left as it is.
    """
    lines = {cell: top_line(cell_ink(ink, *cell, n)) for cell in found}
    lines = {cell: line for cell, line in lines.items() if line}
    under = {cell: _digits_under(found[cell], line) for cell, line in lines.items()}
    heights = [g.h for gs in under.values() for g in gs]
    numbered = sum(bool(gs) for gs in under.values())
    if numbered < UNDER_MIN:
        return found
    most = numbered >= UNDER_SHARE * len(lines)
    text = float(np.median(heights))
    out = dict(found)
    for cell, line in lines.items():
        on_line = [g for g in found[cell] if g.y <= line[1]]
        if not on_line or not most and max(g.h for g in on_line) < JOINED_TALLER * text:
            continue
        again = corner_glyphs(cell_ink(ink, *cell, n), below=line[1] + 1)
        if again and (most or abs(max(g.h for g in again) - text) <= TEXT_ALIKE * text):
            out[cell] = again
    return out


def _digits_under(glyphs: list[Glyph], line: tuple[int, int]) -> list[Glyph]:
    """The glyphs as tall as a digit (the outline's dots are far shorter) that start below
    the top line."""
    tallest = max(g.h for g in glyphs)
    return [g for g in glyphs if g.y > line[1] and g.h >= DIGIT_OF_TALLEST * tallest]


def _cut_number(glyphs: list[Glyph], height: float) -> list[Glyph]:
    """The number's glyphs cut to the text's rows: a digit joined to the outline's dots
    above it (held-out textured, Roboto: '15' read as '12') is cut to the rows of the
    other digit when that one is as tall as the grid's text and on the same baseline."""
    if len(glyphs) == 2:
        short, tall = sorted(glyphs, key=lambda g: g.h)
        if 0.85 * height <= short.h <= 1.15 * height < tall.h \
                and abs(short.y + short.h - tall.y - tall.h) <= 0.15 * height:
            top = max(0, short.y - tall.y)
            part = trimmed(tall.image[top:top + short.h], 0, 0, tall.w, short.h)
            cut = replace(tall, x=tall.x + part.x, y=tall.y + top + part.y, w=part.w,
                          h=part.h, image=part.image)
            return [cut if g is tall else g for g in glyphs]
    return [_cut_to(g, height) for g in glyphs]


def _cut_to(glyph: Glyph, height: float) -> Glyph:
    if glyph.h <= 1.15 * height:
        return glyph
    keep = int(round(1.05 * height))
    g = trimmed(glyph.image[:keep], 0, 0, glyph.w, keep)
    return replace(glyph, x=glyph.x + g.x, y=glyph.y + g.y, w=g.w, h=g.h, image=g.image)
