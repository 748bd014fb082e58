"""Stage 2, the cells: what each cell holds. Digits (features.py, classifier.py, digits.py),
the picture's orientation, symbols of larger grids, and on half-solved pages the kind of
each cell (kinds.py, marks.py, half_solved.py).

The tuned constants are in tuning.py, each with the bench that measures it. They were
fitted with `.venv/bin/python bench/recognition.py` (digits), `bench/symbol_families.py`
(symbols) and `bench/half_solved.py`, `bench/written_on.py` (cell kinds).
"""
