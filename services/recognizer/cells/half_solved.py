"""A half-solved page read: printed givens told from the person's digits and pencil notes.

The cell kinds' classifier (cells/kinds.py) and the marks seen (cells/marks.py) give every
cell its kind; the Reading carries the kinds and a print-only view of the digits.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from services.recognizer.cells.ink import (
    ink_colour_features,
    ink_tones,
    screen_features,
    second_ink,
    with_one_print_ink,
)
from services.recognizer.cells.kinds import (
    CELL,
    ENTRY_CLASSES,
    KINDS,
    MODEL_PATH,
    NOTES_CLASS,
    PRINTED_CLASSES,
    SCREEN_MODEL_PATH,
    SIZE,
    CellKinds,
    classic_blank,
    load_kind_model,
    marginals,
    own_contrast_digits,
    straight_features,
    stroke_spans,
    with_classic_doubt,
    with_classic_ink,
    with_peers,
    with_printed_digits,
    with_typed_entries,
    with_unsupported_entries_doubted,
    without_tall_notes,
)
from services.recognizer.cells.marks import (
    Marks,
    mark_seen,
    mark_seen_at_all,
    marks,
    with_mark_evidence,
)
from services.recognizer.cells.tuning import (
    MARKS_PRINTED,
    MIN_ENTRIES,
    MIN_MARKS,
    MIN_NOTES,
    MIN_PRINTED,
    NOISE_MARKS,
    NOTES_MARK_SPAN,
    NOTES_SPAN,
    SURE_KIND,
)
from services.recognizer.grid.straighten import straighten
from services.recognizer.stages import enter


def read_cell_kinds(colour: np.ndarray, lattice: np.ndarray,
                    classic: np.ndarray | None = None) -> CellKinds:
    """The kind and digit probabilities of every cell of the grid at `lattice`;
    `classic`: the classic digit model's (SIZE, SIZE, 10) reading of the same cells."""
    return read_straight_kinds(straighten(colour, lattice, CELL), classic)


def read_straight_kinds(straight: np.ndarray, classic: np.ndarray | None = None) -> CellKinds:
    """read_cell_kinds of a grid already straightened at CELL pixels per cell."""
    return kinds_of(kind_evidence(straight, classic))


@dataclass
class KindEvidence:
    """What the kinds of a page's cells are decided from (see kind_evidence)."""

    probs: np.ndarray  # (SIZE*SIZE, 20) the cell model's classes, the classic model heeded
    as_read: np.ndarray  # probs without notes in cells with a tall stroke
    spans: np.ndarray  # stroke_spans
    seen: Marks
    classic: np.ndarray | None
    straight: np.ndarray | None = None  # a screenshot's grid (kind_evidence's `rendered`)


def kind_evidence(straight: np.ndarray, classic: np.ndarray | None = None,
                  rendered: bool = False) -> KindEvidence:
    """`rendered`: the grid is a screenshot's (print_look.rendered), read by the screens'
    model with its ink colours."""
    model = load_kind_model(SCREEN_MODEL_PATH if rendered else MODEL_PATH)
    tones = ink_tones(straight) if rendered or model.colour else None
    if rendered:
        x = screen_features(straight, tones)
    else:
        x = straight_features(straight)
        if model.colour:
            x = np.hstack([x, ink_colour_features(tones)])
    probs = model.predict_proba(x)
    if rendered:
        probs = with_one_print_ink(probs, tones)
    if classic is not None:
        classic = np.asarray(classic, np.float64)
        probs = with_printed_digits(with_classic_ink(probs, classic), classic)
        if rendered:
            probs = with_typed_entries(probs, own_contrast_digits(x))
        else:
            probs = with_unsupported_entries_doubted(with_classic_doubt(probs, classic),
                                                     own_contrast_digits(x))
    spans = stroke_spans(straight)
    # A photo's cell model took tall digits (light pencil, tinted light) for notes; the
    # screens' model reads notes where a highlight's edge or a centre row of candidates
    # spans the cell too, and keeps them.
    as_read = probs if rendered else without_tall_notes(probs, spans > NOTES_SPAN, classic)
    return KindEvidence(probs, as_read, spans, marks(straight), classic,
                        straight if rendered else None)


