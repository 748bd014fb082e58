"""Puzzle text formats.

parse_puzzles(text, kind) accepts:

* One sudoku per line: n*n characters (81 for 9x9, 16 for 4x4, 36 for 6x6 ...), with
  `.`, `0`, `-` or `_` for a blank.
* A multi-line grid: n lines of n characters (`-35-9--48`) or of n numbers separated
  by spaces or commas (needed above 9x9, e.g. `10 0 3 ...`). `|` is ignored and lines with
  `+` (box rules like `------+------`) are skipped. A block of n lines of n characters is
  read as one grid, so a file of sixteen 4x4 puzzles one per line must not hold exactly 16
  lines; separate grids by blank lines.
* Above 9x9, single characters 1-9 then A, B, C ... stand for 10, 11, 12 ... (1-9A-G for
  16x16, 1-9A-P for 25x25).
* JSON: one object, a list of objects, or one object per line. An object is a puzzle of
  services.contracts (with "kind"), or killer JSON {"size": 9, "cages": [{"sum": 11,
  "cells": [[0, 0], [1, 0]]}], "givens": ...}, or nonogram JSON, seed style
  {"Rows": ["3", "1_1"], "Cols": [...]} (runs joined by `_`; "0" or "" for an empty line)
  or clean {"rows": [[3], [1, 1]], "cols": [...]}. Sudoku givens may be a grid of
  numbers, a list of row strings or one string.

Any problem raises PuzzleError with a message for a person.
"""

from __future__ import annotations

import json
import re

from pydantic import ValidationError

from services.contracts import Cage, KillerPuzzle, NonogramPuzzle, SudokuPuzzle
from services.solver.errors import PuzzleError
from services.solver.grid import MAX_SIZE, MIN_SIZE, ordinal
from services.solver.nonogram import check_nonogram
from services.solver.solve import check_grid_puzzle

KINDS = ("sudoku", "killer", "nonogram")
BLANKS = set(".0-_")
SEPARATED = re.compile(r"[\s,;]+")
VALID_SIZES = range(MIN_SIZE, MAX_SIZE + 1)


def parse_puzzles(text: str, kind: str | None = None) -> list:
    """Every puzzle in text (see the module docstring for the formats)."""
    if kind == "auto":
        kind = None
    if kind is not None and kind not in KINDS:
        raise PuzzleError(f"unknown puzzle kind {kind!r}; use one of {', '.join(KINDS)}")
    if not isinstance(text, str):
        raise PuzzleError("puzzle text must be a string")
    text = text.lstrip("\ufeff").strip()
    if not text:
        raise PuzzleError("the puzzle text is empty")
    if text[0] in "{[":
        puzzles = _parse_json_text(text)
    else:
        if kind in ("killer", "nonogram"):
            raise PuzzleError(f"a {kind} puzzle must be given as JSON; this text looks like "
                              f"a sudoku grid")
        puzzles = _parse_grid_text(text)
    for p in puzzles:
        if kind is not None and p.kind != kind:
            raise PuzzleError(f"expected a {kind} puzzle but found a {p.kind} puzzle")
        if isinstance(p, NonogramPuzzle):
            check_nonogram(p)
        else:
            check_grid_puzzle(p)
    return puzzles


# --- JSON ---------------------------------------------------------------------------


def _parse_json_text(text: str) -> list:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as whole:
        lines = [line for line in text.splitlines() if line.strip()]
        if len(lines) < 2 or not all(line.lstrip().startswith("{") for line in lines):
            raise PuzzleError(f"bad JSON: {whole.msg} at line {whole.lineno} column "
                              f"{whole.colno}") from None
        data = []
        for number, line in enumerate(lines, 1):
            try:
                data.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise PuzzleError(f"bad JSON on line {number}: {e.msg} at column "
                                  f"{e.colno}") from None
    if isinstance(data, dict):
        data = [data]
    if not isinstance(data, list) or not data:
        raise PuzzleError("JSON must be a puzzle object or a non-empty list of them")
    return [puzzle_from_json(obj, k + 1) for k, obj in enumerate(data)]


