"""Pydantic models passed between the gateway, the recognizer and the solver.

Every message that crosses a queue is one of these models dumped to JSON, so the
three services agree on one vocabulary. Coordinates are (row, col), 0-based; image
points are (x, y) pixels in the uploaded image.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

Kind = Literal["sudoku", "killer", "nonogram"]
RequestedKind = Literal["auto", "sudoku", "killer", "nonogram"]
JobStatus = Literal["queued", "recognizing", "solving", "solved", "needs_review", "failed"]
Verdict = Literal["unique", "none", "multiple", "unknown"]
# A verdict as a person is told it (what a hint needs is one solution).
VERDICT_WORDS = {"unique": "it has one solution", "none": "it has no solution",
                 "multiple": "it has more than one solution",
                 "unknown": "it was not solved in time"}
Symbols = Literal["digits", "hex", "letters"]
Point = tuple[float, float]
Cell = tuple[int, int]

# Queue and task names: the gateway sends tasks by these names and never imports
# the code behind them.
RECOGNIZE_QUEUE = "recognize"
# Lanes by expected cost: pictures' solves (milliseconds) on `solve`; typed-in puzzles,
# which may search for seconds, on lanes of their own, so a picture never waits behind
# one; large typed-in puzzles apart again, so they hold up no small typed-in one.
SOLVE_QUEUE = "solve"
SOLVE_TYPED_QUEUE = "solve-typed"
SOLVE_LARGE_QUEUE = "solve-large"
SOLVE_QUEUES = (SOLVE_QUEUE, SOLVE_TYPED_QUEUE, SOLVE_LARGE_QUEUE)
RECOGNIZE_TASK = "gridsight.recognize"
SOLVE_TASK = "gridsight.solve"


def symbol_text(value: int, symbols: str | None = "digits") -> str:
    """How a value is printed in a convention (Symbols): "digits" 1..16 as numbers; "hex"
    1-9 then A-G for 10-16; "letters" A-P for 1-16 (magazines print 16x16 grids all three
    ways). None: digits."""
    if symbols == "letters":
        return chr(ord("A") + value - 1)
    if symbols == "hex" and value > 9:
        return chr(ord("A") + value - 10)
    return str(value)


REVIEW_BOX = 0.5


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- Puzzles as facts -------------------------------------------------------


class Cage(Model):
    sum: int
    cells: list[Cell]


class SudokuPuzzle(Model):
    kind: Literal["sudoku"] = "sudoku"
    size: int = 9
    box: tuple[int, int] | None = None  # (rows, cols) of a box; None = the usual shape
    givens: list[list[int]]  # size x size, 0 = blank


class KillerPuzzle(Model):
    kind: Literal["killer"] = "killer"
    size: int = 9
    box: tuple[int, int] | None = None
    cages: list[Cage]
    givens: list[list[int]] | None = None


class NonogramPuzzle(Model):
    kind: Literal["nonogram"] = "nonogram"
    rows: list[list[int]]  # clue runs for each row, top to bottom
    cols: list[list[int]]  # clue runs for each column, left to right


Puzzle = Annotated[SudokuPuzzle | KillerPuzzle | NonogramPuzzle, Field(discriminator="kind")]


# --- Readings: what the recognizer saw, with probabilities --------------------


class SumCandidate(Model):
    value: int
    prob: float


class CageSumReading(Model):
    cell: Cell  # the cell whose corner holds the number
    candidates: list[SumCandidate]  # most probable first


class ClueReading(Model):
    """One number of a nonogram clue as read: its candidate values, most probable first."""

    candidates: list[SumCandidate]


class WrittenReading(Model):
    """A classic page read as print-only, read again as one a person wrote on: `cells`
    (printed givens only), `cell_kinds` and `entries` as Reading's on such a page."""

    cells: list[list[list[float]]]
    cell_kinds: list[list[list[float]]]
    entries: list[list[list[float]]]
    # Whether the cells read as the person's digits show in an ink apart from the
    # printed digits': evidence of writing. Without it the page is never answered as
    # written on (a misprint or print in an unfamiliar face is no person's digit).
    second_ink: bool = False


