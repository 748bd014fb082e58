"""A nonogram screenshot through the whole service over HTTP (gateway -> Redis ->
recognizer worker -> solver worker -> result -> overlay) with kind=auto, and through the
CLI. Before nonograms were read from pictures, kind=auto read this picture as a sudoku
(or found no grid) and kind=nonogram was refused."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys

from PIL import Image

from gridsight.stack import ROOT
from gridsight.synth.nonogram_render import render_nonogram
from gridsight.synth.puzzles import make_unique_nonogram
from tests.conftest import finished_job


def png(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def test_nonogram_picture_is_solved_end_to_end_and_drawn(client):
    puzzle, picture = make_unique_nonogram(random.Random(1717), 15, 10)
    data = png(render_nonogram(puzzle, style="app", seed=1717, title=True))

    job = finished_job(client, "nono.png", data, kind="auto")

    assert job["status"] == "solved", job.get("error") or job["result"]
    reading = job["reading"]
    assert reading["kind"] == "nonogram"
    assert (reading["width"], reading["height"]) == (15, 10)
    result = job["result"]
    assert result["kind"] == "nonogram" and (result["width"], result["height"]) == (15, 10)
    assert result["puzzle"]["rows"] == puzzle.rows and result["puzzle"]["cols"] == puzzle.cols
    assert result["solution"] == picture

    overlay = client.get(f"/v1/jobs/{job['id']}/overlay.png")
    assert overlay.status_code == 200
    drawn = Image.open(io.BytesIO(overlay.content)).convert("RGB")
    original = Image.open(io.BytesIO(data)).convert("RGB")
    assert drawn.size == original.size
    quads = reading["cell_quads"]
    for r, row in enumerate(picture):  # filled cells painted, empty ones left alone
        for c, cell in enumerate(row):
            (x0, y0), _, (x1, y1), _ = quads[r][c]
            box = (int(x0) + 4, int(y0) + 4, int(x1) - 4, int(y1) - 4)
            changed = drawn.crop(box).tobytes() != original.crop(box).tobytes()
            assert changed == (cell == "#"), (r, c)


def test_cli_solves_a_nonogram_picture(tmp_path):
    puzzle, picture = make_unique_nonogram(random.Random(1718), 10, 15)
    path = tmp_path / "nonogram.png"
    render_nonogram(puzzle, style="newspaper", seed=1718).save(path)
    done = subprocess.run([sys.executable, "-m", "gridsight.cli", "solve", str(path), "--json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout)
    assert line["kind"] == "nonogram" and line["status"] == "solved"
    assert (line["width"], line["height"]) == (10, 15)
    assert line["solution"] == picture
