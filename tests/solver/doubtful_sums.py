"""Killer readings whose cage sums are read with doubt, as bold serif sums are: the right
value among a few likely candidates (often not on top) and a tail of faint ones."""

from __future__ import annotations

import random

from solver_readings import killer_reading

from services.contracts import CageSumReading, KillerPuzzle, Reading, SumCandidate

SURE_SUM = 0.995
TAIL = 12  # faint candidates, as the sum reader keeps up to 20 values
TAIL_PROB = 0.1  # their probability in all


def doubtful_candidates(truth: int, rng: random.Random, wrong_on_top: bool
                        ) -> list[SumCandidate]:
    """The right value at p 0.3-0.6 among 2-4 likely candidates and TAIL faint ones; with
    `wrong_on_top` a wrong value is likelier than the right one."""
    likely = rng.randint(2, 4)
    others = rng.sample([v for v in range(1, 46) if v != truth], likely - 1 + TAIL)
    right = rng.uniform(0.3, 0.6)
    weights = [rng.random() + 0.2 for _ in range(likely - 1)]
    shares = [(1 - right - TAIL_PROB) * w / sum(weights) for w in weights]
    if wrong_on_top:
        shares[0] = max(shares[0], right + 0.05)
    probs = [(truth, right), *zip(others, shares, strict=False),
             *((v, TAIL_PROB / TAIL) for v in others[likely - 1:])]
    total = sum(p for _, p in probs)
    ranked = sorted(probs, key=lambda vp: -vp[1])
    return [SumCandidate(value=v, prob=round(p / total, 6)) for v, p in ranked]


def doubtful_reading(puzzle: KillerPuzzle, k: int, rng: random.Random,
                     wrong_share: float = 0.3) -> tuple[Reading, set[tuple[int, int]]]:
    """A confident reading of the puzzle's walls and blank cells with k of its sums read
    with doubt (a wrong value on top in about `wrong_share` of them), the others sure.
    Returns the reading and the doubtful sums' cells."""
    reading, _ = killer_reading(puzzle)
    truth = {min(tuple(x) for x in cage.cells): cage.sum for cage in puzzle.cages}
    chosen = set(rng.sample(range(len(reading.cage_sums)), min(k, len(reading.cage_sums))))
    sums = []
    for i, s in enumerate(reading.cage_sums):
        right = truth[tuple(s.cell)]
        if i in chosen:
            candidates = doubtful_candidates(right, rng, rng.random() < wrong_share)
        else:
            candidates = [SumCandidate(value=right, prob=SURE_SUM),
                          SumCandidate(value=right + 10 if right < 35 else right - 10,
                                       prob=round(1 - SURE_SUM, 6))]
        sums.append(CageSumReading(cell=s.cell, candidates=candidates))
    reading.cage_sums = sums
    return reading, {tuple(reading.cage_sums[i].cell) for i in chosen}
