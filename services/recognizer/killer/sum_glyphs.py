"""Cage sums: find the glyphs of the small number in a cell's top-left corner.

The corner of the straightened cell (SUM_CELL pixels a side) is cut into ink blobs. Blobs
that are digit-shaped (taller than wide, a sensible height), near the top and next to each
other on one text line form the sum; dash pieces of the cage outline are left out because
they are too short, too flat, or continue along the cell's side. Sums in one grid share
one text height, so blobs far from the grid's typical height are dropped too. Reading the
glyphs is killer/sums.py's.
"""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.cells.glyphs import Glyph, cut_column, trimmed
from services.recognizer.killer.sum_tuning import (
    BAR_GRAIN_SHARE,
    CLEAR_PAIR,
    CORNER,
    CORNER_BAND,
    CORNER_DOT,
    CORNER_SHARE,
    DASH_LIKE,
    DOT_ALIKE,
    EDGE,
    FAINT_PEAK,
    FAINTEST,
    FOOT_WIDER,
    GRAIN_SHARE,
    PAIR_WIDE,
    PIECE,
    REJOIN_FROM,
    ROW_GAP,
    ROW_TALL,
    SHIFTED,
    SHORTER_THAN_TALL,
    SIDE_CENTRED,
    SIDE_WIDTH,
    STROKE_SHARE,
    TALL_OUTLINE,
    TOUCH_HEIGHT,
    TOUCH_TOP,
    TOUCH_UPPER,
)


