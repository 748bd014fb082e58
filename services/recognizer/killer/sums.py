"""Cage sums: find the small number in a cell's top-left corner and read its digits.

The corner of the straightened cell (SUM_CELL pixels a side) is cut into ink blobs. Blobs
that are digit-shaped (taller than wide, a sensible height), near the top and next to each
other on one text line form the sum; dash pieces of the cage outline are left out because
they are too short, too flat, or continue along the cell's side. Sums in one grid share
one text height, so blobs far from the grid's typical height are dropped too. Each digit
is read by a small classifier over 0..9 (scripts/train_sums.py) and a sum's candidates
are the products of its digits' probabilities. A second classifier reads the number as a
whole (1..45): it sees two digits that ran together ('11' as one blob, which the digit
model calls '8') as the number they are; the two readings are mixed with a weight fitted
on held-apart grids. A thin bar beside a number may be its '1' or a dash of the cage
outline: where the finder's geometry decides it, the other reading keeps a small prior.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import cv2
import joblib
import numpy as np

from services.contracts import CageSumReading, SumCandidate
from services.recognizer.cells.classifier import tempered_softmax
from services.recognizer.cells.glyphs import (
    Glyph,
    centred,
    glyph_features,
    split_glyph,
    trimmed,
)
from services.recognizer.killer.sum_finding import find_sums
from services.recognizer.killer.sum_tuning import (
    APART_SHARE,
    BAR_DOUBT,
    JOINED_FROM,
    JOINED_PERCENTILE,
    MAX_CANDIDATES,
    MAX_SUM,
    MAYBE_PAIR,
    MISSED_DIGIT,
    NUMBER_H,
    NUMBER_TEXT,
    NUMBER_W,
    PAIR_RATIO,
    PAIR_SPREAD,
    RECUT_PRIOR,
    SET_APART,
)
from services.recognizer.networks import network_proba, scaled

MODEL_PATH = Path(__file__).parents[1] / "models" / "killer.joblib"


@dataclass
class KillerModel:
    """The shipped killer models: edge walls and sum digits, with their training facts."""

    walls: object  # classifier over edge_features rows -> P(wall)
    digits: object  # (scaler, network) over glyph features -> P(0..9)
    info: dict
    temperature: float = 1.0  # softens the network's overconfident probabilities
    # Whole-number reader: (scaler, network) over number_features rows -> P(1..45), its
    # temperature, and its share in the mixture with the digit reading (0: not used).
    numbers: object = None
    number_temperature: float = 1.0
    number_weight: float = 0.0

    def digit_proba(self, x: np.ndarray) -> np.ndarray:
        scaler, network = self.digits
        p = network_proba(network, scaled(scaler, x))
        return tempered_softmax(np.log(np.maximum(p, 1e-12)), self.temperature)

    def number_proba(self, x: np.ndarray) -> np.ndarray:
        """(rows, 46) probabilities of the values 0..45 (0 never), one row per number."""
        scaler, network = self.numbers
        p = network_proba(network, scaled(scaler, x))
        p = tempered_softmax(np.log(np.maximum(p, 1e-12)), self.number_temperature)
        out = np.zeros((len(x), MAX_SUM + 1))
        out[:, network.classes_.astype(int)] = p
        return out


@cache
def load_killer_model(path: Path | None = None) -> KillerModel:
    """The shipped model, or the one GRIDSIGHT_KILLER_MODEL names (held-out benchmarks)."""
    return joblib.load(path or os.environ.get("GRIDSIGHT_KILLER_MODEL") or MODEL_PATH)


def number_features(glyphs: list[Glyph], text_height: float) -> np.ndarray:
    """HOG, pixels and shape of a whole number (its glyphs as found), at one text height.

    The number keeps its proportions: scaled so that the text is NUMBER_TEXT pixels high
    (narrower if it would not fit), so '11' run together stays twice a '1' wide and
    unlike an '8'.
    """
    number = _joined(glyphs) if len(glyphs) > 1 else glyphs[0]
    blob = number.image.astype(np.float32)
    blob = blob / max(float(blob.max()), 1e-3)
    h, w = blob.shape
    scale = min(NUMBER_TEXT / max(h, 1), (NUMBER_W - 4) / max(w, 1))
    image = centred(blob, scale, (NUMBER_H, NUMBER_W))
    hog = _number_hog().compute((image * 255).astype(np.uint8)).ravel()
    pixels = cv2.resize(image, (NUMBER_W // 2, NUMBER_H // 2),
                        interpolation=cv2.INTER_AREA).ravel()
    shape = np.array([h / text_height, w / h, len(glyphs) - 1.5, float(blob.mean())],
                     np.float32) * 4
    return np.concatenate([hog, pixels, shape]).astype(np.float32)


@cache
def _number_hog() -> cv2.HOGDescriptor:
    return cv2.HOGDescriptor((NUMBER_W, NUMBER_H), (12, 12), (6, 6), (6, 6), 9)


def sum_candidates(digit_probs: list[np.ndarray]) -> list[SumCandidate]:
    """Most probable values of a 1- or 2-digit sum from its digits' probabilities."""
    if len(digit_probs) == 1:
        values = [(d, float(digit_probs[0][d])) for d in range(1, 10)]
        # A second digit lost in the picture: the read digit then leads a 2-digit sum.
        values += [(10 * a + b, float(digit_probs[0][a]) * MISSED_DIGIT / 20)
                   for a in range(1, 5) for b in range(10) if 10 * a + b <= 45]
        values += [(10 * a + b, float(digit_probs[0][b]) * MISSED_DIGIT / 8)
                   for a in range(1, 5) for b in range(10) if 10 * a + b <= 45]
    else:
        first, second = digit_probs[0], digit_probs[1]
        values = [(10 * a + b, float(first[a] * second[b])) for a in range(1, 5)
                  for b in range(10) if 10 * a + b <= 45]
        # A 2-glyph reading could still be a single digit beside a speck: keep it possible.
        values += [(d, float(first[d]) * MISSED_DIGIT / 10) for d in range(1, 10)]
    values.sort(key=lambda v: -v[1])
    total = sum(p for _, p in values) or 1.0
    kept = [SumCandidate(value=v, prob=round(p / total, 6)) for v, p in values[:MAX_CANDIDATES]
            if p / total >= 1e-4]
    return kept or [SumCandidate(value=values[0][0], prob=1.0)]


