"""The cell stage's tuned constants, in sections named after the module each belongs to.

Each section names the bench that measures its constants (figures and options in
docs/benchmarks.md); a constant whose note gives no fit was set by hand. The models'
input sizes and classes stay beside the models (a change needs them retrained). Check a
change side by side against the commit before it, e.g.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/recognition.py --quick
    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/half_solved.py
"""

from __future__ import annotations

from services.recognizer.grid.tuning import INK_LEVEL

# features.py: set by hand unless the note says how it was fitted; measured by
# bench/recognition.py (the digit models were trained on features cut with them,
# gridsight/training/digits.py: retrain after a change)
BORDER = 0.16  # blobs centred this close to the cell edge are line remnants
MIN_BLOB = 0.008  # blobs under this share of the cell are specks
LINE_RUN = 0.7  # a grid line's remnant runs unbroken across this share of the cell
EDGE_ROWS = 0.05  # outermost share of the cell where only a grid line's ink lies
WIDE_LINE = 0.12  # ... and how far a line's rows may go on past it
FAINT_LEVEL = 0.5 * INK_LEVEL  # fainter ink counts where it touches a stroke
SHAPE_SCALE = 4.0  # shape measures are scaled up to weigh like the other features
# A print laid in a halftone dot screen (dot_pitch): its thin strokes fall apart into dots.
DOT_LEVEL = 0.5  # share of the cell's own peak (99th percentile) that cuts its ink into dots
DOT_AREA = 0.03  # share of the cell: a screen's dot is smaller
MIN_DOTS = 4  # dots of two pixels or more that make a screened glyph (a 1 shows 4)
DOT_SPACING = 0.35  # the share of the median spacing a screen's dots keep to
EVEN_DOTS = 0.75  # ... share of the dots keeping to it (0.6: 1 more cell of 1 944 right)
# Of the cell: inked dots lie closer (up to twice a screen's pitch, where a thin stroke
# misses some of its dots).
MAX_PITCH = 0.25
DOT_CLEAR = 2.0  # a screened glyph's peak over the blank cells' (their paper's noise)
# sigma of the smoothing as a share of the dots' spacing: a Gaussian damps the screen's
# frequency 1/spacing by exp(-2 pi^2 DESCREEN^2), to 17 % at 0.3, and keeps a stroke one
# spacing wide. 0.25 / 0.3 / 0.4 / 0.5 read 9 / 14 / 13 / 12 of a screened page's 20
# screened digits right (seed 96 003 002, not a bench seed).
DESCREEN = 0.3
# A grid whose cells holding ink (at least MIN_INKED_CELLS of them) peak at a median under
# FAINT_DIGITS of its lines' ink has that ink measured against its own level: halftone
# prints whose dots the picture blurred together measured 0.35-0.46 (thin faces), clean
# photographed prints about 1.
FAINT_DIGITS = 0.6
MIN_INKED_CELLS = 8

# digits.py: set by hand unless the note says how it was fitted; measured by bench/recognition.py
# (SOFT_SHARE: bench/soft_share.py)
CLASSIC_GIVENS = 12  # this many large, confidently read digits make a 9x9 grid classic
CLASSIC_CONFIDENCE = 0.99  # kind_confidence of a grid read as classic at once
LARGE_DIGIT = 0.4  # a given's height as a share of the cell; cage sums are smaller
# Taller than this is not a digit but ink joined along the cell, such as a dotted cage
# outline with its sum, which the digit model can take for a 1.
TALLEST_DIGIT = 0.8
# A given's box centre lies this close to the cell's centre, across and down (many fonts
# sit high or low in their cells; a cage sum sits in the top-left corner).
CENTRED_ACROSS, CENTRED_DOWN = 0.12, 0.2
UPRIGHT = 1.15  # a given's box is this many times taller than wide; cage boxes are not
# A cell read from halftone dots (features.descreened) has its reading flattened (p ** this,
# renormalised): of two readings, 0.99 / 0.01 -> 0.80 / 0.20, so a misread's runner-up
# reaches the review's 0.2 (solver/review.py UNCERTAIN_RUNNER_UP); 0.9999 -> 0.94. Set by
# hand, as TOUCHING_TEMPER.
SCREEN_TEMPER = 0.3
# The soft-photo digit model's share of a soft grid's reading, the main model's the rest.
# The two models err on different cells, and either alone is surer when wrong. Chosen on
# synthetic soft photos only (bench/soft_share.py, 1 267 soft grids of seeds 61 000 000+
# and 62 000 000+: a Gaussian, a lens's disk and a tilted page's defocus, 6-12 % of a
# cell), as the share with the fewest cells misread at p > 0.9, the misreads the repair
# does not question: 0 / 0.5 / 0.6 / 1 give 2 063 / 744 / 728 / 1 455 (cells misread
# 8 208 / 6 568 / 6 351 / 6 372); 0.6 also lies lower in likelihood loss than 0.5.
SOFT_SHARE = 0.6