def corner_glyphs(ink_cell: np.ndarray, left_limit: float | None = None,
                  text_height: float = 0.0, below: int = 0) -> list[Glyph]:
    """Digit-shaped blobs on the top line of a cell's corner, left to right.

    `left_limit`: where the grid's numbers start (find_sums); a blob no taller than the
    grid's `text_height` that starts left of it over a line running on down the cell's
    side is the cage outline, not a digit. (A taller one is a digit joined to the
    outline in a blurred photo: its top is cut out later.) `below`: the rows above this
    one are left out (the outline's top line, where the grid sets its numbers under it:
    find_sums)."""
    p = ink_cell.shape[0]
    w_lim, h_lim = int(CORNER[0] * p), int(CORNER[1] * p)
    edge = int(round(EDGE * p))
    region = ink_cell[:h_lim, :w_lim].copy()
    region[:max(edge, below), :] = 0
    region[:, :edge] = 0
    # Grey print in a photo is fainter than the cage lines beside it: a stroke is ink at
    # least STROKE_SHARE as dark as the darkest ink nearby (never more than 0.25 needed).
    k = max(3, int(0.1 * p)) | 1
    nearby = cv2.dilate(region, np.ones((k, k), np.uint8))
    threshold = np.maximum(np.minimum(0.25, STROKE_SHARE * nearby), FAINTEST)
    strokes = _rejoined(region >= threshold, region >= np.maximum(0.5 * threshold, FAINTEST), p)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(strokes, connectivity=8)
    peak = np.zeros(count, np.float32)
    np.maximum.at(peak, labels.ravel(), region.ravel())
    blobs, set_aside = [], []  # set aside: thin bars taken for the outline
    running_on = []  # blobs from the top line on down the cell: a digit the person's touches
    for i in range(1, count):
        x, y, w, h, area = stats[i]
        if peak[i] < FAINT_PEAK:
            continue
        if y <= TOUCH_TOP * p and (h > 0.42 * p or y + h >= h_lim - 1):
            running_on.append(i)
        # Two large bold digits that touch are wider than half the cell (cut below).
        if not (0.09 * p <= h <= 0.42 * p and w <= max(0.5 * p, PAIR_WIDE * h)
                and h >= 1.05 * min(w, h * 0.6)):
            continue
        if area < 0.12 * h * max(2, w) or y > 0.3 * p:
            continue
        if y + h >= h_lim - 1 and y > 0.2 * p:
            continue  # runs on below the corner: a person's large digit, not the sum
        if along_top_left(region[y:y + h, x:x + w] * (labels[y:y + h, x:x + w] == i)):
            # The outline's corner, as tall as small text and above it (held-out textured:
            # a dashed or dotted corner read as '7' or '5', the number under it dropped).
            continue
        # A thin upright blob over ink running on down the cell's side may be a piece of
        # the cage outline -- or a '1' standing on it: decided below, against the text
        # height. A narrow '2' is not upright enough to be taken for the outline.
        line = w <= 0.09 * p and w < 0.5 * h and _continues_down(ink_cell, x, w, y + h)
        if left_limit is not None and x <= left_limit and h <= TALL_OUTLINE * text_height \
                and _continues_down(ink_cell, x, max(1, min(w, int(0.09 * p))), y + h):
            # The outline's side (a dash, or its corner turning down) left of it.
            set_aside.append((x, y, w, h, i, True))
            continue
        # ... unless the outline's next dash starts right under it: a '1' over the outline
        # stands on the paper box around the sum, a dash piece does not. The outline's
        # dashes are all alike: a bar far longer than those under it is no dash of it.
        if line and _dash_follows(ink_cell, x, w, y + h) \
                and _dash_like(ink_cell, x, w, h, y + h):
            set_aside.append((x, y, w, h, i, True))
            continue
        if w > CLEAR_PAIR * h:  # two digits that touch (bold faces): cut between them
            cut = cut_column(labels[y:y + h, x:x + w] == i)
            mask = labels[y:y + h, x:x + w] == i
            labels[y:y + h, x + cut:x + w][mask[:, cut:]] = count + i  # right part's label
            blobs.append((x, y, cut, h, i, False))
            blobs.append((x + cut, y, w - cut, h, count + i, False))
            continue
        blobs.append((x, y, w, h, i, line))
    for i in running_on:
        kept = [b for b in blobs if b[4] == i]  # short enough to pass for a digit
        top = _top_part(labels, i, stats[i], [b for b in blobs + set_aside if b[4] != i],
                        text_height, p)
        if top is not None:
            blobs = [b for b in blobs if b[4] != i] + [(*top, i, False)]
        elif kept:
            continue
    # The digits of a sum are printed in one ink: a blob far fainter than the darkest
    # digit-shaped one is grain of a textured ground clumped into a digit-sized shape
    # (it may be taller than the digits and would then be taken for the number).
    # A thin '1' over the outline's side is set aside as a bar (b[5]), yet printed: grain
    # beside a lone '1' is far fainter than it too (held-out textured: '1' read as '16').
    printed = [peak[b[4] % count] for b in blobs if not b[5]]
    bars = [peak[b[4] % count] for b in blobs if b[5]]
    floor = max(GRAIN_SHARE * max(printed, default=0.0), BAR_GRAIN_SHARE * max(bars, default=0.0))
    blobs = [b for b in blobs if peak[b[4] % count] >= floor]
    if not blobs:
        return []
    # The sum is the top line of the corner; its tallest blob is a digit (dots and dashes
    # are shorter, or lower down the cell's side); then its neighbours on that line.
    tall = max(b[3] for b in blobs)
    # Dots of a dotted outline beside the number are no digits (its corner's dots run
    # together nearly as tall as small digits, above the number). They are told from
    # the tallest blob off the outline's side (a long dash of the side may be taller).
    digit_tall = max((b[3] for b in blobs if not side_piece(ink_cell, b)), default=tall)
    blobs = [b for b in blobs if not _dotted_line_piece(stats, peak, b, digit_tall, p)]
    # A thin piece of the outline's side (its corner dots run together) may reach above
    # the number: it does not set the top line when something else as tall does.
    tall_ones = [b for b in blobs if b[3] >= 0.6 * tall]
    off_side = [b for b in tall_ones if not side_piece(ink_cell, b)]
    top = min(b[1] for b in off_side or tall_ones)
    blobs = [b for b in blobs if b[1] <= top + 0.5 * tall]
    blobs.sort(key=lambda b: (b[5], -b[3], b[1], b[0]))
    ax, ay, aw, ah, _, _ = blobs[0]
    # Digits of a number share their top and their baseline; a dot of the outline beside
    # the number is shorter and sits higher or lower, a thin dash of the outline's side as
    # tall as the digits starts and ends lower (or higher) than they do.
    line = [b for b in blobs if _overlap(b[1], b[3], ay, ah) >= 0.5 * min(b[3], ah)
            and 0.55 * ah <= b[3] <= 1.4 * ah and (not b[5] or b[3] >= 0.85 * ah)
            and (b[3] >= 0.8 * ah or abs(b[1] + b[3] - ay - ah) <= 0.3 * ah)
            and (not b[5] or min(abs(b[1] - ay), abs(b[1] + b[3] - ay - ah)) <= SHIFTED * ah)]
    line.sort(key=lambda b: b[0])
    # The outline runs right of and below the number: of the blobs as tall as the text
    # on its top line, the leftmost starts the number (a '1' before the outline's corner).
    first = next(b for b in line if b[3] >= 0.85 * ah and abs(b[1] - ay) <= 0.25 * ah)
    anchor = line.index(first)
    # Chain the neighbours: a gap wider than the text height ends the number.
    start = end = anchor
    while start > 0 and line[start][0] - (line[start - 1][0] + line[start - 1][2]) < 0.8 * ah:
        start -= 1
    while end + 1 < len(line) and line[end + 1][0] - (line[end][0] + line[end][2]) < 0.8 * ah:
        end += 1
    chosen = line[start:end + 1]
    # Digits of a number stand side by side: a first blob reaching a third of the way
    # over the next one is the cage outline's corner around it (Comfortaa: '4' read as
    # '14'). A sum has at most two digits: of three blobs, a first one that is a thin bar
    # over a line running on down the cell's side is the outline too ('|14' read as '11'),
    # as is the side's large dots run together into a column no wider than the digits
    # beside it (held-out Universalis Condensed on grain: '15' read as '21').
    if len(chosen) > 1 and (chosen[0][0] + chosen[0][2] > chosen[1][0] + 0.3 * chosen[1][2]
                            or (len(chosen) > 2 and (chosen[0][5]
                                                     or _side_column(ink_cell, chosen)))):
        set_aside += chosen[:1]
        chosen = chosen[1:]
    chosen = chosen[:2]
    glyphs = [trimmed(region * (labels == i), x, y, w, h) for x, y, w, h, i, _ in chosen]
    if len(chosen) == 2 and chosen[0][5]:
        glyphs[0].bar = True
    lead = _lead_bar(set_aside, chosen[0]) if len(chosen) == 1 else None
    if lead is not None:
        x, y, w, h, i, _ = lead
        glyphs[0].lead = trimmed(region * (labels == i), x, y, w, h)
    return glyphs


