"""Stage 3 for killer sudoku: the lattice among cage outlines, cage walls (cages.py, and
hairline dots beside the grid lines at the picture's own scale: hairlines.py), cage sums,
the person's marks, and whether the picture is a killer at all (kind.py).

The cage sum reader's constants are in sum_tuning.py, the other stages' in tuning.py. All
were fitted with `.venv/bin/python bench/recognition_killer.py` (see
docs/benchmarks.md).
"""
