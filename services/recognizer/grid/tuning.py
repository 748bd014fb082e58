"""The grid stage's tuned constants, in sections named after the module each belongs to.

Each section names the bench that measures its constants (figures and options in
docs/benchmarks.md); a constant whose note gives no fit was set by hand. Check a change
side by side against the commit before it, e.g.

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/recognition.py --quick
    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/side_by_side.py --other /tmp/ver-main
"""

from __future__ import annotations

# decode.py: set by hand unless the note says how it was fitted; measured by bench/speed.py and
# bench/recognition.py
WORK_SIDE = 1024  # photos are read at most this long a side: enough for 9x9 grids, and fast
# A picture whose grid is not found at WORK_SIDE is looked at again at most this long: a
# tall phone screenshot's grid spans only its short side, and shrunk by its long side the
# thin lines of a dark theme fade under a pixel.
FINER_SIDE = 2 * WORK_SIDE
FINER_GAIN = 1.2  # ... when it was shrunk by at least this much; one at least this much
# smaller than WORK_SIDE is looked at again enlarged to it (pipeline._finer)

# restore.py: set by hand unless the note says how it was fitted; measured by bench/degraded.py
IMPULSE_STEP = 50  # grey levels beyond all 8 neighbours that make a pixel an impulse
IMPULSE_SHARE = 0.002  # a picture with more impulses than this share is median filtered
MAX_PASSES = 3  # median passes at most, each only while impulses remain
SHADOWED = 0.5  # paper this much darker in some cells than in others: flattened
INK_REACH = 0.4  # the closing that removes the ink spans this share of a cell
SHRINK = 4  # the paper is estimated at a quarter of the working size
GUESSED_CELL = 0.08  # a grid not found at all: its cell guessed as this share of the side

# exposure.py: set by hand unless the note says how it was fitted; measured by
# bench/recognition.py (dark screenshots and photos) and bench/out_of_focus.py (SHARPENED_BETTER)
DARK_GROUND = 110  # a picture's commonest grey below this may be a dark-mode screenshot
GROUND_SHARE = 0.2  # ... when this share of its pixels is that grey (flat, not a photo)
UNDER_EXPOSED = 100  # a photo whose lightest percent is darker than this grey
# The lattice found in the sharpened picture of one far out of focus replaces the one
# found as it is when it lies this much better on the sharpened picture's lines.
# Synthetic photos defocused by 10 % of a cell (fresh seeds 16 500 000+): the grid placed
# wrong, on the page's edge or the photo's, lay at 0.19-0.46 and the grid's own lattice
# found after sharpening at 0.61-0.71; where the plain lattice was right, the sharpened
# picture's own lattice lay 0.09-0.70 below it, or on the same lines.
SHARPENED_BETTER = 0.1

# locate.py: set by hand unless the note says how it was fitted; measured by bench/recognition.py
# and bench/speed.py
PAD = 8  # paper-coloured frame, so a grid drawn to the picture's edge still has a closed outline
OUTLINES_TRIED = 6  # per framing, best-scoring first

# outlines.py: set by hand unless the note says how it was fitted; measured by
# bench/recognition.py and bench/lattice_geometry.py
SCORE_CELL = 16  # pixels per cell when scoring a candidate
MIN_SCORE = 0.3  # below this no candidate looks like a grid
# Faint thin lines and large digits score a real grid this low; such an outline counts
# only when its traced lines prove to lie on ink (see pipeline.locate).
WEAK_SCORE = 0.1
# Faint thin lines: a line this many grey levels darker than the ground beside it ...
FAINT_CONTRAST = 12
FAINT_WIDTH = 7  # ... and narrower than this (wider ink is a digit or a thick rule)
# A shadow's or the page's edge running on from one corner of the grid adds a spur to its
# outline: the hull gets a corner or two more than four, the grid's own four among them.
SPUR_CORNERS = (5, 6)
# Only the largest hulls (a grid with its spur is among them): a killer's many cage
# outlines would otherwise each add up to 15 outlines to score and trace.
SPUR_HULLS = 3
SPUR_HANDICAP = 0.2  # score taken off a spurred hull's 4-corner subsets, plain outlines win ties
OTHER_SIZE_HANDICAP = 0.02  # score taken off sides other than 9
FLANK = 6  # pixels (of SCORE_CELL) from a line: beyond a widened thick rule, short of a digit
RULE_CELL = 32  # pixels per cell when looking for the grid's rules inside an outline
TIED_RUNS = 2  # tied runs of rules tried each way

