"""Stage 1, the grid: the picture decoded, the grid's outline located, its lattice of lines
traced, its side and box shape told, and the focus judged.

The tuned constants are in tuning.py, each with the bench that measures it. They were
fitted on the generators' pictures and checked on the labelled photos with
`.venv/bin/python bench/recognition.py` (and `bench/out_of_focus.py` for focus.py).
"""