def side_piece(ink_cell: np.ndarray, blob: tuple) -> bool:
    """Whether a blob is thin and ink runs on under it down the cell: the outline's side."""
    x, y, w, h = blob[:4]
    return w <= SIDE_WIDTH * ink_cell.shape[0] and _continues_down(ink_cell, x, w, y + h)


def _side_column(ink_cell: np.ndarray, chosen: list) -> bool:
    """Whether the first of a number's blobs is the outline's side: thin, or no wider than
    the others with ink running on down the cell centred under it (a deeply inset
    outline's side runs down under the left of a sum's first digit)."""
    x, y, w, h = chosen[0][:4]
    if side_piece(ink_cell, chosen[0]):
        return True
    if w > max(b[2] for b in chosen[1:]) or not _continues_down(ink_cell, x, w, y + h):
        return False
    below = ink_cell[y + h + 1:int(0.85 * ink_cell.shape[0]), max(0, x - 1):x + w + 1]
    weight = (below >= 0.35).sum(axis=0)
    centre = float((weight * np.arange(len(weight))).sum() / max(1, weight.sum()))
    return abs(centre - (x - max(0, x - 1)) - (w - 1) / 2) <= SIDE_CENTRED * w


def _dotted_line_piece(stats: np.ndarray, peak: np.ndarray, blob: tuple, tall: int,
                       p: int) -> bool:
    """Whether a blob clearly shorter than the tallest one (a digit) is a piece of a dotted
    line: printed pieces of its size (DOT_ALIKE) stand near it on both sides, centred on
    its row (the outline's top line) or on its column (its side); or it is the outline's
    top-left corner, the first dots of both lines run together: smaller dots (CORNER_DOT)
    stand right of it, level with its top, and under it, in line with its left, and
    nothing of its size left of it or above it. A sum's digits are as tall as one
    another, the outline's dots beside a digit are far smaller than it, a digit on the
    corner (a paper box) breaks the lines there, and grain is fainter than print."""
    x, y, w, h, i = blob[:5]
    if h >= SHORTER_THAN_TALL * tall:
        return False
    own = i % len(stats)  # the blob's label (a digit cut from a touching pair: the pair's)
    low, high = DOT_ALIKE

    def alike(bw: int, bh: int) -> bool:  # a dot of the same line: as wide and as tall
        return low * w <= bw <= high * w and low * h <= bh <= high * h

    sides = set()
    for j in range(1, len(stats)):
        if j == own or peak[j] < GRAIN_SHARE * peak[own]:
            continue
        bx, by, bw, bh, _ = stats[j]
        # Along the row (x along, y across), then along the column (y along, x across).
        for (at, across, long, size), (b_at, b_across, b_long, b_size), names in (
                ((x, y, w, h), (bx, by, bw, bh), ("left", "right", "corner right")),
                ((y, x, h, w), (by, bx, bh, bw), ("up", "down", "corner down"))):
            if _overlap(across, size, b_across, b_size) < 0.5 * min(size, b_size) or \
                    max(b_at - at - long, at - b_at - b_long) >= ROW_GAP * p:
                continue
            centred = abs(2 * b_across + b_size - 2 * across - size) <= 2 * SHIFTED * size
            if alike(bw, bh) and centred:
                sides.add(names[0] if b_at < at else names[1])
            if b_at > at and CORNER_DOT[0] * size <= b_size <= CORNER_DOT[1] * size \
                    and abs(b_across - across) <= SHIFTED * b_size:
                sides.add(names[2])
            break  # level with it: no piece of its column
    if {"corner right", "corner down"} <= sides and not sides & {"left", "up"}:
        return True
    return {"left", "right"} <= sides or {"up", "down"} <= sides