class Reading(Model):
    """A grid as read from a picture: each reading carries its probability."""

    kind: Literal["sudoku", "killer", "nonogram"]
    kind_confidence: float = 1.0
    size: int = 9
    box: tuple[int, int] | None = None
    # How values above 9 are printed: "digits" (10-16 as numbers), "hex" (1-9 then A-G)
    # or "letters" (A-P for 1-16); None: grids of 9 or fewer, printed in digits.
    symbols: Symbols | None = None
    # How clearly the thick lines showed the box shape (0..1). Below REVIEW_BOX the shape
    # was a guess, and a solution goes to review rather than out as solved.
    box_confidence: float = 1.0
    # cells[r][c][v]: probability that cell (r, c) shows v (v = 0 means blank).
    cells: list[list[list[float]]]
    # Killer only. walls_right[r][c]: probability of a cage wall between (r, c) and
    # (r, c+1); walls_down[r][c]: between (r, c) and (r+1, c).
    walls_right: list[list[float]] | None = None
    walls_down: list[list[float]] | None = None
    cage_sums: list[CageSumReading] = []
    # Classic pages a person wrote on. cell_kinds[r][c]: probabilities of blank, printed
    # given, the person's own digit (handwritten or entered in an app), pencil notes.
    # entries[r][c][v]: probability that the person's digit in (r, c) is v (0 = none).
    # On such a page `cells` holds the printed givens only (entries and notes: blank).
    cell_kinds: list[list[list[float]]] | None = Field(
        None, description="Classic pages: [row][col] -> probabilities of blank, printed "
        "given, the person's own digit (handwritten or entered in an app), pencil notes")
    entries: list[list[list[float]]] | None = Field(
        None, description="Classic pages: [row][col][v] -> probability that the person's "
        "own digit in the cell is v (0 = none); `cells` then holds printed givens only")
    # A page with a few of a person's digits, too few to take it as written on: read
    # again as written on. The solver turns to it when the print-only reading has no
    # solvable puzzle (a person's wrong digit read as printed).
    written_reading: WrittenReading | None = Field(
        None, description="Classic pages read as print-only where the cell model sees a "
        "person's digits: the page read as written on (cells, cell_kinds, entries)")
    # Nonograms: the grid's width and height in cells, and the clue numbers read for each
    # row (left to right) and each column (top to bottom); an empty line reads as [].
    # `cells` is then empty and `entries[r][c]` holds the probabilities that the person
    # left the cell untouched, filled it, or crossed it out.
    width: int | None = None
    height: int | None = None
    row_clues: list[list[ClueReading]] | None = None
    col_clues: list[list[ClueReading]] | None = None
    # Geometry in the uploaded image, for the overlay and the review page.
    image_size: tuple[int, int] | None = None  # (width, height)
    corners: list[Point] | None = None  # grid corners: TL, TR, BR, BL
    cell_quads: list[list[list[Point]]] | None = None  # [r][c] -> TL, TR, BR, BL
    # Degrees the upload (as shown, EXIF orientation applied) turns clockwise to stand the
    # puzzle upright; corners and cell_quads name the puzzle's own rows and columns.
    rotation: Literal[0, 90, 180, 270] = 0
    # Doubts a person should know, in words: e.g. the picture looks like another kind than
    # the one asked for.
    warnings: list[str] = []
    timings: dict[str, float] = {}
    stages: list[str] = Field(
        [], description="The reader's costly stages this picture entered, in order "
        "(nonogram_look, nonogram_clues, cage_look, cage_walls, cages, print_look, "
        "cell_kinds)")


# --- Solver output ------------------------------------------------------------


class Suspect(Model):
    """A reading the repair changed, or one whose margin is thin."""

    # Nonogram clue numbers: "row_clue"/"col_clue", row = the line's index, col = the
    # number's place in that line's clue (left to right, top to bottom).
    what: Literal["cell", "cage_sum", "wall_right", "wall_down", "row_clue", "col_clue"]
    row: int
    col: int
    read: int  # value read (digit, 0 = blank; sum; wall 1/0)
    chosen: int  # value the solver settled on
    read_prob: float
    chosen_prob: float
    alternatives: list[SumCandidate] = []


class WrongEntry(Model):
    """A digit the person wrote that contradicts the solution of the printed givens."""

    row: int
    col: int
    written: int
    correct: int


class Difficulty(Model):
    """How hard a sudoku or killer is for a person: the hardest technique its logical path
    from the givens needs, and the number of steps."""

    level: Literal["easy", "medium", "hard", "expert", "extreme", "fiendish", "beyond logic"]
    score: float = Field(description="the hardest technique's weight (1.0 naked single ... "
                         "6.0 chains, 7.0-7.8 forcing chains, 8.0 trial and error), plus 0.01 per "
                         "step beyond singles")
    hardest: str | None = Field(description="the hardest technique the path uses")
    steps: int = Field(description="steps of the path from the givens to the end")
    logical: bool = Field(description="the path needs no trial and error")


