"""Messages a person reads are in their words: no regex, no raw pixel counts, no solver
jargon."""

from __future__ import annotations

import io
import random
import struct
import zlib

import pytest
from PIL import Image

from gridsight.synth.puzzles import make_sudoku
from services.contracts import Corrections, Reading
from services.corrections import CorrectionError, check_corrections
from services.solver import solve_page
from services.solver.conflicts import plain_clashes
from services.solver.grid import geometry
from tests.conftest import wait_for_job
from tests.solver.test_solver_entries import page_reading
from tests.test_gateway import assert_problem


def test_an_id_that_is_no_job_id_is_said_in_words(client):
    detail = assert_problem(client.get("/v1/jobs/short"), 422)["detail"]
    assert "this is no job id" in detail
    assert "pattern" not in detail and "[A-Za-z" not in detail


def test_a_picture_of_too_many_pixels_is_refused_in_megapixels(client):
    out = io.BytesIO()
    Image.new("L", (9000, 6750), 255).save(out, "JPEG", quality=50)
    response = client.post("/v1/jobs", files={"image": ("big.jpg", out.getvalue(), "image/jpeg")})
    detail = assert_problem(response, 413)["detail"]
    assert "9000x6750 pixels (61 megapixels)" in detail and "megapixels a picture may" in detail
    assert "40000000" not in detail



def test_no_grid_found_names_no_kind_when_the_kind_was_left_to_find_out():
    from services.recognizer import RecognitionError, recognize

    out = io.BytesIO()
    Image.new("RGB", (640, 480), "white").save(out, "PNG")
    with pytest.raises(RecognitionError) as refused:
        recognize(out.getvalue(), "auto")
    words = str(refused.value)
    assert words.startswith("no puzzle grid was found in the picture: photograph the whole "
                            "puzzle") and "sudoku" not in words


def test_a_typed_in_cages_cell_is_named_as_its_json_wrote_it(client):
    """Cells in the JSON are [row, col] from 0: a message names [0, 1] as sent, with the
    row and column a person counts, never "(1,2)"; cages are the 1st, 2nd ... of the list."""
    document = {"kind": "killer", "size": 4, "cages": [
        {"sum": 3, "cells": [[0, 0], [0, 1]]}, {"sum": 3, "cells": [[0, 1], [1, 1]]}]}
    response = client.post("/v1/jobs", json=document)
    assert response.status_code == 202, response.text
    error = wait_for_job(client, response.json()["id"])["error"]
    assert "the 1st and 2nd cages overlap at cell [0, 1] (row 1, column 2)" in error
    assert "(1,2)" not in error


def test_a_correction_outside_the_grid_is_named_as_sent():
    reading = Reading(kind="sudoku", size=9, cells=[[[1.0] + [0.0] * 9] * 9] * 9)
    with pytest.raises(CorrectionError) as refused:
        check_corrections(reading, Corrections.model_validate(
            {"cells": [{"row": 9, "col": 0, "value": 3}]}))
    assert str(refused.value) == ('cells: "row": 9, "col": 0 is outside the 9x9 grid ("row" '
                                  'and "col" count from 0, to 8)')


def test_a_conflicting_cage_is_named_by_its_sum_and_first_cell():
    geo = geometry(4, (2, 2))
    givens = [[3, 3, 0, 0]] + [[0] * 4 for _ in range(3)]
    found = plain_clashes(geo, givens, [([0, 1], 7)] + [([i], 1) for i in range(2, 16)])
    assert "the cage of sum 7 at row 1, column 1 is given the same digit twice" in found
    assert not any("cage 1" in text for text in found)


def png_header(width: int, height: int) -> bytes:
    """A PNG that claims a size (its pixels are never read: the claim is refused first)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data)))
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b""))


def test_a_picture_that_claims_far_too_many_pixels_is_refused_in_megapixels(client):
    response = client.post("/v1/jobs", files={
        "image": ("bomb.png", png_header(30000, 30000), "image/png")})
    detail = assert_problem(response, 413)["detail"]
    assert "megapixels" in detail and "a picture may have 40" in detail
    assert "40000000" not in detail


def test_an_upload_too_large_is_refused_in_megabytes(client):
    response = client.post("/v1/jobs", files={
        "image": ("big.png", b"\x00" * (11 * 1024 * 1024), "image/png")})
    detail = assert_problem(response, 413)["detail"]
    assert detail == "pictures are limited to 10 MB" and "bytes" not in detail


def test_no_hints_for_a_puzzle_of_many_solutions_says_so_in_words(client):
    givens = [[0] * 9 for _ in range(9)]
    givens[0][0] = 5
    response = client.post("/v1/jobs", json={"kind": "sudoku", "size": 9, "givens": givens})
    assert response.status_code == 202, response.text
    job = wait_for_job(client, response.json()["id"])
    detail = assert_problem(client.post(f"/v1/jobs/{job['id']}/hint"), 409)["detail"]
    assert "it has more than one solution" in detail and "verdict" not in detail


def test_one_wrong_digit_is_counted_in_words():
    givens, solution = make_sudoku(random.Random(3))
    r, c = next((r, c) for r in range(9) for c in range(9) if not givens[r][c])
    entries = [[0] * 9 for _ in range(9)]
    entries[r][c] = solution[r][c] % 9 + 1
    result = solve_page(page_reading(givens, entries))
    assert result.message.endswith("; one of your digits contradicts the solution")
