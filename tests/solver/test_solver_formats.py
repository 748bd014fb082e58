"""Every accepted text format, and clear errors for the wrong ones."""

from __future__ import annotations

import json
import random

import pytest

from gridsight.synth.puzzles import make_killer, make_sudoku
from services.contracts import KillerPuzzle, NonogramPuzzle, SudokuPuzzle
from services.solver import PuzzleError, parse_puzzles, solve_puzzle

LINE = "4...3.......6..8..........1....5..9..8....6...7.2........1.27..5.3....4.9........"


def as_line(grid, blank="."):
    return "".join(str(v) if v else blank for row in grid for v in row)


def test_one_sudoku_per_line_with_any_blank_character():
    grids = [make_sudoku(random.Random(s), 9)[0] for s in range(3)]
    text = "\n".join(as_line(g, blank) for g, blank in zip(grids, ".0-", strict=True))
    puzzles = parse_puzzles(text + "\n\n")
    assert [p.givens for p in puzzles] == grids
    assert all(isinstance(p, SudokuPuzzle) and p.size == 9 for p in puzzles)


def test_small_sudoku_lines():
    four, _ = make_sudoku(random.Random(1), 4)
    six, _ = make_sudoku(random.Random(1), 6)
    puzzles = parse_puzzles(as_line(four) + "\n" + as_line(six))
    assert [(p.size, p.givens) for p in puzzles] == [(4, four), (6, six)]


def test_multi_line_grid_with_dashes():
    text = "\n".join(LINE.replace(".", "-")[r * 9:r * 9 + 9] for r in range(9))
    (puzzle,) = parse_puzzles(text, "sudoku")
    assert puzzle.givens[0] == [4, 0, 0, 0, 3, 0, 0, 0, 0]
    assert puzzle.givens == parse_puzzles(LINE)[0].givens


def test_grid_with_box_rules_and_bars():
    rows = [LINE[r * 9:r * 9 + 9] for r in range(9)]
    drawn = []
    for r, row in enumerate(rows):
        drawn.append(" ".join(row[:3]) + " | " + " ".join(row[3:6]) + " | " + " ".join(row[6:]))
        if r in (2, 5):
            drawn.append("------+-------+------")
    (puzzle,) = parse_puzzles("\n".join(drawn))
    assert puzzle.givens == parse_puzzles(LINE)[0].givens
    compact = "\n".join(row[:3] + "|" + row[3:6] + "|" + row[6:] for row in rows)
    assert parse_puzzles(compact)[0].givens == puzzle.givens


def test_twelve_by_twelve_as_separated_numbers():
    givens, _ = make_sudoku(random.Random(12), 12)
    text = "\n".join(", ".join(str(v) for v in row) for row in givens)
    (puzzle,) = parse_puzzles(text)
    assert puzzle.size == 12 and puzzle.givens == givens
    assert solve_puzzle(puzzle).verdict == "unique"


def test_sixteen_by_sixteen_with_letters():
    givens, _ = make_sudoku(random.Random(16), 16)
    symbol = ".123456789ABCDEFG"
    one_line = "".join(symbol[v] for row in givens for v in row)
    assert parse_puzzles(one_line)[0].givens == givens
    grid = "\n".join("".join(symbol[v] for v in row) for row in givens)
    assert parse_puzzles(grid.lower())[0].givens == givens


def test_killer_json_with_and_without_kind():
    puzzle, _ = make_killer(random.Random(3), 9, givens=True)
    plain = {"size": 9, "cages": [{"sum": c.sum, "cells": [list(x) for x in c.cells]}
                                  for c in puzzle.cages], "givens": puzzle.givens}
    (parsed,) = parse_puzzles(json.dumps(plain))
    assert isinstance(parsed, KillerPuzzle) and parsed == puzzle
    (again,) = parse_puzzles(puzzle.model_dump_json(), kind="killer")
    assert again == puzzle