# fit.py: set by hand unless the note says how it was fitted; measured by bench/recognition.py and
# bench/lattice_geometry.py
GOOD_FIT = 0.85  # a weakly scored outline counts when its lattice lies this well on lines
# A 9x9 outline that had to be trimmed or moved is taken at once only when its lattice
# lies this well on the lines: a heading's outline trimmed a row off lies nearly as well
# as the grid's own, so the other outlines are tried too.
CLEAR_FIT = 0.98
# Grids above 9x9 in photos have thin lines a few pixels apart, often light grey, which
# binarize in part only: a 16x16 lattice on every line fits from about 0.75 up.
LARGE_GOOD_FIT = 0.75
# A smaller grid with thin light-grey lines, which binarize in part only, lies on them
# less well than GOOD_FIT; it still counts from LARGE_GOOD_FIT when it lies this much
# better than every 9x9 lattice found (the page's outline taken for a 9x9 grid lies at
# about 0.5). It is judged once all outlines were tried: a noisy 9x9 photo's first
# outline may trace a 4x4 or 6x6 lattice at 0.8 before its own 9x9 lattice is traced.
CLEARLY_BETTER_FIT = 0.2
# A 9x9 lattice traced along faint lines as well as the binarized ink counts when it lies
# on them this well: unbroken thin lines where every line of the lattice runs.
FAINT_FIT = 0.95
# ... and when lines through the cells' middles lie on far less ink: ink everywhere (the
# negative of a dark photo, where the table turns light) lies under any lattice. Faint
# killer grids measured 0.15-0.27 there, the negative of a dark photo 0.98.
FAINT_MID = 0.5
# A runner-up refinement (see refined_outlines) wins only by this much fit: the fit
# saturates near 1, and a snapped outline lying at 1.0 against 0.999 had its lattice
# 4.6 px off (shadow stripes, seed 904006); the pulled corners it puts right lay at
# 0.86-0.96 against its 1.0.
RUNNER_UP_MARGIN = 0.02

# lattice.py: set by hand unless the note says how it was fitted; measured by
# bench/lattice_geometry.py
CELL = 32  # pixels per cell in the straightened picture
STEP = 4  # sample a line every STEP pixels along it
SNAP_REACH = 2.0  # cells an outline's end may move to reach the grid's own line
SIDE_ON_INK = 0.85  # share of a side's middle on ink for it to lie on a line

# straighten.py: set by hand unless the note says how it was fitted; measured by
# bench/recognition.py (the digit model was trained on cells cut with it: retrain after a change)
INK_LEVEL = 0.35  # share of the grid's ink contrast that counts as a stroke pixel

# shape.py: set by hand unless the note says how it was fitted; measured by bench/recognition.py
# --sizes only
SIDE = 480  # pixels of the straightened outline when counting its rules
MISSING = 2  # rules of a run allowed missing (faint, broken by a fold or glare)
FAINT_SHARE = 0.3  # thin light rules: a line response this share of Otsu's threshold
FAINT_FLOOR = 4  # grey levels
LATTICE_RULE = 4  # a rule's median darkness above the paper's, in spreads of the paper's
LATTICE_NOISE = 0.5  # grey levels added to the spread: flat screenshots have none
INK_MARGIN = 0.2  # grid_score by which another size must beat 9 when rules are unclear
CLEAR_CONTRAST = 0.2  # box lines' ink over the thin lines', relative, that is clear
CLEAR_MARGIN = 0.5  # the best shape's contrast over the next one's that is clear
CLEAR_BOXES = 0.5  # box clarity (box_shape) below this: the shape is a guess