def digit_width(found: dict[tuple[int, int], list[Glyph]]) -> float | None:
    """The grid's typical width-to-height ratio of one digit other than '1'.

    Glyphs of two-glyph numbers are single digits; narrow ones are '1's.
    """
    ratios = [g.w / g.h for gs in found.values() if len(gs) == 2 for g in gs
              if g.w >= 0.45 * g.h]
    return float(np.median(ratios)) if len(ratios) >= 3 else None


def joined_width(found: dict[tuple[int, int], list[Glyph]]) -> float | None:
    """The width-to-height ratio of one digit in a grid none of whose numbers stands as
    two glyphs: its one-glyph numbers are lone digits and joined pairs, the narrower ones
    (but '1's) lone digits."""
    ratios = [gs[0].w / gs[0].h for gs in found.values()
              if len(gs) == 1 and gs[0].w >= 0.3 * gs[0].h]
    return float(np.percentile(ratios, JOINED_PERCENTILE)) if len(ratios) >= 6 else None


def pair_prior(glyph: Glyph, width: float | None) -> float:
    """Prior that one wide glyph is two touching digits, from the grid's digit width.

    One digit is about `width` wide; two (at least a '1' and a digit) about 1.4 times that
    or more. Without a width known, both are equally likely.
    """
    if width is None:
        return 0.5
    ratio = glyph.w / glyph.h / width
    return float(np.clip(1 / (1 + np.exp(-(ratio - PAIR_RATIO) / PAIR_SPREAD)), 0.02, 0.98))


def _read_number(glyphs: list[Glyph], typical: float, model: KillerModel,
                 width: float | None = None) -> list[SumCandidate]:
    """Candidates for one sum: its digits' reading mixed with the whole-number reading.

    A thin bar beside the number that the finder put on one side of the outline/'1'
    question (Glyph.lead, Glyph.bar) is read the other way too, at a small prior: a '16'
    whose '1' stood over the outline is then no sure '6', nor an '8' with a dash beside
    it a sure '18', and the cage sizes, the total and the repair decide.
    """
    def read(gs: list[Glyph]) -> list[SumCandidate]:
        return mixed_candidates(digit_reading(gs, typical, model, width), gs, typical,
                                model, width)

    found = read(glyphs)
    if glyphs[0].lead is not None and len(glyphs) == 1:
        other = [glyphs[0].lead, glyphs[0]]
    elif glyphs[0].bar and len(glyphs) == 2:
        other = glyphs[1:]
    else:
        return found
    mixed: dict[int, float] = {}
    for candidates, share in ((found, 1 - BAR_DOUBT), (read(other), BAR_DOUBT)):
        for c in candidates:
            mixed[c.value] = mixed.get(c.value, 0.0) + share * c.prob
    return _ranked(mixed)


