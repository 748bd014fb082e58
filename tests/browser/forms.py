"""The page's forms as a person fills them in: a typed-in sudoku or nonogram, a file
chosen to upload; each waits for what the page answers."""

from __future__ import annotations

import re

FINISHED = "#job[aria-busy='false']"


def solve_typed(page, givens):
    """A sudoku typed in as one line of digits, solved."""
    page.goto("/")
    page.get_by_label(re.compile("^Sudoku")).fill("".join(str(v) for row in givens for v in row))
    page.get_by_role("button", name="Solve sudoku").click()
    page.wait_for_selector(FINISHED + " #solution-grid")


def solve_nonogram(page, rows, cols, col_joiner: str = " "):
    """A nonogram typed in, a line of runs per row and per column ("0" for an empty
    column; `col_joiner` between a column's runs, as "2_2" is written too), solved."""
    page.goto("/")
    page.get_by_label("Row clues").fill("\n".join(" ".join(map(str, c)) for c in rows))
    page.get_by_label("Column clues").fill("\n".join(col_joiner.join(map(str, c)) or "0"
                                                     for c in cols))
    page.get_by_role("button", name="Solve nonogram").click()
    page.wait_for_selector(FINISHED + " #nonogram-picture")


def choose_file(page, name: str, mime: str, data: bytes):
    """A file chosen as the picture to solve; the page's alert, once it is shown."""
    page.goto("/")
    page.get_by_label("A picture from this device").set_input_files(
        {"name": name, "mimeType": mime, "buffer": data})
    alert = page.get_by_role("alert")
    alert.wait_for()
    return alert
