"""The nonogram reader's tuned constants, in sections named after the module of each.

Fitted on the rendered nonograms of gridsight/synth/nonogram_render.py; a constant whose
note gives no fit was set by hand. All are measured by (figures in docs/benchmarks.md)

    OPENBLAS_NUM_THREADS=1 .venv/bin/python bench/recognition_nonogram.py [--count 20]
"""

from __future__ import annotations

# reading.py: set by hand unless the note says how it was fitted; measured by
# bench/recognition_nonogram.py (its photo sets)
SHRUNK = 1.2  # an upload shrunk at least this much to the working size ...
SMALL_CELL = 24  # ... whose cells are smaller than this there is read again finer
FINE_SIDE = 2048  # pixels along the longer side of that finer reading

# clues.py: set by hand unless the note says how it was fitted; measured by
# bench/recognition_nonogram.py
CLUE_CELL = 40  # pixels per grid cell in the straightened view
# Cells the web of lines must enclose: in a photo the thin lines may vanish, leaving the
# blocks of 5x5 cells the thick lines bound (four in a 10x10 grid).
MIN_WEB_CELLS = 4
MAX_CLUE_CELLS = 24  # how far (in cells) clues may reach out from the grid
LINE_SHARE = 0.6  # a straightened column (row) this much ink along the grid is a grid line
OFF_LATTICE = 0.3  # ink further than this (share of a cell) from a whole step is no line
STEPS_SHARE = 0.7  # a cell's size is one that this share of the gaps are whole steps of
DIGIT_HEIGHT = (0.25, 0.9)  # a clue digit's height as a share of the cell
DIGIT_GAP = 0.5  # blobs closer than this (share of the text height) in a row: one number
CHAIN_GAP = (1.8, 0.6)  # clue numbers follow each other within this many cells: rows, columns
# Ink this close to the grid (share of a cell) is its outline, bent or blurred in a photo;
# clues keep further off.
GRID_EDGE = 0.18
FIRST_GAP = 1.2  # the first number lies within this many cells of the grid
WIDEST_NUMBER = 2.0  # two touching digits of a broad face, blurred: a line's piece is wider
WIDE_GLYPH = 0.95  # a glyph this much wider than tall is cut in two (or weighed as two)
MAYBE_TWO = 1.2  # a lone glyph this much wider than the face's digits may be two digits
TWO_PRIOR = 0.4  # the prior that it is
# Any glyph this much wider than tall may also be two digits ('11' in a tight face, about
# as wide as one '0'), with a lower prior: the classifier's certainty decides.
MAYBE_TWO_ANY, LOW_TWO_PRIOR = 0.6, 0.45  # a blob this much wider than tall is two touching digits
MAX_CANDIDATES = 6  # values kept per clue number
DARKER_THAN_PAPER = 40  # grey levels: a light grid line, not the shading of a clue area
FAINT_LINE = 6  # grey levels below the local mean that count as a line inside the grid
FILLED_SHARE = 0.55  # a cell this dark inside is filled
CROSS_SHARE = 0.04  # a cell with this much ink inside (but not filled) is crossed
CLUE_RATE = 0.7  # a nonogram shows clues on at least this share of its rows and columns
SOME_CLUES = 0.3  # a grid with clues beside this share of its lines may be a nonogram
ONES_NEEDED, SURE_ONE = 3, 0.6  # the face's 1s: this many read at least this surely
MAYBE_ONE = 0.3  # a glyph read as 1 with at least this probability is weighed as a 1
# A lone glyph read as '1' this many times wider than the face's own 1s is two touching
# 1s ('11'), one no wider than LONE_ONE times them is a '1': the face says which, not
# the classifier, which reads both as '1'.
TWO_ONES, LONE_ONE = 1.6, 1.25
ONES_PRIOR, LONE_PRIOR = 0.9, 0.05  # the prior of the two-digit reading then
# A lone glyph wider than WIDE_GLYPH is most likely two digits, but may be one broad digit
# of a slab face (a '4' as wide as high): the classifier's certainty decides.
WIDE_PRIOR = 0.7
MOST_PAIR = 0.95  # the classifier's word that a glyph is two digits is taken up to this