# sizes.py: set by hand unless the note says how it was fitted; measured by bench/recognition.py
# --sizes only
# A 9x9 of light thin lines on a small photo shows only its box lines (a 3x3 lattice)
# even counted line by line; with a page's edge and a deep shadow's edge running on from
# a grid side, the outline round them and a row and a column of the page beyond counted
# as a 4x4 lying on the lines (0.75-0.76) far better than the grid's own 9x9 lattice
# (0.44-0.55), its thin lines unseen, and not on the grid's box lines (the page's margin
# is no box wide). The digits tell them apart: 27-32 of the grid's blobs of a digit's
# size sat centred in the 9x9's cells (78-100 %), none of a 4x4 cell's size in the
# 4x4's. A smaller grid's digits are too tall for a 9x9 lattice's cells, and sit centred
# in its own.
DIGITS_SEEN = 9  # glyphs centred in the 9x9 lattice's cells, about one a box at least
DIGITS_CENTRED = 0.7  # ... as a share of the digit-sized blobs there
DIGITS_OWN = 0.2  # the other lattice's own centred digits, against the 9x9 one's
# Once a 9x9 lattice lies well on the lines, an outline sharing less than this of its area
# (intersection over union) and no larger is not traced: on written-on photos the
# outlines after the grid's own were the page's text, a hand or pieces of one box (at
# most 0.13), whose lattices never won and took most of the slowest photos' time. Those
# that may still win share most of the grid: its outline with a heading (about 0.9) or a
# larger grid around it (larger, so always traced). A lattice of another side held as
# best is no such grid: the outlines left may hold the whole grid, and are all traced.
APART = 0.25
# A grid of another side whose inner lines carry on this much past two of its sides is a
# block of a larger grid's cells (a 4x4 block in the corner of a 6x6 killer, whose heavy
# dotted cages let the faint-line trace lie on it at 1.0, its outline a little skewed:
# two of three lines ran on past two sides, a mean of 0.33). Such blocks measured
# 0.67-1.0 on the sides where the grid goes on; grids standing on their own 0-0.2, but a
# heading over a photographed grid 1.0 on its one side. (A grainy ground's specks or the
# text of a page run through the band between the lines too, and do not count.)
SIDE_RUNS_ON = 0.6
# A grid of another side whose lines run on this much past one of its sides may still
# be a block of a larger grid (digits beside its lines hide the run past the others):
# the grids around it are traced too (see grid_around).
SOME_RUN_ON = 0.3
# A 9x9 lattice whose inner lines carry on past two of its four sides may be nine rows
# and columns of a 12x12 or 16x16 grid whose own outline was traced a little off (a
# shadow across a corner): the sub-lattice then lies perfectly. It is set aside, and loses
# only to a larger grid found among the next outlines that encloses it with cells of its
# size; otherwise it is read as before (real 9x9 pages may print lines past the grid).
INSIDE_LARGER = 0.45
SAME_PITCH = 0.2  # cells of the larger grid within this share of the 9x9 lattice's
# A side below 9 counted row by row must show boxes of its own: its box lines heavier than
# its cell lines each way (shape.box_shape's clarity; a light 6x6 photo measured 1.0). A
# block of a 9x9's cells with light dashed lines, lying in a deep shadow that hid its
# lines' run past its sides, counted a perfect 6x6 (1.0 of its rules) but has the 9x9's
# box lines where no 6x6 has them (every third line, each way): clarity 0.0.
BOXES_SHOWN = 0.5
# A grid's lines all lie on ink, however light they are: the thin lines of an 8x8 in a
# shadowed photo lay at 0.56 and up on the binarized and faint ink. A lattice with a line
# on less than OFF_LINE runs that line over blank paper at the wrong pitch: a page's
# outline traced as 9x9 over a light 8x8 grid had two such lines (0.10, 0.36) and still
# lay at 0.64 overall on the grid's rules and the page's text, too close to the 8x8's
# 0.81 for CLEARLY_BETTER_FIT.
OFF_LINE = 0.3
ON_LINE = 0.5  # ... while every line of the lighter lattice lies on at least this share
# However light a grid's lines are, each lies on more ink than any line through the middle
# of its cells (digits only cross those here and there). A lattice traced over a page's
# text or the wrong pitch has a weakest line close to, or below, its busiest middle line:
# a 9x9 lattice over a light 8x8 grid and the text under it measured 0.01 and -0.21
# (weakest line less busiest middle), the 8x8 lattice 0.25 and 0.08 while lying below
# GOOD_FIT (0.85, 0.77) and only 0.15-0.17 better than the 9x9 one overall. Judged on the
# same ink, the smaller light lattice wins when it stands out this much more.
LINES_CLEARER = 0.15
# In the paper-coloured frame, a side traced this many pixels outside the picture lies on
# the frame's own edge: where the picture's margin is lighter than the frame's colour (its
# median grey, a cage fill's tint), the frame binarizes as a line along the picture's
# border, and a 6x6 lattice on it lay at 0.92 (the grid's own outline at 0.97 was not
# tried yet). A grid drawn to the picture's edge has its outer lines inside the picture.
OFF_PICTURE = 1.0
# An outline whose side is shorter than this many pixels a cell is no grid one can read:
# such small quads (between a small screenshot's digits, say) can still lie on lines.
MIN_CELL_PX = 8
# Cells of one grid seen in one picture are alike in shape. A lattice whose cells are
# this much farther from square than those of the lattice held as best lies on part of
# that grid: a 4x4 lattice on one box column of an 8x8 with 2x4 boxes (cells twice as
# tall as wide) lay on its lines at 0.93, the 8x8's own at 0.86 (light thin lines).
NOT_SQUARE = 1.4