def along_top_left(ink: np.ndarray) -> bool:
    """Whether a blob's ink lies along the top and left of its box only: a corner."""
    total = float(ink.sum())
    if total <= 0:
        return False
    h, w = ink.shape
    band = np.zeros(ink.shape, bool)
    band[:max(1, round(CORNER_BAND * h))] = True
    band[:, :max(1, round(CORNER_BAND * w))] = True
    return float(ink[band].sum()) >= CORNER_SHARE * total


def _top_part(labels: np.ndarray, i: int, stat: np.ndarray, blobs: list,
              text_height: float, p: int) -> tuple | None:
    """(x, y, w, h) of the top of blob `i`, a sum's digit that the person's large digit
    below it touches, cut off one text height under its top; `labels` lose the rest.
    None when no text height is known or the top is no digit's shape.

    The text height is that of the digits (or bars set aside as the outline: a '1') beside
    it on the line (`blobs` found so far), else the grid's (`text_height`, known in
    find_sums' second look). The person's digit often overlaps the sum's foot along its
    width (a '5' whose bar lies along a '2's foot): the digit's width is taken from its
    upper rows, above where they meet.
    """
    x, y, w, h, _ = stat
    beside = [b[3] for b in blobs if abs(b[1] - y) <= SHIFTED * b[3]]
    height = max(beside, default=0) or text_height
    if not height:
        return None
    cut = y + int(round(TOUCH_HEIGHT * height))
    if cut >= y + h - 1:
        return None  # no taller than the text: nothing runs on below it
    mask = labels[y:cut, x:x + w] == i
    cols = np.flatnonzero(mask[:int(TOUCH_UPPER * len(mask))].any(axis=0))
    if cols.size == 0:
        return None
    left, right = x + int(cols[0]), x + int(cols[-1]) + 1
    if right - left > 0.5 * p or right - left > 1.2 * height:
        return None  # an outline's corner and side, not a digit
    if right - left <= 0.09 * p and right - left < 0.5 * height:
        return None  # a thin bar running on down the cell's side: the outline
    keep = np.zeros_like(labels, bool)
    keep[y:cut, left:right] = labels[y:cut, left:right] == i
    labels[(labels == i) & ~keep] = 0
    return left, y, right - left, cut - y


def _lead_bar(bars: list, first: tuple) -> tuple | None:
    """The bar set aside as the outline that stands just left of a one-glyph number, its
    top and foot level with the digit's: it may be the number's '1'."""
    fx, fy, _, fh = first[:4]
    level = [b for b in bars if b[2] < 0.5 * b[3] and b[0] + b[2] <= fx + 1
             and fx - b[0] - b[2] < 0.8 * fh and abs(b[1] - fy) <= SHIFTED * fh
             and abs(b[1] + b[3] - fy - fh) <= SHIFTED * fh]
    return max(level, key=lambda b: b[0], default=None)


