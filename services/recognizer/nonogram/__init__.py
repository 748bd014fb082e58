"""Nonograms: the grid and its row and column clues, told before any sudoku stage runs.

The tuned constants are in tuning.py; they were fitted with
`.venv/bin/python bench/recognition_nonogram.py`.
"""