# glyph_pitch.py: set by hand unless the note says how it was fitted; measured by
# bench/recognition.py --sizes only
# A digit's blob, in cells: 0.55-0.68 of a cell high as printed, a little more once blurred.
# Lower: specks and the dots of a broken line; higher: lines and a coarser grid's digits.
GLYPH_LOW, GLYPH_HIGH = 0.3, 0.85
CENTRED = 0.2  # a glyph's middle within this share of a cell of the cell's middle

# focus.py: fitted on synthetic defocused photos; measured by bench/out_of_focus.py
# The 5th percentile of edge_sharpness over the digit model's training photos
# (gridsight.training.digits.sample_grid, photos only, 262 grids): softer grids are the
# ones it learnt least from. On synthetic photos defocused by 10 % of a cell this
# sharpening mends 55-76 % of the misread cells, at 12 % 37-56 %; none of 114 sharp
# synthetic photos is touched.
TRAINED_SHARPNESS = 0.37
# Gaussian sigma, in straightened pixels, per unit of 1 / edge_sharpness: a blurred step's
# steepest central difference (over two pixels) is 2 / (sigma * sqrt(2 pi)) ~ 0.8 / sigma
# of its contrast.
SIGMA_PER_SOFTNESS = 0.8
AMOUNT = 2.0  # unsharp mask strength, chosen on synthetic defocused photos (1.5-3 tried)
# The views a soft grid is read in: the estimated sigma scaled by each of these, at each
# strength. Chosen on synthetic photos only (fresh seeds 16 100 000+ and 16 200 000+,
# 270 soft ones: Gaussian defocus 6-12 % of a cell on 640x480 and mixed photo sizes, and
# a lens's disk blur on 640x480): against the one mask at the estimated sigma, misread
# cells 1 866 -> 1 738 and those misread at p > 0.9 849 -> 422 (the solver's repair does
# not question a sure reading); four views (x 0.7, 1, 1.4 at 2, x 1 at 3) 1 764 / 526;
# the plain grid beside the one mask did worse than the mask alone at 10-12 %.
SIGMA_SCALES = (0.7, 1.0, 1.4)
AMOUNTS = (AMOUNT, 3.0)  # the strengths the views are sharpened at
# A whole picture (at the working size, table and page around the grid included) this soft
# is far out of focus: the synthetic photos defocused by 10 % of a cell measure 0.09-0.23,
# by 6 % 0.18-0.38, sharp ones 0.40 and up (fresh seeds 16 500 000+ and 16 600 000+).
SOFT_PICTURE = 0.3

# full_resolution.py: set by hand unless the note says how it was fitted; measured by
# bench/recognition.py (dev photos) and bench/speed.py
SMALL_CELL = 40  # a grid whose cells are smaller than this in the working picture ...
SHRUNK = 1.2  # ... of an upload shrunk at least this much is read again at full resolution
CROP_MARGIN = 0.6  # cells of margin around the grid in that crop