def test_nonogram_json_in_both_styles():
    # The picture ###. / #.#. / ##.. in seed style and in clean style.
    seed = '{"Rows": ["3", "1_1", "2"], "Cols": ["3", "1_1", "2", "0"]}'
    clean = '{"kind": "nonogram", "rows": [[3], [1, 1], [2]], "cols": [[3], [1, 1], [2], []]}'
    (a,) = parse_puzzles(seed)
    assert a == NonogramPuzzle(rows=[[3], [1, 1], [2]], cols=[[3], [1, 1], [2], []])
    assert parse_puzzles(clean, "nonogram") == [a]
    assert parse_puzzles(seed.replace('"0"', '""')) == [a]
    result = solve_puzzle(a)
    assert (result.verdict, result.solution) == ("unique", ["###.", "#.#.", "##.."])


def test_one_json_object_per_line_and_lists():
    a, _ = make_sudoku(random.Random(1), 4)
    b, _ = make_sudoku(random.Random(2), 4)
    lines = "\n".join(json.dumps({"kind": "sudoku", "size": 4, "givens": g}) for g in (a, b))
    assert [p.givens for p in parse_puzzles(lines)] == [a, b]
    listed = json.dumps([{"givens": as_line(a)}, {"givens": as_line(b)}])
    assert [p.givens for p in parse_puzzles(listed)] == [a, b]


@pytest.mark.parametrize("text, kind, words", [
    ("", None, "empty"),
    ("123", None, "3 characters"),
    (LINE[:80] + "A", None, "'A' is not a digit of a 9x9 sudoku"),
    ("1234\n1234\n12\n1234", None, "row 3 has 2 cells"),
    ("1234123412341234\n123", None, "line 2 has 3 characters"),
    ("12.4\n34..\n2..9\n....", None, "'9' is not a digit of a 4x4"),
    ('{"size": 9, "cages": [', None, "bad JSON"),
    ('{"kind": "sudoku"', None, "bad JSON"),
    ('{"foo": 1}', None, "cannot tell the puzzle kind"),
    ('{"kind": "sudoku", "givens": [[1, 2, 3, 4], [0, 0, 0, 0], [0], [0, 0, 0, 0]]}', None,
     "row 3 has 1 cells"),
    ('{"kind": "sudoku", "givens": [[1, 2], [3]]}', None, "between 4 and 25, got 2"),
    (LINE, "killer", "must be given as JSON"),
    ('{"rows": [[3]], "cols": [[1], [1]]}', "nonogram", "needs 3 cells but the line has 2"),
    ('{"Rows": ["1_x"], "Cols": ["1"]}', None, "not numbers joined by '_'"),
    ('{"Rows": ["-1"], "Cols": ["1"]}', None, "negative run"),
    ('{"size": 4, "cages": [{"sum": 3, "cells": [[0,0],[0,1]]}, '
     '{"sum": 3, "cells": [[0,1],[1,1]]}]}',
     None, "overlap at cell"),
    ('{"cages": [{"sum": 3, "cells": [[0,0],[0,1]]}]}', "sudoku", "expected a sudoku"),
    ('{"kind": "killer", "cages": [{"sum": "x", "cells": [[0, 0]]}]}', None, "sum"),
    ('[1, 2]', None, "expected a JSON object"),
    ('{"kind": "sudoku", "givens": "12"}', None, "2 characters"),
])
def test_bad_text_gets_a_clear_puzzle_error(text, kind, words):
    with pytest.raises(PuzzleError, match=words):
        parse_puzzles(text, kind)


def test_unknown_kind_is_refused():
    with pytest.raises(PuzzleError, match="unknown puzzle kind"):
        parse_puzzles(LINE, "kakuro")


def test_grids_separated_by_blank_lines():
    a, _ = make_sudoku(random.Random(1), 4)
    b, _ = make_sudoku(random.Random(2), 4)
    text = "\n\n".join("\n".join("".join(str(v) if v else "." for v in row) for row in g)
                       for g in (a, b))
    assert [p.givens for p in parse_puzzles("# two puzzles\n" + text)] == [a, b]