def kinds_of(ev: KindEvidence, setting: tuple | None = None) -> CellKinds:
    """The cells' kinds: a page written on (written_on) gets its cells' own marks weighed;
    any other page the print view (_print_view). `setting`: other values of (NOISE_MARKS,
    MIN_MARKS, MARKS_PRINTED) (bench/written_on.py fits them)."""
    if ev.straight is not None:
        return screen_kinds(ev)
    noise_marks, min_marks, marks_printed = setting or (NOISE_MARKS, MIN_MARKS, MARKS_PRINTED)
    writing = persons_marks(ev.seen, noise_marks)
    unexplained = writing & (classic_blank(ev.classic, len(ev.probs)) > 0.5)
    if not written_on(marginals(ev.as_read).kinds, writing, unexplained, min_marks,
                      marks_printed):
        # The cell model's kinds are kept where a mark stands above the grain as well:
        # a small grainy photo's blank cells pass at one pixel's noise (Marks.grain).
        clear = mark_seen(ev.seen.contrast - noise_marks * ev.seen.grain, ev.seen.span) > 0.5
        return _print_view(ev.as_read, ev.classic, unexplained & clear)
    return written_kinds(ev, noise_marks)


def screen_kinds(ev: KindEvidence) -> CellKinds:
    """The cells' kinds on a screenshot: the screens' model's own (a screen has no grain
    or shade for a person's marks to be told from). The page is played on when that
    model is sure of pencil notes, of MIN_ENTRIES of the person's digits, or of one in an
    ink apart from the givens' (ink.second_ink); else its digits are all print, where
    the screens' model sees them (a face the classic digit model misses some digits of:
    those cells are not blank). Either way the kinds' givens are the Reading's cells."""
    kinds = _screen_view(ev.as_read, ev.seen)
    sure = kinds.kinds.reshape(-1, len(KINDS)) > SURE_KIND
    entries = int(sure[:, 2].sum())
    if sure[:, 1].sum() >= MIN_PRINTED and (
            sure[:, 3].sum() >= MIN_NOTES or entries >= MIN_ENTRIES
            or (entries and second_ink(ev.straight, kinds.kinds))):
        return kinds
    printed = ev.as_read.copy()
    printed[:, PRINTED_CLASSES] += printed[:, ENTRY_CLASSES]
    printed[:, ENTRY_CLASSES] = 0.0
    return _screen_view(printed, ev.seen)


def _screen_view(probs: np.ndarray, seen: Marks) -> CellKinds:
    """A screenshot's kinds from these class probabilities: a cell with no mark at all
    holds no digit (a shadow's edge across a flat scan is none), though it may hold notes
    too light for the marks to tell (an app's grey candidates on a dark ground)."""
    kinds = marginals(with_peers(without_unmarked_digits(probs, seen)))
    kinds.written = True
    return kinds


def without_unmarked_digits(probs: np.ndarray, seen: Marks) -> np.ndarray:
    """`probs` whose digits (printed or the person's) in a cell with no mark at all, as
    with_mark_evidence tells it, go to blank; notes are kept."""
    unmarked = 1.0 - mark_seen_at_all(seen)
    out = probs.copy()
    digits = out[:, 1:NOTES_CLASS] * unmarked[:, None]
    out[:, 1:NOTES_CLASS] -= digits
    out[:, 0] += digits.sum(axis=1)
    return out


def written_kinds(ev: KindEvidence, noise_marks: float | None = None) -> CellKinds:
    """The cells' kinds on a page taken as written on: each cell's own marks weighed."""
    noise_marks = NOISE_MARKS if noise_marks is None else noise_marks
    seen = ev.seen
    probs = with_mark_evidence(ev.probs, seen.contrast, seen.span, seen.with_lines,
                               noise_marks * seen.grain)
    # A light pencil stroke breaks up at the page's ink scale: its span at its own too.
    tall = (ev.spans > NOTES_SPAN) | (seen.span > NOTES_MARK_SPAN)
    probs = without_tall_notes(probs, tall, ev.classic, mark_seen(seen.contrast, seen.span))
    kinds = marginals(with_peers(probs))
    kinds.written = True
    return kinds


def _print_view(as_read: np.ndarray, classic: np.ndarray | None,
                unexplained: np.ndarray) -> CellKinds:
    """The kinds of a page not written on: blank or printed as the classic digit model
    reads the cell, except where a person's mark lies in a cell that model sees blank
    (a few light digits or notes on a page with little writing): there the cell model's
    kinds. Its entries and notes elsewhere are print in an unfamiliar face or noise read
    as writing: on synthetic print-only photos (heavy noise, dark, stripes) they were
    most of the cells read wrong, and the solver would list them as the person's
    digits."""
    kinds = marginals(with_peers(as_read))
    if classic is None:
        return kinds
    blank = classic_blank(classic, len(as_read)).reshape(SIZE, SIZE)
    view = np.stack([blank, 1.0 - blank, np.zeros_like(blank), np.zeros_like(blank)], axis=-1)
    none = np.zeros((SIZE, SIZE, 10))
    none[..., 0] = 1.0
    keep = unexplained.reshape(SIZE, SIZE, 1)
    return CellKinds(np.where(keep, kinds.kinds, view), kinds.digits, kinds.givens,
                     np.where(keep, kinds.entries, none))