def digit_reading(glyphs: list[Glyph], typical: float, model: KillerModel,
                  width: float | None = None) -> dict[int, float]:
    """{value: prob} of a sum from its digits; a single wide glyph is also read as two
    touching digits (`width`: the grid's digit width, digit_width or joined_width; one
    JOINED_FROM of those wide may be two: maybe_pair).

    Each reading is weighted by its prior (from the glyph's width against the grid's digit
    width) and by how sure the classifier is of its digits.
    """
    readings = [(glyphs, 1.0)]
    if len(glyphs) == 2 and glyphs[1].x - (glyphs[0].x + glyphs[0].w) <= 1:
        # Perhaps cut from one blob, perhaps not where the digits meet: the classifier's
        # best cut competes with the first, which the picture's own gap favours.
        readings = [(glyphs, 1 - RECUT_PRIOR),
                    (_best_split(_joined(glyphs), typical, model), RECUT_PRIOR)]
    elif maybe_pair(glyphs, width):
        pair = pair_prior(glyphs[0], width)
        readings = [(glyphs, 1 - pair), (_best_split(glyphs[0], typical, model), pair)]
    merged: dict[int, float] = {}
    scored = []
    for gs, prior in readings:
        probs = model.digit_proba(np.stack([glyph_features(g, typical) for g in gs]))
        scored.append((prior * float(np.prod(probs.max(axis=1))),
                       sum_candidates(list(probs))))
    total = sum(score for score, _ in scored) or 1.0
    for score, candidates in scored:
        for c in candidates:
            merged[c.value] = merged.get(c.value, 0.0) + c.prob * score / total
    return merged


def maybe_pair(glyphs: list[Glyph], width: float | None) -> bool:
    """Whether a number found as one glyph may be two digits run together: wider than
    MAYBE_PAIR of its height, or JOINED_FROM of the grid's digit width (`width`)."""
    if len(glyphs) != 1:
        return False
    g = glyphs[0]
    return g.w > MAYBE_PAIR * g.h or width is not None and g.w >= JOINED_FROM * width * g.h


def set_apart(pair: list[Glyph], typical: float) -> list[Glyph]:
    """A number's two digits, the second moved right to stand SET_APART of the first."""
    gap = int(round(SET_APART * typical))
    return [pair[0], replace(pair[1], x=max(pair[1].x, pair[0].x + pair[0].w + gap))]


def apart_view(glyphs: list[Glyph], typical: float, model: KillerModel,
               width: float | None) -> tuple[list[Glyph], float] | None:
    """(the number's digits set apart, the share of that view) for the whole-number
    reader: two glyphs found apart but closer than SET_APART (APART_SHARE), or a glyph
    that may be two digits run together in a grid whose digit width is known (cut where
    the digit reader cuts it, at its pair_prior); None where the digits already stand
    apart. Two glyphs the finder cut from one blob are read as found: the cut may be off
    (a bold '18' cut through its '8', set apart, read '19')."""
    if len(glyphs) == 2:
        gap = glyphs[1].x - (glyphs[0].x + glyphs[0].w)
        close = 1 <= gap < round(SET_APART * typical)
        return (set_apart(glyphs, typical), APART_SHARE) if close else None
    if width is not None and maybe_pair(glyphs, width):
        return (set_apart(_best_split(glyphs[0], typical, model), typical),
                pair_prior(glyphs[0], width))
    return None


def whole_number_proba(glyphs: list[Glyph], typical: float, model: KillerModel,
                       width: float | None = None) -> np.ndarray:
    """The whole-number reader's probabilities of 0..45 for a number as found, mixed
    with its reading of the digits set apart where they stand close (apart_view)."""
    whole = model.number_proba(number_features(glyphs, typical)[None])[0]
    apart = apart_view(glyphs, typical, model, width)
    if apart is None:
        return whole
    view, share = apart
    return (1 - share) * whole + share * model.number_proba(
        number_features(view, typical)[None])[0]


