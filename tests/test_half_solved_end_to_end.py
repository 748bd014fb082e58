"""A half-solved page over HTTP and through the CLI: the printed puzzle is solved, and the
person's digits, notes and wrong digits come back in the result (one cell of the entries
and one of the notes may be misread; the wrong entry must be found)."""

from __future__ import annotations

import io
import json

from gridsight.synth.half_solved import half_solved_page
from tests.conftest import finished_job
from tests.test_cli import run_cli


def cells_apart(a: list[list[int]], b: list[list[int]]) -> int:
    return sum(x != y for ra, rb in zip(a, b, strict=True) for x, y in zip(ra, rb, strict=True))


def test_half_solved_photo_lists_entries_notes_and_wrong_entries(client):
    page = half_solved_page(31, wrong=1, entry_share=0.3)
    buffer = io.BytesIO()
    page.image.save(buffer, "PNG")
    job = finished_job(client, "page.png", buffer.getvalue())
    result = job["result"]
    assert job["status"] in ("solved", "needs_review"), result
    assert result["solution"] == page.solution
    assert result["puzzle"]["givens"] == page.givens
    assert cells_apart(result["entries"], page.entries) <= 1
    assert len(set(map(tuple, result["notes"])) ^ set(page.notes)) <= 1
    assert [(w["row"], w["col"], w["written"], w["correct"])
            for w in result["wrong_entries"]] == page.wrong
    kinds = job["reading"]["cell_kinds"]
    assert len(kinds) == 9 and all(len(p) == 4 for row in kinds for p in row)


def test_cli_json_line_has_entries_notes_and_wrong_entries(tmp_path):
    page = half_solved_page(32, wrong=1, entry_share=0.3)
    path = tmp_path / "page.png"
    page.image.save(path)
    done = run_cli("solve", str(path), "--json")
    assert done.returncode == 0, done.stderr
    line = json.loads(done.stdout)
    assert line["givens"] == page.givens and line["solution"] == page.solution
    assert cells_apart(line["entries"], page.entries) <= 1
    assert len(set(map(tuple, line["notes"])) ^ set(page.notes)) <= 1
    assert line["wrong_entries"] == [{"row": r, "col": c, "written": w, "correct": k}
                                     for r, c, w, k in page.wrong]
    assert line["entries_used"] is False


def test_openapi_schema_documents_the_half_solved_fields():
    from services.gateway.app import create_app

    schemas = create_app().openapi()["components"]["schemas"]
    result, reading = schemas["SolveResult"]["properties"], schemas["Reading"]["properties"]
    for name in ("entries", "notes", "wrong_entries", "entries_used"):
        assert result[name].get("description"), name
    for name in ("cell_kinds", "entries"):
        assert reading[name].get("description"), name
    assert set(schemas["WrongEntry"]["properties"]) == {"row", "col", "written", "correct"}
    kind = schemas["CellFix"]["properties"]["kind"]
    assert "entry" in kind["description"] and "printed" in str(kind["anyOf"])


def test_overlay_keeps_the_persons_digits_and_marks_the_wrong_one_in_red(client):
    """Over HTTP: the solution is drawn into the empty and pencil-note cells only; the
    person's own digits are not drawn over, and the one that contradicts the solution is
    outlined and struck through in red."""
    import numpy as np

    from services.gateway.overlay import WRONG_RGB
    from tests.test_overlay import pixels, quad_mask

    page = half_solved_page(33, wrong=1, entry_share=0.4)
    buffer = io.BytesIO()
    page.image.save(buffer, "PNG")
    job = finished_job(client, "page.png", buffer.getvalue())
    result = job["result"]
    assert result["solution"] == page.solution, result
    wrong = {(w["row"], w["col"]) for w in result["wrong_entries"]}
    assert wrong == {(r, c) for r, c, _, _ in page.wrong}
    drawn = client.get(f"/v1/jobs/{job['id']}/overlay.png")
    assert drawn.status_code == 200
    before, after = pixels(buffer.getvalue()), pixels(drawn.content)
    changed = np.any(before != after, axis=2)
    red = np.all(np.abs(after - np.array(WRONG_RGB)) < 40, axis=2)
    quads = job["reading"]["cell_quads"]
    for r in range(9):
        for c in range(9):
            inside = quad_mask(changed.shape, quads[r][c], grow=-1)
            if (r, c) in wrong:
                assert red[inside].mean() > 0.03, (r, c)
            elif result["entries"][r][c] or page.givens[r][c]:
                assert not changed[inside].any(), f"drawn over the digit at {(r, c)}"
            else:  # empty or pencil notes: the solution's digit is drawn in
                assert changed[inside].mean() > 0.03, f"no digit drawn at {(r, c)}"
                assert not red[inside].any(), (r, c)
