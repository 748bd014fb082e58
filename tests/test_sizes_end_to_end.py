"""Issue 17: a 6x6 sudoku picture through the whole service over HTTP (gateway -> Redis ->
recognizer worker -> solver worker -> result -> overlay), with kind=auto. Before grids
of other sides were read, this picture failed with "no sudoku grid found"."""

from __future__ import annotations

import io
import random

from PIL import Image

from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import render_sudoku
from tests.conftest import wait_for_job


def png(image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def test_6x6_picture_is_solved_end_to_end_and_drawn(client):
    givens, solution = make_sudoku(random.Random(606), 6, (2, 3))
    picture = png(render_sudoku(givens, style="app", seed=606, box=(2, 3), cell_px=52))

    response = client.post("/v1/jobs", files={"image": ("six.png", picture, "image/png")},
                           data={"kind": "auto"})
    assert response.status_code == 202
    job = wait_for_job(client, response.json()["id"])

    assert job["status"] == "solved", job.get("error") or job["result"]
    assert job["reading"]["size"] == 6 and job["reading"]["box"] == [2, 3]
    assert len(job["reading"]["cells"][0][0]) == 7  # blank, 1..6
    result = job["result"]
    assert (result["size"], result["puzzle"]["box"]) == (6, [2, 3])
    assert result["puzzle"]["givens"] == givens
    assert result["solution"] == solution

    overlay = client.get(f"/v1/jobs/{job['id']}/overlay.png")
    assert overlay.status_code == 200
    drawn = Image.open(io.BytesIO(overlay.content)).convert("RGB")
    original = Image.open(io.BytesIO(picture)).convert("RGB")
    assert drawn.size == original.size
    # The solution is drawn into the blank cells, not only onto the grid's corner.
    blank = [(r, c) for r in range(6) for c in range(6) if not givens[r][c]]
    quads = job["reading"]["cell_quads"]
    changed = 0
    for r, c in blank:
        (x0, y0), _, (x1, y1), _ = quads[r][c]
        box = (int(x0) + 4, int(y0) + 4, int(x1) - 4, int(y1) - 4)
        changed += drawn.crop(box).tobytes() != original.crop(box).tobytes()
    assert changed == len(blank)
