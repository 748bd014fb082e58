"""The killer reader's tuned constants but the sums' (those are in sum_tuning.py), in
sections named after the module of each.

Fitted on rendered killers of known cages (gridsight/synth/killer_render.py); a constant
whose note gives no fit was set by hand. Each section names the bench that measures it
(figures in docs/benchmarks.md); all show in

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/recognition_killer.py --quick
"""

from __future__ import annotations

import numpy as np

# cage_lattice.py: set by hand unless the note says how it was fitted; measured by
# bench/recognition_killer.py (walls right)
TRACE_CELL = 32  # pixels per cell while tracing grid lines
# A line at least this share of a cell further out than the strongest one near the
# grid's frame, at least OUTER_SHARE as strong, and within OUTER_NEAR of a cell of where
# the corners put it, is the frame (_outermost).
OUTER_SLIP, OUTER_SHARE, OUTER_NEAR = 0.05, 0.3, 0.15

# cages.py: set by hand unless the note says how it was fitted; measured by
# bench/recognition_killer.py and bench/killer_failures.py (walls)
WALL_CELL = 48  # pixels per cell side in the straightened grid
REACH = 0.36  # profile spans this share of a cell on each side of the grid line
SPAN = (0.28, 0.72)  # the part along an edge that is measured (corners hold turns and sums)
# A large digit (a given, the person's entry, handwriting) is a blob at least this share of
# a cell tall, at most this wide, inside one cell, its box centred within these shares.
DIGIT_TALL, DIGIT_WIDE = 0.3, 0.62
DIGIT_CENTRED_ACROSS, DIGIT_CENTRED_DOWN = 0.2, 0.24
LINE_RUN = 0.15  # a large digit's row (column) with other ink along this share: an outline
CROSSING = 0.3  # a column (row) inked along this share of the cell crosses a row (column)
LINE_OWN = 0.05  # ... and the row holds this share of ink besides the lines crossing it
NOTE_TALL, NOTE_WIDE = (0.12, 0.32), 0.1  # a pencil note's height range, least width
NOTE_MIDDLE = 0.28  # cage outlines lie at most 0.22 of a cell in from its edges
GRID_BAND = 0.04  # a grid line's half width, as a share of the cell
DIGIT_INK = 0.35  # stroke level large digits are found at (lighter than the wall model's)
NOTE_INK = 0.15  # pencil notes' strokes, as light as they come
OUTLINE_RUN = 0.5  # ink along a row or column of this share of a cell is a line
DASH_GAP = 0.1  # ... its dashes or dots this share of a cell apart at most
OUTLINE_BAND = 0.3  # ... within this share of a cell of the cell's side
PENCIL_SHARE = 0.55  # a blob with fewer of its pixels strokes is pencil (print: 0.7-0.9)
# A note's row is an outline's with this share of the cell of ink outside the note, or,
# the note covering it, with dashes along NOTE_LINE_RUN of the cell.
NOTE_LINE_OUT, NOTE_LINE_RUN = 0.08, 0.2
# A row of notes: blobs with middles this close in height, reaching this far right,
# the row's middle this far right at least (a sum's two digits: up to about 0.35).
NOTE_ROW_SPREAD, NOTE_ROW_END, NOTE_ROW_MIDDLE = 0.12, 0.58, 0.44
NOTE_ROW_GAP = 0.12  # notes of a row stand at most this far apart
NOTE_PIECE = 0.08  # a piece of a note: at least this tall and wide (dots and dashes are not)
NOTE_ROW_HEIGHTS = 0.45  # ... and its height within this share of its neighbour's
NOTE_ROW_ALIKE = 0.2  # notes of a row: heights this close (a share of the taller)
# Lattice shifts, in pixels of the straightened grid, at which the walls are read. A cage
# line a pixel or so wide, shrunk onto CELL-pixel cells, keeps its darkness only where a
# sample falls on it; half a pixel off, it lands half on each neighbour, under the stroke
# threshold, and a hairline dotted wall reads as none. Where the lattice lies to a fraction
# of a pixel decides which, and nothing in the picture pins that down. Cells smaller than
# CELL are stretched: samples closer than a pixel always fall on a line there, and more
# phases only found false walls in grain (held-out textured at 38-px cells).
PHASES = (0.0, 0.5, -0.5)

