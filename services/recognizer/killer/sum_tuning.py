"""The cage sum reader's tuned constants (killer/sum_glyphs.py finds, killer/sums.py reads).

Fitted on rendered killers with known sums (gridsight/synth); the effect
of a change shows in `.venv/bin/python bench/recognition_killer.py --quick` (see
docs/benchmarks.md).
"""

from __future__ import annotations

SUM_CELL = 80  # pixels per cell when reading sums
CORNER = (0.8, 0.52)  # width, height of the corner looked at, as shares of the cell
EDGE = 0.06  # ink this close to the cell's edge is the grid line
MAX_CANDIDATES = 20  # a digit lost in a photo spreads a sum over ten values or more
CLEAR_PAIR = 1.1  # a blob this much wider than tall is two digits
PAIR_WIDE = 2.2  # ... and at most this much wider than tall
MAYBE_PAIR = 0.8  # from here to CLEAR_PAIR it may be one wide digit or two
PAIR_RATIO, PAIR_SPREAD = 1.3, 0.07  # glyph width / digit width where two digits get likely
# A glyph from this many of the grid's digit widths on may be two digits though narrower
# than MAYBE_PAIR: condensed faces set tight join their two-digit numbers ('17' in Bebas
# Neue: 0.72 of its height, its lone digits 0.42-0.53), all of them or only those with
# a '1' (a hairline face at small cells: '10' one glyph beside '27' as two).
JOINED_FROM = 1.4
# The whole-number reader also sees a number's two digits this many text heights apart
# where they stand closer (or were cut from one glyph): at its coarse scale the strokes
# of a hairline '1' and '0' a pixel apart merge, and it reads '11' (Bebas Neue Light).
SET_APART = 0.12
APART_SHARE = 0.5  # ... the share of that view in its reading of two glyphs
JOINED_PERCENTILE = 30  # the lone digits' width: most numbers of one glyph are wider
RECUT_PRIOR = 0.3  # prior that two glyphs apart in the picture are cut elsewhere
MISSED_DIGIT = 0.02  # prior that a sum's second digit went unseen
MAX_SUM = 45
STROKE_SHARE = 0.35  # a stroke is at least this share as dark as the darkest ink nearby
FAINTEST = 0.08  # below this darkness, paper noise
FAINT_PEAK = 0.2  # a blob whose darkest pixel is fainter than this is no print
LEFT_SLACK = 0.15  # text heights a number may start left of where the grid's numbers do
TALL_OUTLINE = 1.25  # text heights an outline piece beside a number may reach
START_PERCENTILE = 20  # where the grid's numbers start: outline pieces are a few heads' first
SHIFTED = 0.25  # text heights a digit's top or baseline may lie off the number's
# A piece this share of the cell high may be a digit's top broken off at a hairline: a
# small face's '1' keeps only its flag above its faint stem (FreeMono at 38-px cells).
REJOIN_FROM = 0.03
PIECE = 0.08  # ... while a top piece this high or more is a digit's part anyway
ROW_GAP = 0.25  # share of the cell between two pieces of one outline's dotted line
ROW_TALL = 2.0  # ... each at most this many times as tall as the other
FOOT_WIDER = 1.5  # a '1's foot is this many times as wide as its flag and stem's top
NUMBER_H, NUMBER_W = 24, 48  # the whole number's normalised image (text height 20 px)
NUMBER_TEXT = 20
DASH_LIKE = 1.5  # a bar this much longer than the outline's dashes is no dash of it
TOUCH_TOP = 0.3  # a blob starting this far down (share of the cell) may be a sum's digit ...
TOUCH_HEIGHT = 1.05  # ... cut this many text heights under its top,
TOUCH_UPPER = 0.7  # ... as wide as its ink in this upper share of that
GRAIN_SHARE = 0.4  # a blob whose darkest ink is fainter than this share of the digits'
# ... or than this share of a thin bar's on the top line (a '1' over the outline's side,
# or the outline: printed ink either way, and grain is far fainter than both)
BAR_GRAIN_SHARE = 0.3
BAR_DOUBT = 0.15  # prior that a thin bar beside a number was put on the wrong side
# The cage outline's corner lies along the top and left of its box, at least CORNER_SHARE
# of its ink in the outer CORNER_BAND of each (digits: at most 0.77, a '7' in a serif face).
CORNER_BAND, CORNER_SHARE = 0.3, 0.85
SIDE_WIDTH = 0.1  # an outline side's piece is at most this share of the cell wide
OUTLINED_HEADS = 0.5  # share of heads with an outline's top line: the grid draws them
CORNER_GAP = 1.0  # a side dash at most this many of its heights under the top line hangs from it
# A '1' with its flag, as tall as the sums within this share of their height: the flag
# reaches left of the stem in its top rows (ONE_FLAG_ROWS of them at most) by at least
# half the stem's width, the stem's left edge right of where the sums start. An outline's
# side is a bar without a flag, standing left of the sums (they are set inside it), and
# its corner turns right, not left.
ONE_TALL = 0.1
ONE_FLAG_ROWS = 0.4
NARROW = 0.45  # a glyph narrower than this share of its height is a bar
SIDE_CENTRED = 0.25  # ... or the ink under it is centred under it within this share of its width
# A blob shorter than this share of the tallest digit, with dots of a dotted outline on
# both sides of it in a row or a column, is a dot of the outline, not a digit.
SHORTER_THAN_TALL = 0.9
DOT_ALIKE = (0.6, 1.5)  # ... dots of one line: this share of its height and width
CORNER_DOT = (0.4, 0.8)  # ... or, somewhat larger than the dots beside it, its corner
# The outline's top line across the corner: rows in the top LINE_ZONE of the cell inked
# over LINE_SHARE of the corner's columns from LINE_FROM on (right of most numbers), at
# most LINE_ROWS of the cell thick. A grid sets its numbers under the line when at least
# UNDER_MIN of them, and UNDER_SHARE of those with a line found, start below it.
LINE_ZONE, LINE_FROM, LINE_SHARE, LINE_ROWS = 0.3, 0.6, 0.3, 0.1
UNDER_MIN, UNDER_SHARE = 3, 0.6
DIGIT_OF_TALLEST = 0.6  # a glyph this share of its number's tallest may be a digit
# Fewer numbers under it: a glyph on the line this much taller than the digits under it
# joined the line, when without the line's rows it is as tall as they are (within this).
JOINED_TALLER, TEXT_ALIKE = 1.2, 0.15