def puzzle_from_json(obj, number: int = 1):
    """A puzzle model from one decoded JSON object, in any of the accepted styles."""
    where = f"puzzle {number}: " if number > 1 else ""
    if not isinstance(obj, dict):
        raise PuzzleError(f"{where}expected a JSON object, found {type(obj).__name__}")
    kind = obj.get("kind")
    if kind in (None, "", "auto"):
        kind = _guess_kind(obj)
    try:
        if kind == "nonogram":
            return _nonogram_from_json(obj)
        if kind == "killer":
            return _killer_from_json(obj)
        if kind == "sudoku":
            return _sudoku_from_json(obj)
    except ValidationError as e:
        first = e.errors()[0]
        place = ".".join(str(p) for p in first["loc"])
        raise PuzzleError(f"{where}{first['msg']} (at {place or 'top level'})") from None
    except (TypeError, ValueError, KeyError, AttributeError) as e:
        if isinstance(e, PuzzleError):
            raise PuzzleError(f"{where}{e}") from None
        raise PuzzleError(f"{where}malformed {kind} JSON: {e}") from None
    raise PuzzleError(f"{where}cannot tell the puzzle kind; add \"kind\": one of "
                      f"{', '.join(KINDS)}")


def _guess_kind(obj: dict) -> str | None:
    keys = set(obj)
    if "cages" in keys:
        return "killer"
    if keys & {"rows", "Rows"} and keys & {"cols", "Cols", "columns", "Columns"}:
        return "nonogram"
    if keys & {"givens", "grid", "puzzle"}:
        return "sudoku"
    return None


def _nonogram_from_json(obj: dict) -> NonogramPuzzle:
    rows = _first(obj, "rows", "Rows")
    cols = _first(obj, "cols", "Cols", "columns", "Columns")
    if not isinstance(rows, list) or not isinstance(cols, list):
        raise PuzzleError("a nonogram needs lists of row clues and column clues")
    return NonogramPuzzle(rows=[_clue(c, "row", i) for i, c in enumerate(rows)],
                          cols=[_clue(c, "column", i) for i, c in enumerate(cols)])


def _first(obj: dict, *names: str):
    for name in names:
        if name in obj:
            return obj[name]
    return None


def _clue(clue, line: str, index: int) -> list[int]:
    if isinstance(clue, int) and not isinstance(clue, bool):
        values = [clue]
    elif isinstance(clue, str):
        parts = [p for p in re.split(r"[_\s,]+", clue.strip()) if p]
        try:
            values = [int(p) for p in parts]
        except ValueError:
            raise PuzzleError(f"{line} {index + 1} clue {clue!r} is not numbers joined by "
                              f"'_'") from None
    elif isinstance(clue, list) and all(isinstance(v, int) and not isinstance(v, bool)
                                        for v in clue):
        values = list(clue)
    else:
        raise PuzzleError(f"{line} {index + 1} clue {clue!r} is not a list of numbers")
    if any(v < 0 for v in values):
        raise PuzzleError(f"{line} {index + 1} clue {values} has a negative run")
    return [v for v in values if v != 0] if any(values) else []


def _killer_from_json(obj: dict) -> KillerPuzzle:
    cages = obj.get("cages")
    if not isinstance(cages, list) or not cages:
        raise PuzzleError("a killer puzzle needs a non-empty list of cages")
    parsed = []
    for k, cage in enumerate(cages):
        if not isinstance(cage, dict) or "cells" not in cage:
            raise PuzzleError(f"the {ordinal(k + 1)} cage must be an object with \"sum\" "
                              "and \"cells\"")
        total = _first(cage, "sum", "total", "target")
        cells = cage["cells"]
        if not isinstance(cells, list) or not all(
                isinstance(c, list | tuple) and len(c) == 2 for c in cells):
            raise PuzzleError(f"the {ordinal(k + 1)} cage: cells must be [row, col] pairs")
        parsed.append(Cage(sum=total, cells=[tuple(c) for c in cells]))
    size = obj.get("size") or _size_from_cages(parsed)
    givens = obj.get("givens")
    if givens is not None:
        givens = _grid_from_json(givens, size)
    return KillerPuzzle(size=size, box=obj.get("box"), cages=parsed, givens=givens)


def _size_from_cages(cages: list[Cage]) -> int:
    cells = sum(len(c.cells) for c in cages)
    side = round(cells ** 0.5)
    return side if side * side == cells else 9