# orientation.py: set by hand unless the note says how it was fitted; measured by
# bench/recognition.py (its turned and lying-tag sets)
MIN_INKED = 8  # fewer large digits than this (a classic grid has 17 or more) do not vote
TURN_MARGIN = 3.0  # total log-likelihood (nats) a turn must gain over the picture as shown

# glyph_looks.py: set by hand unless the note says how it was fitted; measured by
# bench/recognition.py --sizes only and bench/symbol_families.py
LOOK = 24  # side of the image a cell's glyphs are compared at
GLYPHS_BOX = 20  # the glyphs' longer side is scaled to this
SPLIT_GAP = 0.1  # looks part when each cell's nearest twin is this much nearer than the other look
MIN_LOOK = 2  # cells of each look (one odd cell may be just a smudged print)
MIN_CLASS = 4  # cells read as one symbol before it is looked at
WAVERS = 0.99  # only looks the model reads less surely than this (geometric mean) are moved
RELABEL = 0.85  # share of the read symbol's probability moved to the absent one
# A lone misread is a twin of the other symbol's cells: as alike to one of them as the
# least alike of them is to its own nearest twin, less TWIN_SLACK. A Pagella J set low
# showed its top serif, which the line took from its other Js (0.62 like them); it was
# 0.94 like an I, no twin of the Is (0.99 among them), and was moved there. A GentiumAlt
# J whose hook lay in the line was a twin of the Js (0.996) and 0.09 less like any I:
# LONE_GAP, not SPLIT_GAP, apart from its own symbol's cells. Such a twin is moved however
# surely the model read it: a Lato Bold or Black 12 read 9 at 0.994-0.998 was a twin of
# the picture's 12s (0.96-0.99) and no more than 0.42 like any 9.
TWIN_SLACK = 0.02
LONE_GAP = 0.05
DISPROVED = 0.9  # share of a runner-up's probability given back to the reading it lost to

# symbols.py: set by hand unless the note says how it was fitted; measured by
# bench/symbol_families.py and bench/recognition.py --sizes only
FLOOR = 1e-4  # values no reading supports keep this much, so the repair may still pick them
SHORT_PIECE = 0.6  # a piece shorter than this share of the tallest joins its neighbour
WIDE_GLYPH = 0.75  # a glyph this wide for its height may be two touching digits ("11")
SERIF_DEPTH = 0.08  # ink hanging this far (share of the cell) from a line is a glyph's
NEAR_EDGE = 0.125  # a glyph meeting a line reaches this near the cell's edge
SMALL_END = 0.2  # a stroke's end this small (share of MIN_BLOB) hanging from a line ...
CLOSE_END = 0.25  # ... only this close (share of the cell) to where the glyph meets it
ALONG = 0.8  # share of the cell's edge row between two meetings that a stroke's edge inks
SURE_AS_CUT = 0.99  # a glyph read this surely as cut keeps that reading
# The cuts the gaps make count in full; another cut (two pieces read as one glyph, a
# wide glyph as two) wins only when it explains the ink this much better: the symbol
# model never saw two digits as one glyph, and may call a "10" joined a digit.
OTHER_CUT = 0.5
GLYPH_CELL = 48  # pixels per cell where glyphs are cut (the 9x9 reader's PATCH is 32)
# A glyph whose strokes run on into a grid line may have lost a stroke along the line,
# cleared with it (a bold P set high in its cell, its bowl's top on the line, read as F at
# 0.98): its reading is flattened, so that a runner-up the glyph model still gave a few
# per cent becomes a doubt a person checks (0.98 / 0.02 -> about 0.76 / 0.24), while a
# reading of 0.999 stays sure.
TOUCHING_TEMPER = 0.3
LINE_INK = 0.5  # ink this dark is part of a line's run from the cell's edge
THICKER = 3  # a run this many pixels longer than the line's usual width joins a glyph

