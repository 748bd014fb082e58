"""Messages a person reads are in their words: no regex, no raw pixel counts, no solver
jargon."""

from __future__ import annotations

import io

from PIL import Image

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

