"""Nonograms: the grid and its row and column clues, told before any sudoku stage runs.

Constants sit at the top of clues.py; they were fitted with
`.venv/bin/python bench/recognition_nonogram.py`.
"""
