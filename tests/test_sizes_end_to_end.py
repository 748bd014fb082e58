"""A 6x6 sudoku and a 6x6 killer picture through the whole service over HTTP
(gateway -> Redis -> recognizer worker -> solver worker -> result -> overlay), with
kind=auto. Before grids of other sides were read, the sudoku failed with "no sudoku grid
found"; before 6x6 killers were read, the killer was read as a classic grid."""

from __future__ import annotations

import io
import random

from PIL import Image

from gridsight.synth.killer_render import render_killer
from gridsight.synth.puzzles import make_killer, make_sudoku
from gridsight.synth.render import render_sudoku
from tests.conftest import finished_job


def png(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def test_6x6_picture_is_solved_end_to_end_and_drawn(client):
    givens, solution = make_sudoku(random.Random(606), 6, (2, 3))
    picture = png(render_sudoku(givens, style="app", seed=606, box=(2, 3), cell_px=52))

    job = finished_job(client, "six.png", picture, kind="auto")

    assert job["status"] == "solved", job.get("error") or job["result"]
    assert job["reading"]["size"] == 6 and job["reading"]["box"] == [2, 3]
    assert len(job["reading"]["cells"][0][0]) == 7  # blank, 1..6
    result = job["result"]
    assert (result["size"], result["puzzle"]["box"]) == (6, [2, 3])
    assert result["puzzle"]["givens"] == givens
    assert result["solution"] == solution

    # The solution is drawn into the blank cells, not only onto the grid's corner.
    blank = [(r, c) for r in range(6) for c in range(6) if not givens[r][c]]
    assert cells_drawn(client, job, picture, blank) == len(blank)


def test_6x6_killer_picture_is_solved_end_to_end_and_drawn(client):
    """A 6x6 killer screenshot with kind=auto: read as a killer of its side and boxes
    (cage sums 1-21 adding up to 126), solved by the solver worker, drawn into the picture
    around its sums. Before, it was read as a classic 6x6 grid with the sums as givens."""
    puzzle, solution = make_killer(random.Random(6006), size=6)
    picture = png(render_killer(puzzle, style="app", seed=6006, cell_px=60))

    job = finished_job(client, "killer6.png", picture, kind="auto")

    assert job["status"] == "solved", job.get("error") or job["result"]
    reading = job["reading"]
    assert (reading["kind"], reading["size"], reading["box"]) == ("killer", 6, [2, 3])
    assert len(reading["walls_right"]) == 6 and len(reading["walls_right"][0]) == 5
    result = job["result"]
    assert (result["kind"], result["size"], result["puzzle"]["box"]) == ("killer", 6, [2, 3])
    cages = {(tuple(map(tuple, c["cells"])), c["sum"]) for c in result["puzzle"]["cages"]}
    assert cages == {(tuple(map(tuple, c.cells)), c.sum) for c in puzzle.cages}
    assert result["solution"] == solution

    # Every cell gets its digit, below the cage sum's corner.
    every = [(r, c) for r in range(6) for c in range(6)]
    assert cells_drawn(client, job, picture, every, below=0.45) == 36


def cells_drawn(client, job: dict, picture: bytes, cells, below: float = 0.0) -> int:
    """How many of `cells` the job's overlay draws into (the part of each cell from
    `below` of its height down, 4 px in from its sides), the picture's own size kept."""
    overlay = client.get(f"/v1/jobs/{job['id']}/overlay.png")
    assert overlay.status_code == 200
    drawn = Image.open(io.BytesIO(overlay.content)).convert("RGB")
    original = Image.open(io.BytesIO(picture)).convert("RGB")
    assert drawn.size == original.size
    quads = job["reading"]["cell_quads"]
    changed = 0
    for r, c in cells:
        (x0, y0), _, (x1, y1), _ = quads[r][c]
        box = (int(x0) + 4, int(y0 + below * (y1 - y0)) + (4 if not below else 0),
               int(x1) - 4, int(y1) - 4)
        changed += drawn.crop(box).tobytes() != original.crop(box).tobytes()
    return changed