def _sudoku_from_json(obj: dict) -> SudokuPuzzle:
    givens = _first(obj, "givens", "grid", "puzzle")
    if givens is None:
        raise PuzzleError("a sudoku needs \"givens\"")
    size = obj.get("size")
    grid = _grid_from_json(givens, size)
    return SudokuPuzzle(size=size or len(grid), box=obj.get("box"), givens=grid)


def _grid_from_json(givens, size: int | None) -> list[list[int]]:
    if isinstance(givens, str):
        return _one_line_grid(givens, 1)
    if isinstance(givens, list) and givens and all(isinstance(r, str) for r in givens):
        return _rows_grid(givens)
    if isinstance(givens, list):
        return givens
    raise PuzzleError("givens must be a grid of numbers, a list of rows or one string")


# --- Plain text ------------------------------------------------------------------


def _parse_grid_text(text: str) -> list[SudokuPuzzle]:
    puzzles: list[SudokuPuzzle] = []
    line_number = 0
    block: list[tuple[int, str]] = []
    for raw in text.splitlines() + [""]:
        line_number += 1
        line = raw.replace("|", " ").strip()
        if line.startswith(("#", "//")) or "+" in line:
            continue
        if line:
            block.append((line_number, line))
        elif block:
            puzzles += _parse_block(block)
            block = []
    return puzzles


def _parse_block(block: list[tuple[int, str]]) -> list[SudokuPuzzle]:
    rows = [_cells_of(line) for _, line in block]
    square = sum(len(r) == len(rows) for r in rows)
    if len(rows) in VALID_SIZES and square * 2 >= len(rows):
        # Mostly n cells in each of n lines: one grid (a short row is reported as such).
        grid = _rows_grid([line for _, line in block])
        return [SudokuPuzzle(size=len(grid), givens=grid)]
    return [SudokuPuzzle(size=len(g), givens=g)
            for g in (_one_line_grid(line, number) for number, line in block)]


def _cells_of(line: str) -> list[str]:
    """The cell tokens of a row: numbers when separated, else single characters."""
    tokens = [t for t in SEPARATED.split(line) if t]
    if len(tokens) > 1 and all(t.isdigit() or len(t) == 1 for t in tokens):
        return tokens
    return list("".join(tokens))  # e.g. '53.|.7.|...' with bars turned into spaces


def _rows_grid(lines: list[str]) -> list[list[int]]:
    rows = [_cells_of(line.replace("|", " ").strip()) for line in lines]
    size = len(rows)
    grid = []
    for r, tokens in enumerate(rows):
        if len(tokens) != size:
            raise PuzzleError(f"row {r + 1} has {len(tokens)} cells but the grid has {size} "
                              f"rows; a {size}x{size} grid needs {size} cells per row")
        grid.append([_value(t, size, f"row {r + 1}, column {c + 1}")
                     for c, t in enumerate(tokens)])
    return grid


def _one_line_grid(line: str, number: int) -> list[list[int]]:
    chars = "".join(line.split())
    size = round(len(chars) ** 0.5)
    if size * size != len(chars) or size not in VALID_SIZES:
        raise PuzzleError(f"line {number} has {len(chars)} characters; a sudoku on one line "
                          f"needs a square number of them (81 for 9x9, 16 for 4x4, "
                          f"36 for 6x6)")
    return [[_value(chars[r * size + c], size, f"line {number}, row {r + 1}, column {c + 1}")
             for c in range(size)] for r in range(size)]


def _value(token: str, size: int, where: str) -> int:
    if token in BLANKS:
        return 0
    if token.isdigit():
        value = int(token)
    elif len(token) == 1 and token.isalpha() and size > 9:
        value = ord(token.upper()) - ord("A") + 10
    else:
        value = -1
    if not 0 <= value <= size:
        shown = "1-9" if size <= 9 else f"1-9, A-{chr(ord('A') + size - 10)} or 1-{size}"
        limit = f"1-{size}" if size <= 9 else shown
        raise PuzzleError(f"{where}: {token!r} is not a digit of a {size}x{size} sudoku "
                          f"(use {limit}, or . 0 - for a blank)")
    return value