# print_look.py: set by hand unless the note says how it was fitted; measured by
# bench/cage_gate.py (cage_free) and bench/speed.py (plainly_printed)
FLAT_PAPER = 0.5  # at least this share of the grid's pixels is exactly the paper's grey
DEEP_INK = 60  # grey levels from the paper to the darkest ink, at least
MARK = 0.12  # a pixel this share of the way from the paper to the darkest ink is a mark
ONE_COLOUR = 10  # the digits' darkest pixels differ by at most this, in every channel
# A grid drawn by a program: at least this share of its neighbouring pixels exactly alike
# (print_look.rendered). Measured: real phone photos at most 0.52 (the 97 dev photos,
# 640x480) and 0.49 (the 160 half-solved pages); app screenshots 0.86-0.96 as PNG,
# 0.57-0.88 as JPEG at quality 88 (those below it keep the photos' cell model).
RENDERED = 0.6
# ... and each cell's paper is one shade: at most this many grey levels between its 5th
# and 95th percentiles once its ink is closed over. Measured: app screenshots of every
# theme family at most 5 (PNG and JPEG); a shadow's edge across a flat page 88 or more.
# SHADED_CELLS cells may be shaded more (a grid found a little off takes in the screen
# beside it at a corner): app screenshots measured 0 at their true lattice and 1 at one
# found including a title bar; a shadow's edge across a flat page leaves 3-8.
CELL_SHADE = 16
SHADED_CELLS = 1
LOOK_INSET = 0.15  # of a cell's side: its inset, clear of the grid lines
# A killer's cage outline runs at least 0.06 of a cell beyond its grid line's half width
# (killer_render.vary), dashed or solid, through nearly every cell, where the grid's
# lines run solid along all of it: SOLID_LINE of a straightened row or column's pixels.
SOLID_LINE = 0.9
OPEN_SHARE = 0.25  # of the cells, at least, read blank: enough to show the cages
GREY = 16  # channels of a grey pixel differ by at most this: no cage colour, no fill

# marks.py: set by hand unless the note says how it was fitted; measured by bench/half_solved.py
# and bench/written_on.py
# Paper that follows shadow edges: a grey-level closing (a max filter, then a min filter
# as wide) wipes out strokes narrower than the kernel but keeps a shadow's edge where it
# is, where the blurred max filter of cells.ink_map smears it into a false stroke beside
# the edge. Pencil and print strokes at CELL pixels are under a third of this wide.
PAPER_KERNEL = 17
MARK_MARGIN = 0.15  # of the cell's side: the inset kept clear of grid lines
# A mark's pixels are those darker than this share of the way from the inset's median to
# its peak: low, as a light pencil stroke fades along its length.
SPAN_LEVEL = 0.25
# Page lines. A crease, the edge of a shadow or stripe, or a grid line the outline missed
# runs straight through several cells and on across the grid lines between them; a
# person's writing stays inside its cell (two digits written one above the other line
# up, but the paper between them is clear). A line's pixels are LINE_LEVEL of the page's
# darkest ink or darker (or LINE_NOISE sigmas of its pixel noise); it counts when it
# crosses at least LINE_CELLS insets from side to side, dark along LINE_COVER of its
# course in each and between them, and its pixels (up to LINE_WIDTH from its axis) are
# then no marks.
LINE_LEVEL = 0.12
LINE_NOISE = 4.0
LINE_CELLS = 2
LINE_COVER = 0.8
LINE_WIDTH = 4
# The stems of two printed digits one above the other (or strokes side by side) line up
# along the grid's axes across the grid line between them, dark all the way where the
# digits are tall: a line within AXIS_TILT degrees of a row or column counts only when it
# crosses AXIS_LINE_CELLS insets. A page line along the axes (a grid line the outline
# missed, a crease or shadow edge parallel to the rules) runs on through the whole grid.
AXIS_TILT = 3.0
AXIS_LINE_CELLS = 3
# Read off the train photos (never val): their blank cells' marks reach a contrast of
# 0.18 when at least MARK_HEIGHT tall and 0.22 when shorter (erased notes, show-through,
# specks); every written digit has 0.242 or more and every note cell 0.285. Between
# the two ends of TALL_MARK_SEEN (a digit's height) or SMALL_MARK_SEEN (log scale) a
# mark goes from no evidence to a sure one. No mark at all: under NO_MARK[0] (the 95th
# percentile of train's blank cells) a cell is surely blank, over NO_MARK[1] (half the
# faintest written digit) no evidence.
TALL_MARK_SEEN = (0.18, 0.24)
SMALL_MARK_SEEN = (0.22, 0.28)
MARK_HEIGHT = 0.4
NO_MARK = (0.08, 0.12)

# ink.py: set by hand unless the note says how it was fitted; measured by bench/half_solved.py and
# bench/page_answers.py
# The person's digits stand apart from the print when their ink's darkest strokes differ
# from the printed digits' (as shares of the paper's level, per channel) by INK_APART, and
# by INK_SPREAD times the printed digits' own spread (a thin face's strokes never reach
# full darkness, so its digits vary among themselves). On synthetic pages a pen's ink is
# 0.15 or more apart from black print, an app's entry colour 0.5; a printed digit the cell
# model reads as an entry, in the same ink, 0.09 or less.
INK_APART = 0.12
INK_SPREAD = 4.0
INK_CORE = 30  # percentile of a mark's pixels: its strokes' core, clear of anti-aliasing