# hairlines.py: set by hand; measured by bench/recognition_killer.py --only huge_hairline
# (walls right, kind right) and bench/recognition.py (classic photos stay classic)
HAIRLINE_FROM = 1.5  # cells shrunk at least this many times for the wall model are looked at
HAIRLINE_BAND = 0.2  # a cage line lies within this share of a cell of its grid line
FAINTEST = 0.06  # its mean ink along the edge at least (1-px dots 4 px apart: about 0.1)
VALLEY = 0.5  # the paper each side of it at most this share of its ink
PARTS, EVEN = 4, 0.4  # ... and all of PARTS stretches of the edge but one this share of it
# Grid lines whose profiles agree within ALIKE at every distance are drawn alike; the grid's
# lines are when ALIKE_SHARE of the edges of each such group do (own_profiles).
ALIKE, ALIKE_SHARE = 0.05, 0.2
STRAIGHT = 0.9  # a straight line's column: this share of either neighbour's ink on every edge
HAIRLINE_SURE = 0.95  # an edge with such a line on both sides is a wall this likely at least

# fills.py: set by hand unless the note says how it was fitted; measured by
# bench/recognition_killer.py (its styles with cages as fills)
FILL_CELL = 24  # pixels per cell when sampling fills
FILL_INSIDE = (0.15, 0.85)  # the part of a cell sampled, clear of the grid lines
SAME_FILL, FILL_SPREAD = 6.0, 1.2  # delta E where a wall becomes likely, and how sharply
SURE = 0.98  # colour alone never makes a wall certain
CHROMA = 6.0  # a cell this far from grey is coloured
COLOURFUL = 0.5  # a grid with this share of coloured cells may have cages as fills
LINE_CELL = 32  # pixels per cell when sampling the colour of the lines between cells
LINE_BAND = 3  # pixels each side of a grid line where a boundary drawn on it lies
LINE_CHROMA = 25.0  # a boundary line at least this colourful (CIELAB chroma) ...
GREY_LINE = 10.0  # ... on a grid whose own lines are at most this colourful
LINE_SHARE = (0.2, 0.85)  # share of edges that are walls in a killer grid

# marks.py: set by hand unless the note says how it was fitted; measured by
# bench/killer_handwriting.py and bench/recognition_killer.py --only progress handwritten
MARK_CELL = 48  # pixels per straightened cell
STROKE = 0.35  # ink at least this dark is a stroke
FAINT_STROKE = 0.15  # ... or, for pencil notes, this dark and NOTE_SHARE of the ink near
NOTE_SHARE = 0.45
LARGE = 0.33  # a digit at least this share of the cell tall is an entry or a given ...
LARGE_BESIDE_SUM = 0.22  # ... or this, below a cage sum (apps draw it smaller there)
WIDE = 0.14  # a large digit narrower than this is a '1' or two notes stacked
PINCH = 0.6  # a narrow blob this much narrower mid-way: two stacked notes
NOTE_LOW, NOTE_HIGH = 0.08, 0.21  # a pencil note's height as a share of the cell
HAND_NOTE_LOW, HAND_NOTE_HIGH = 0.15, 0.32  # ... written by hand, in a row (_written_notes)
HAND_NOTE_WIDE = 0.08  # ... one at least this wide (cage dashes side by side are thin)
ROW_SPREAD = 0.12  # the notes of a row have their middles this close in height
WIDER = 1.2  # touching notes: a blob this many times wider than tall
DOTS, DOT_ALIGN = 4, 0.04  # a dotted line: this many alike blobs in a line, to this share
DOT_SIZE = 0.1  # ... each dot at most this share of the cell
NOTES_INSIDE = 0.24  # notes are looked for this far in from the cell's edges (cages run outside)
EDGE = 0.1  # the sums' ink is sampled this far in from the cell's edges
SUM_CORNER = (0.5, 0.7)  # height, width of a head cell's corner kept for the sum
LAB_WEIGHTS = np.array([0.3, 1.0, 1.0])  # CIELAB L, a, b weights: lightness counts less
ENTRY_DELTA, ENTRY_SPREAD = 18.0, 4.0  # CIELAB distance from the sums' ink: entry from here
NOTES_SURE = 0.95  # a cell of small note-shaped blobs holds notes
DIGIT_SURE = 0.98  # a large digit-shaped blob is a digit
PAPER_INK = 0.1  # a cell's paper: its pixels with less ink than this
# When this many large digits in the sums' ink are surely (SURE_HAND) written by hand,
# or PAGE_MEDIAN_MIN or more are and most of them look written by hand, the page is one
# a person wrote on in an ink like the print's, and each of them is the person's with at
# least PAGE_WRITTEN (written_by_hand). The cell
# model alone reads some of one hand's digits as print (on by-hand pages its shares
# split, half near 0 and half near 1) and is unsure of others, which made such pages
# `needs_review` or read the person's digits as givens.
PAGE_HAND_MIN = 3
PAGE_MEDIAN_MIN = 5
SURE_HAND = 0.9
PAGE_WRITTEN = 0.95