def mixed_candidates(digit_reading: dict[int, float], glyphs: list[Glyph], typical: float,
                     model: KillerModel, width: float | None = None) -> list[SumCandidate]:
    """The digit reading's {value: prob} mixed with the whole-number reading.

    A mixture, not a product: where the two disagree (the digit model sure of '8', the
    number model of '11') both values stay likely and the cage sizes, the total and the
    solver decide; where they agree the sum stays sure. The whole-number reader reads
    digits that stand close both as found and set apart (apart_view).
    """
    total = sum(digit_reading.values()) or 1.0
    mixed = {v: p / total for v, p in digit_reading.items()}
    if model.numbers is not None and model.number_weight > 0:
        whole = whole_number_proba(glyphs, typical, model, width)
        w = model.number_weight
        mixed = {v: (1 - w) * mixed.get(v, 0.0) + w * float(whole[v])
                 for v in set(mixed) | set(range(1, MAX_SUM + 1))}
        mixed = {v: p for v, p in mixed.items() if p >= 1e-5}
    return _ranked(mixed)


def _ranked(probs: dict[int, float]) -> list[SumCandidate]:
    """The MAX_CANDIDATES likeliest values, their probabilities summing to one."""
    ranked = sorted(probs.items(), key=lambda vp: -vp[1])[:MAX_CANDIDATES]
    norm = sum(p for _, p in ranked) or 1.0
    return [SumCandidate(value=v, prob=round(p / norm, 6)) for v, p in ranked]


def _joined(glyphs: list[Glyph]) -> Glyph:
    x, y = min(g.x for g in glyphs), min(g.y for g in glyphs)  # pieces may overlap
    w = max(g.x + g.w for g in glyphs) - x
    h = max(g.y + g.h for g in glyphs) - y
    image = np.zeros((h, w), np.float32)
    for g in glyphs:
        part = image[g.y - y:g.y - y + g.h, g.x - x:g.x - x + g.w]
        np.maximum(part, g.image, out=part)
    return Glyph(x, y, w, h, image)


def _best_split(glyph: Glyph, typical: float, model: KillerModel) -> list[Glyph]:
    """The cut of a two-digit blob whose halves the classifier reads most surely."""
    options = []
    for cut in range(max(2, int(0.3 * glyph.w)), min(glyph.w - 2, int(0.7 * glyph.w) + 1)):
        parts = [trimmed(glyph.image[:, :cut], 0, 0, cut, glyph.h),
                 trimmed(glyph.image[:, cut:], 0, 0, glyph.w - cut, glyph.h)]
        if min(p.w for p in parts) < 1:
            continue
        options.append([Glyph(glyph.x + parts[0].x, glyph.y + parts[0].y, parts[0].w,
                              parts[0].h, parts[0].image),
                        Glyph(glyph.x + cut + parts[1].x, glyph.y + parts[1].y, parts[1].w,
                              parts[1].h, parts[1].image)])
    if not options:
        return split_glyph(glyph)
    rows = [glyph_features(g, typical) for pair in options for g in pair]
    probs = model.digit_proba(np.stack(rows)).max(axis=1).reshape(-1, 2)
    return options[int(probs.prod(axis=1).argmax())]


def read_sums(ink: np.ndarray, heads, maybe=(), n: int = 9,
              model: KillerModel | None = None, sure_heads=None) -> list[CageSumReading]:
    """Cage sums in the straightened ink map (SUM_CELL pixels a cell).

    A head of `sure_heads` (default: all heads) whose number cannot be found still gets a
    reading: every sum 1..45, equally unlikely, so the solver can work it out from the rest
    of the puzzle. A head that only a doubtful wall makes gets none: more likely the wall
    is not there.
    """
    found = find_sums(ink, heads, maybe, n)
    out = []
    if found:
        model = model or load_killer_model()
        typical = float(np.median([g[0].h for g in found.values()]))
        width = digit_width(found)
        # No number stands as two glyphs: the lone digits give the width.
        joined = width is None and joined_width(found) is not None
        width = joined_width(found) if joined else width
        for cell in sorted(found):
            out.append(CageSumReading(cell=cell, candidates=_read_number(
                found[cell], typical, model, width)))
    for cell in heads if sure_heads is None else sure_heads:
        if tuple(cell) not in found:
            out.append(CageSumReading(cell=tuple(cell), candidates=[
                SumCandidate(value=v, prob=round(1 / 45, 6)) for v in range(1, 46)]))
    return sorted(out, key=lambda s: s.cell)