# kinds.py: set by hand unless the note says how it was fitted; measured by bench/half_solved.py
# (val photos)
# The ink scale of a page is set by its darkest marks (grid lines, printed type), so a
# light pencil digit peaks at a third of it and falls under the stroke level of grid/straighten.py:
# read as blank or as a broken shape. The handwriting reader (HandDigitModel) reads each
# cell's ink stretched to its own peak, up to MAX_GAIN times; a blank cell's faint
# show-through (peak under PEAK_FLOOR) is stretched no further than to half the stroke
# level's reach.
PEAK_FLOOR = 0.45
MAX_GAIN = 1 / PEAK_FLOOR
# How strongly a digit in a peer cell speaks against the same digit here. Below 1: a
# person does write a digit twice in a row now and then (a wrong entry), and that must
# stay readable when the ink says so clearly.
ALL_DIFFERENT = 0.9
SWEEPS = 3  # passes of the peers' weighing over the grid
# The share of the classic digit model in a person's digit: it reads print and gets 84 %
# of handwritten digits right, so it rarely decides one; but where it reads another digit
# clearly, that digit keeps a probability the repair and "where did I go wrong?" can
# see, instead of two handwriting readers' confident misread (a shadowed 7 read as a 2
# at p 0.99 while the classic model read 7 at 0.98).
CLASSIC_IN_ENTRIES = 0.05
# A person's digit on a photo is taken as written only where the classic digit model,
# reading the cell at its own contrast, gives that digit at least ENTRY_SUPPORT; elsewhere
# (pencil notes in shadow read as one digit, a shadow's edge read as a stroke) its digits
# are flattened by ENTRY_DOUBT, so that every digit keeps 0.01 and "where did I go wrong?"
# reports a doubt, not a mistake (the solver's MISREAD_FLOOR is 0.005). On synthetic pages
# (bench/page_answers.py's kinds, seeds 7 400 000, 24 a kind) the 170 true mistakes have a
# support of 0.80 or more but one, the notes and marks listed as mistakes on `solved`
# pages none above 0.001.
ENTRY_SUPPORT = 0.5
ENTRY_DOUBT = 0.09
# Pencil candidates are small digits: on the train photos' 376 note cells the tallest
# stroke spans at most 0.69 of the inset (val: 0.72). A taller one is a full-size digit or
# a shadow's edge across the cell. Measured at the cell's own contrast (marks().span), the
# train photos' note cells span at most 0.71 and their digits at least 0.79.
NOTES_SPAN = 0.85
NOTES_MARK_SPAN = 0.75  # ... and at the cell's own contrast (marks().span)

# half_solved.py: fitted by bench/written_on.py; measured by bench/half_solved.py and
# bench/page_answers.py
# A page counts as written on when cells hold a person's marks (persons_marks) that the
# cell model reads as sure entries (MIN_ENTRIES: print in a face the model has not seen
# gives a few confident "entries", up to 9 on a real print-only photo in the shared dev
# set) or as sure pencil notes (MIN_NOTES), or when MIN_MARKS cells the classic digit
# model sees blank hold such a mark (light pencil the cell model reads as blank) on a page
# whose print is read well (MARKS_PRINTED sure printed cells: stripes or fading that hide
# much of the print leave marks the classic model cannot explain); and the page shows the
# printed givens a written page still has (MIN_PRINTED).
SURE_KIND = 0.9
MIN_ENTRIES = 10
MIN_NOTES = 1
MIN_PRINTED = 10
# Fitted by bench/written_on.py on synthetic print-only photos (ten failure classes),
# synthetic written pages (seven kinds, drawn and photographed, and light pencil
# photographed with creases or stripes) and the half_solved_photos train/ photos, never
# val/: the fewest cells lost on the print-only pages first (a page nobody wrote on must
# not pay for the decision), then on the written ones, ties to the setting that takes
# the fewest pages for written. A person's mark stands NOISE_MARKS times the page's pixel
# noise above what mark_seen asks (heavy noise and dark photos give blank cells marks as
# dark as light pencil, 0.4 of the print; their noise sigma is 0.02-0.06 of it, a clean
# photo's about 0.01). Before the page's lines were taken out of the marks (page_lines),
# creases and stripes made the print-first fit ask for 20 sigmas, which hid light pencil
# (a third of the print's darkness) on every photographed page.
NOISE_MARKS = 4.0
MIN_MARKS = 5
MARKS_PRINTED = 23