def _rejoined(strong: np.ndarray, weak: np.ndarray, p: int) -> np.ndarray:
    """The stroke mask, with a digit broken at a hairline put back together.

    Small serif digits have hairlines fainter than the stroke threshold ('2's diagonal):
    the digit falls into a top piece and a foot. Where, right under a piece, another one
    starts within two pixels and spans half its width or more, and fainter ink bridges
    every row between them, the bridge joins them (the foot may already touch the next
    digit; the pair cut below separates the two digits again). The top piece may be as
    small as a '1's flag (a small face's hairline stem is fainter than the threshold)
    when its foot is wider than it and it stands alone (not a dash of the outline's
    side over the next dash, nor a dot of its top line).
    """
    mask = strong.astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    for a in range(1, count):
        x, y, w, h, _ = stats[a]
        if not REJOIN_FROM * p <= h <= 0.42 * p:
            continue
        if h < PIECE * p and _in_a_row(stats, a, p):
            continue  # a dot of a dotted outline over the number, no digit's flag
        below = labels[y + h:y + h + 3, x:x + w]
        hits = below[(below > 0) & (below != a)]
        if hits.size == 0:
            continue
        b = np.bincount(hits).argmax()
        if stats[b][1] + stats[b][3] - y > 0.42 * p:
            continue  # the piece below reaches too far down for one line of text
        if (below == b).any(axis=0).sum() < 0.5 * w:
            continue  # a foot spans the digit; a dash of the outline below does not
        if h < PIECE * p and stats[b][2] < FOOT_WIDER * w:
            continue  # a dash of the outline's side over the next one: no flag over a foot
        rows = np.flatnonzero((below == b).any(axis=1))
        bridge = weak[y + h - 1:y + h + int(rows[0]) + 1, x:x + w]
        if bridge.any(axis=1).all():
            mask[y + h - 1:y + h + int(rows[0]) + 1, x:x + w] |= bridge.astype(np.uint8)
    return mask


def _in_a_row(stats: np.ndarray, a: int, p: int) -> bool:
    """Whether two other pieces about as small stand level with piece `a`, near it: dots
    or dashes of an outline's line, where a '1's flag stands alone (the digit beside it
    is far taller) or beside one other flag ('11')."""
    x, y, w, h, _ = stats[a].astype(np.int64)
    bx, by, bw, bh = stats[1:, :4].astype(np.int64).T  # every piece at once: grain makes many
    level = (bh <= ROW_TALL * h) & (np.minimum(y + h, by + bh) > np.maximum(y, by)) \
        & (np.maximum(bx - x - w, x - bx - bw) < ROW_GAP * p)
    level[a - 1] = False
    return int(level.sum()) >= 2


def _overlap(y0: int, h0: int, y1: int, h1: int) -> int:
    return max(0, min(y0 + h0, y1 + h1) - max(y0, y1))


def _dash_follows(ink_cell: np.ndarray, x: int, w: int, bottom: int) -> bool:
    """Whether dark ink resumes within a pixel under a thin blob, in its own columns."""
    below = ink_cell[bottom:bottom + 2, max(0, x - 1):x + w + 1]
    return below.size > 0 and float(below.max()) >= 0.4


def _dash_like(ink_cell: np.ndarray, x: int, w: int, h: int, bottom: int) -> bool:
    """Whether a bar `h` high could be one of the outline's dashes under it: no more
    than DASH_LIKE times as long as the longest whole dash there (a solid or unbroken
    line under it: yes)."""
    p = ink_cell.shape[0]
    band = ink_cell[bottom:int(0.95 * p), max(0, x - 1):x + w + 1]
    if band.shape[0] < 2:
        return True
    inked = np.concatenate([[False], band.max(axis=1) >= 0.35, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(inked))
    starts, ends = edges[::2], edges[1::2]
    whole = ends[ends < band.shape[0]] - starts[ends < band.shape[0]]
    return whole.size == 0 or h <= DASH_LIKE * float(whole.max())


def _continues_down(ink_cell: np.ndarray, x: int, w: int, bottom: int) -> bool:
    p = ink_cell.shape[0]
    below = ink_cell[bottom + 1:int(0.85 * p), max(0, x - 1):x + w + 1]
    if below.shape[0] < 0.2 * p:
        return False
    return float((below.max(axis=1) >= 0.35).mean()) > 0.3


def cell_ink(ink: np.ndarray, r: int, c: int, n: int = 9) -> np.ndarray:
    """Cell (r, c) of a straightened n x n ink map."""
    p = ink.shape[0] // n
    return ink[r * p:(r + 1) * p, c * p:(c + 1) * p]