def kind_fields(kinds: CellKinds) -> dict:
    """The Reading's fields for cell kinds (rounded: they travel as JSON)."""
    return {"cell_kinds": np.round(kinds.kinds, 5).tolist(),
            "entries": np.round(kinds.entries, 5).tolist()}


def persons_marks(seen: Marks, noise_marks: float | None = None) -> np.ndarray:
    """(SIZE*SIZE,) bool: the cell holds a mark as dark as a person's writing (mark_seen)
    once the page's pixel noise (NOISE_MARKS sigmas) is taken off its contrast."""
    k = NOISE_MARKS if noise_marks is None else noise_marks
    return mark_seen(seen.contrast - k * seen.noise, seen.span) > 0.5


def print_only_fields(classic: np.ndarray) -> dict:
    """The kind fields half_solved_reading gives a page of print alone where the cell
    model sees no person's mark: blank or printed as the classic digit model reads each
    cell, no entries (see _print_view)."""
    blank = classic_blank(classic, SIZE * SIZE).reshape(SIZE, SIZE)
    view = np.stack([blank, 1.0 - blank, np.zeros_like(blank), np.zeros_like(blank)], axis=-1)
    none = np.zeros((SIZE, SIZE, 10))
    none[..., 0] = 1.0
    return kind_fields(CellKinds(view, None, None, none))


def half_solved_reading(colour: np.ndarray, lattice: np.ndarray, probs: np.ndarray,
                        straight: np.ndarray | None = None, rendered: bool = False
                        ) -> tuple[np.ndarray, dict]:
    """(cell probabilities for the Reading, the Reading's kind fields).

    On a page the person wrote on, a cell's probabilities become those of a printed
    given (an entry or notes count as no given), so the puzzle is the printed one and
    the repair weighs a cell's kind like any other reading. On a print-only page the
    digit model's probabilities are kept as they were, and the kind fields are its
    blank / printed split (_print_view); where the cell model sees a person's digit, the
    page read as written on goes along too ("written_reading"). `straight`: the colour
    grid straightened at CELL pixels per cell, when the caller has it; `rendered`: the
    grid is a screenshot's (print_look.rendered).
    """
    enter("cell_kinds")
    if rendered:
        enter("screen_kinds")
    if straight is None:
        straight = straighten(colour, lattice, CELL)
    evidence = kind_evidence(straight, probs, rendered)
    kinds = kinds_of(evidence)
    if kinds.written:
        return kinds.givens, kind_fields(kinds)
    fields = kind_fields(kinds)
    # Too few of a person's digits to take the page as written on (print in an unfamiliar
    # face reads as a few sure entries too): the page read as written on goes along, for
    # the solver to turn to if the print-only reading cannot be solved.
    written = written_kinds(evidence)
    if (written.kinds[..., 2] > 0.5).any():
        fields["written_reading"] = {"cells": np.round(written.givens, 5).tolist(),
                                     **kind_fields(written),
                                     "second_ink": second_ink(straight, written.kinds)}
    return probs, fields


def written_on(kinds: np.ndarray, writing: np.ndarray, unexplained: np.ndarray,
               min_marks: int = MIN_MARKS, marks_printed: int = MARKS_PRINTED) -> bool:
    """Whether a page with these (SIZE, SIZE, 4) kind probabilities (the cell model's) is
    written on. `writing`: (SIZE*SIZE,) cells holding a person's marks (persons_marks);
    `unexplained`: those the classic digit model sees blank. See MIN_ENTRIES."""
    sure = kinds.reshape(-1, len(KINDS)) > SURE_KIND
    by_marks = int(np.sum(unexplained)) >= min_marks and sure[:, 1].sum() >= marks_printed
    return bool(((sure[:, 2] & writing).sum() >= MIN_ENTRIES
                 or (sure[:, 3] & writing).sum() >= MIN_NOTES or by_marks)
                and sure[:, 1].sum() >= MIN_PRINTED)
