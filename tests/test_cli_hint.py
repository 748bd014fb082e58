"""`gridsight hint`: the next step, or all of them, of a picture or a puzzle file."""

from __future__ import annotations

import json
import random

from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import render_sudoku
from tests.test_cli import run_cli


def test_hint_json_for_a_picture_and_a_puzzle_file(tmp_path):
    givens, solution = make_sudoku(random.Random(23))
    picture = tmp_path / "shot.png"
    render_sudoku(givens, seed=23).save(picture)
    text = tmp_path / "puzzle.txt"
    text.write_text("\n".join("".join(str(v) for v in row) for row in givens) + "\n")
    done = run_cli("hint", str(picture), str(text), "--json")
    assert done.returncode == 0, done.stderr
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first["steps"] == second["steps"] and len(first["steps"]) == 1
    step = first["steps"][0]
    assert set(step) >= {"technique", "text", "cells", "placements", "eliminations"}
    for p in step["placements"]:
        assert solution[p["row"]][p["col"]] == p["value"]
    assert first["rating"]["steps"] == first["remaining"] > 1

    done = run_cli("hint", str(text), "--all", "--json")
    (whole,) = (json.loads(line) for line in done.stdout.splitlines())
    placed = {(p["row"], p["col"], p["value"]) for s in whole["steps"] for p in s["placements"]}
    assert placed == {(r, c, solution[r][c]) for r in range(9) for c in range(9)
                      if not givens[r][c]}
    assert all(solution[e["row"]][e["col"]] != e["value"]
               for s in whole["steps"] for e in s["eliminations"])


def test_hint_text_and_refusals(tmp_path):
    givens, _ = make_sudoku(random.Random(24))
    text = tmp_path / "puzzle.txt"
    text.write_text("".join(str(v) for row in givens for v in row))
    done = run_cli("hint", str(text))
    assert done.returncode == 0, done.stderr
    head, first = done.stdout.splitlines()
    assert "score" in head and first.startswith("1. ")
    empty = tmp_path / "empty.txt"
    empty.write_text("0" * 81)
    done = run_cli("hint", str(empty), "--json")
    assert done.returncode == 1 and "one solution" in json.loads(done.stdout)["error"]