class SolveResult(Model):
    kind: Kind
    size: int | None = None  # grid side; nonograms: None (see width/height)
    width: int | None = None
    height: int | None = None
    status: Literal["solved", "needs_review", "failed"]
    verdict: Verdict
    # Pictures: how the grid printed values above 9 (see Reading.symbols); the solution
    # holds numbers, to be shown in this convention.
    symbols: Symbols | None = None
    puzzle: Puzzle | None = None  # the puzzle actually solved (after repair)
    # Sudoku kinds: rows of ints. Nonograms: rows of '#' and '.'.
    solution: list[list[int]] | list[str] | None = None
    other_solution: list[list[int]] | list[str] | None = None  # witness when 'multiple'
    suspects: list[Suspect] = []
    uncertain: list[Suspect] = []
    conflicts: list[str] = []  # readings that cannot hold together, in words
    # Half-solved pages (the Reading has cell_kinds): the person's own digits (rows of ints,
    # 0 = none), the cells holding pencil notes, and the entries the solution contradicts.
    entries: list[list[int]] | None = Field(
        None, description="Photographed classic pages: digits the person wrote or entered, "
        "rows of ints, 0 = none (the printed clues are puzzle.givens)")
    notes: list[Cell] = Field([], description="[row, col] of cells holding pencil candidates")
    wrong_entries: list[WrongEntry] = Field(
        [], description="the person's digits that contradict the solution: where they went "
        "wrong")
    entries_used: bool = Field(
        False, description="the printed givens alone have several solutions; this one was "
        "chosen by the person's digits (status is then needs_review)")
    difficulty: Difficulty | None = Field(
        None, description="Sudoku and killers with one solution: how hard the puzzle is "
        "(POST /v1/jobs/{id}/hint gives its steps). Worked out after the answer is stored: "
        "absent at first, even on a solved job, for up to a few seconds on a hard puzzle")
    message: str = ""
    seconds: float = 0.0


class CellValue(Model):
    row: int
    col: int
    value: int


class HintStep(Model):
    """One step a person can take: rows and columns 0-based here, counted from 1 in `text`."""

    technique: str = Field(description="e.g. hidden single, pointing, X-wing, AIC; "
                           "`wrong entry` for a digit of the person's the solution "
                           "contradicts")
    text: str = Field(description="the step in one sentence (r4c5 = row 4, column 5)")
    cells: list[Cell] = Field(description="[row, col] of the cells that prove it")
    digits: list[int] = Field([], description="the digits that prove it")
    placements: list[CellValue] = []
    eliminations: list[CellValue] = Field([], description="candidates it removes")


class Hints(Model):
    revision: int = Field(description="the job revision the steps start from")
    rating: Difficulty
    steps: list[HintStep] = Field(description="the next step, or (all=true) every step "
                                  "from the givens plus the person's digits to the end")
    remaining: int = Field(description="steps from here to the end")


# --- Corrections from a person -------------------------------------------------


# A person's fixes are taken exactly as sent: "5" or true is not a digit (strict fields).
class CellFix(Model):
    row: StrictInt = Field(ge=0)
    col: StrictInt = Field(ge=0)
    value: StrictInt = Field(ge=0)  # 0 = blank
    kind: Literal["printed", "entry", "blank"] | None = Field(
        None, description="Classic pages: what the cell holds. `printed`: a printed clue "
        "(value 1-9); `entry`: the person's own digit (value 1-9), checked against the "
        "solution and never a clue; `blank`: nothing (value 0). Without it, value 0 is "
        "blank and any other value a printed clue")


class SumFix(Model):
    row: StrictInt = Field(ge=0)  # the cell whose corner holds the cage's sum
    col: StrictInt = Field(ge=0)
    value: StrictInt = Field(ge=1)


class WallFix(Model):
    row: StrictInt = Field(ge=0)
    col: StrictInt = Field(ge=0)
    side: Literal["right", "down"]  # the wall to the right of, or below, (row, col)
    present: StrictBool


class ClueFix(Model):
    """A nonogram line's whole clue as the person reads it: numbers missed or read in
    excess are mended as well as misread ones."""

    line: Literal["row", "col"]
    index: StrictInt = Field(ge=0, description="the row (top to bottom) or column (left "
                             "to right), 0-based")
    clue: list[Annotated[StrictInt, Field(ge=0)]] = Field(
        description="the line's runs in order (left to right, top to bottom); [] or [0] "
        "for a line with nothing to fill")


class Corrections(Model):
    """Readings a person confirmed; the solver treats them as certain."""

    cells: list[CellFix] = []
    cage_sums: list[SumFix] = []
    walls: list[WallFix] = []
    clues: list[ClueFix] = Field([], description="Nonograms: whole clues of lines")


# --- Jobs ----------------------------------------------------------------------


class Problem(Model):
    """RFC 9457 problem details."""

    model_config = ConfigDict(extra="allow")
    type: str = "about:blank"
    title: str
    status: int
    detail: str = ""


class JobCreated(Model):
    id: str
    status: JobStatus


class Job(Model):
    id: str
    status: JobStatus
    kind: RequestedKind
    revision: int = 1
    created_at: float
    updated_at: float
    error: str | None = None
    reading: Reading | None = None  # as the recognizer read it
    corrections: Corrections | None = None
    result: SolveResult | None = None
    timings: dict[str, float] = {}
    # False: the upload is deleted as soon as the job ends (asked for at upload).
    keep_image: bool = True
    # The upload has been deleted: the job failed, or keep_image was false.
    image_deleted: bool = False