# reading.py: set by hand unless the note says how it was fitted; measured by
# bench/recognition_killer.py and bench/cage_gate.py (CLASSIC_WALLS)
CLASSIC_WALLS = 0.08  # below this mean wall probability the sums are not looked for
# Among many large digits, a mean wall probability from this up, both across and down,
# shows cages (killers: 0.4 and more each way; written classic pages up to about 0.15
# across, though up to 0.85 down).
CAGES_SEEN = 0.2
# Below this mean (the lesser way) on the plain edge features, the digit-free ones are
# not made: painting the digits out raised the mean by 0.10 at most (bench/cage_gate.py:
# real photos of pages written on and of print, screenshots, killers in progress), and
# walls are seen from CAGES_SEEN, 0.15 above.
DIGITS_OUT_FROM = 0.05
MAYBE_HEAD = 0.15  # a cell whose top and left walls are both this likely may be a cage head
DOUBT = 0.3  # walls that break a rule keep this share of their distance from 0.5
SURE_WALL = 0.9  # a cage whose walls are all this likely surely needs a sum
# A number in a cell the walls make no cage's first, placed as the grid's sums are (its
# top and start this many text heights from theirs, as tall within STRAY_TALL), is a sum
# whose cage's wall was misread.
STRAY_PLACE = 0.3
STRAY_TALL = (0.85, 1.2)
# ... and one of its digits at least this share of the text height wide (a lone bar is
# the outline's side as well as a '1') and no corner of the outline (along_top_left).
STRAY_WIDE = 0.35
# ... or a '1' with its flag (sums.flagged_one).
STRAY_SURE = 0.9  # a number of one digit counts when read at least this likely
# ... of two digits in a cell holding writing, this likely: a person's wide digit whose
# top-left reaches the corner (a handwritten '5' on paper) broke into two glyphs read as
# an unsure number (0.63; printed stray sums beside writing read 0.83 and more).
STRAY_SURE_TWO = 0.7
SUM_LINE = 0.2  # a cage sum's top lies this share of the sums' height from theirs at most
# ... where the line is clear: this share of the heads' numbers on it at least (by-hand
# photos: all the printed sums, and a false head or two; deeply inset dotted cages join
# the outline's dots to a quarter of their sums, whose tops move off it).
CLEAR_LINE = 0.85
STRAY_INK = 0.6  # its digits' darkest ink at least this share of the sums' (grain is fainter)
DOT_GAP = 0.3  # a row whose darkest ink is under this share of the glyph's is a gap
FULL_COLUMN = 0.9  # share of the rows a column must be dark in to run top to foot
BALANCE = 3.0  # boost of a sum alternative that makes the total right
UNREACHABLE = 0.05  # a cage sum impossible for its cage's size keeps this share of its prob
GAP_GUESS = 0.01  # share of a sum's doubt given to the value that would make the total right
FAINT_CELL = 0.55  # a cell whose darkest (smoothed) ink is lighter than this share is blank
# ... smoothed this little (pixels at 32 a cell): a thin-stroked digit, such as a person's
# entry in an app's regular face, keeps its darkness; single grains of paper do not.
FAINT_BLUR = 0.6

# kind.py: set by hand unless the note says how it was fitted; measured by bench/cage_gate.py
# --kind and bench/recognition_killer.py (kind right)
TOTAL_SLACK = 0.3  # the numbers' total may miss the grid's by this share before it counts
# for nothing
NUMBERED_FROM, NUMBERED_TO = 0.6, 0.9  # share of numbered heads: no evidence .. full evidence
THRESHOLD = 3.3  # of the 4 points of evidence; a killer with a few sums misread keeps above
STEEPNESS = 8.0  # how sharply the evidence turns into a probability about THRESHOLD
SURE_SUM = 0.9  # a sum read at least this surely counts in the total whatever it does to it
LOOKS_LIKE = 0.9  # an explicit kind is warned about when the other is at least this likely
# Share of the cage heads whose number is set on the sums line from which the doubtful
# numbers may count as unknown (a killer in an unseen face: 0.86; a person's writing keeps
# no one place)
PLACED = 0.8
