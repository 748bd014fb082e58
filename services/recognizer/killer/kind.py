"""Classic or killer sudoku: the evidence, and what an explicit kind from the caller means.

A killer grid shows what a classic grid cannot: cages whose first cell holds a small
number in its corner (every cage has one), and those numbers add up to the grid's total
(405 at 9x9, 126 at 6x6: each digit 1..n, n times). A classic page read as a killer
(grid lines, show-through, handwriting and pencil notes taken for walls and sums) finds
numbers in some of its "cage heads" only, adding up to anything. So the killer
probability weighs three shares, each from 0 to 1: cage heads with a number (counted
twice: the strongest sign), how close the numbers come to the total, and the share of
edges that are walls. A number read with doubt may be no cage's sum at all (a person's
digit written into a cell's corner): the total counts with or without the doubtful
numbers, whichever comes closer to the total. A number printed where the sums are that
could not be read (illegible) counts as a number; its value is unknown, anything its
cage allows, and the total only has to be reachable with it.

Cages of a killer may be huge (6-9 cells, sums up to 45, as few as n cages): a wall the
reader misses there joins two cages into a region larger than any cage can be. Such a
region stands for as many cages as it needs (hidden_cages), its numbers count as heads'
numbers, and its cages' sums, whatever the numbers read in it, add up to what its cells
can hold (region_sum_range): tightly bounded, since each cage holds one of each digit.

An explicit kind is honoured: the picture is read as asked, and when it looks like the
other kind the Reading carries a warning saying so. Only a "killer" request on a picture
where fewer than min_heads cages hold a sum cannot be read as one, and says why.
"""

from __future__ import annotations

import math

import numpy as np

from services.recognizer.errors import RecognitionError
from services.recognizer.killer.tuning import (
    LOOKS_LIKE,
    NUMBERED_FROM,
    NUMBERED_TO,
    PLACED,
    STEEPNESS,
    THRESHOLD,
    TOTAL_SLACK,
)


def min_heads(n: int) -> int:
    """Fewest cages of an n x n killer: n, as a cage holds at most n cells (one of each
    digit)."""
    return n


def hidden_cages(cells: int, n: int) -> int:
    """Cages a region of `cells` cells read in an n x n grid stands for at the fewest."""
    return max(1, -(-cells // n))


def region_sum_range(cells: int, n: int) -> tuple[int, int]:
    """Least and most the cages of a region of `cells` cells may add up to: its cells'
    digits, at most hidden_cages of each digit 1..n."""
    if cells <= n:
        return cage_sum_range(cells, n)
    digits = sorted(list(range(1, n + 1)) * hidden_cages(cells, n))
    return sum(digits[:cells]), sum(digits[-cells:])


def killer_probability(walls_right: np.ndarray, walls_down: np.ndarray, heads: int,
                       heads_with_numbers: int, sum_total: int,
                       doubtful_total: int = 0, unknown: tuple[int, int] = (0, 0),
                       placed: int = 0, doubtful_range: tuple[int, int] = (0, 0)) -> float:
    """Probability that the grid is a killer sudoku, from what the killer reader found:
    wall probabilities (n x n-1 and n-1 x n: the grid's side), cage heads, heads whose
    corner holds a number, the total of the numbers read, the part of it read with
    doubt (top reading below SURE_SUM), and the least and most the illegible numbers
    (not in the totals) may add (cage_sum_range); `placed`: heads whose number is set on
    the sums line, and `doubtful_range`: the least and most the doubtful numbers' cages
    may add, which count instead of them when `placed` is PLACED of the heads."""
    n = np.shape(walls_right)[0]
    grid_total = n * n * (n + 1) // 2
    if heads < min_heads(n):
        return 1.0 / (1.0 + math.exp(STEEPNESS * THRESHOLD))
    walls = np.concatenate([np.ravel(walls_right), np.ravel(walls_down)])
    # Share of edges that are walls: about 0.4-0.75 in killer grids.
    wall_share = min(float(np.mean(walls)) / 0.35, 1.0)
    numbered = heads_with_numbers / heads
    numbered_share = min(max((numbered - NUMBERED_FROM) / (NUMBERED_TO - NUMBERED_FROM), 0.0),
                         1.0)
    least, most = unknown
    options = [(sum_total, least, most), (sum_total - doubtful_total, least, most)]
    if placed >= PLACED * heads:
        options.append((sum_total - doubtful_total, least + doubtful_range[0],
                        most + doubtful_range[1]))
    miss = min(max(total + lo - grid_total, grid_total - total - hi, 0)
               for total, lo, hi in options)
    total_share = max(0.0, 1.0 - miss / (TOTAL_SLACK * grid_total))
    evidence = 2 * numbered_share + total_share + wall_share  # 0 .. 4
    return 1.0 / (1.0 + math.exp(-STEEPNESS * (evidence - THRESHOLD)))


def cage_sum_range(cells: int, n: int) -> tuple[int, int]:
    """Least and most a cage of `cells` cells may add up to in an n x n killer (its
    digits differ: 1 + 2 + ... up to n + (n - 1) + ...)."""
    k = min(cells, n)
    return k * (k + 1) // 2, k * (2 * n + 1 - k) // 2


def numbers_total(heads_total: int, all_total: int, n: int) -> int:
    """The total of the cage sums read: the cages' first cells' numbers alone, or with the
    numbers found in cells that may start a cage, whichever is nearer the grid's total. A
    wall the model misses (a style it never saw) makes two cages one, and the second
    number then stands in a cell no cage starts at: 30 heads totalling 283 in a held-out
    web killer whose numbers all told made 397."""
    grid_total = n * n * (n + 1) // 2
    return min((heads_total, all_total), key=lambda total: abs(total - grid_total))


LOOKS_KILLER = ("this picture looks like a killer sudoku (cage outlines and cage sums were "
                "found), but it was read as a classic sudoku as asked; send it with kind "
                "'killer' or 'auto' to solve it as a killer")
LOOKS_CLASSIC = ("this picture looks like a classic sudoku (its cages do not each hold a sum, "
                 "or the sums do not add up to the grid's total), but it was read as a "
                 "killer as asked; "
                 "check the cages and sums, or send it with kind 'sudoku' or 'auto'")
NO_CAGE_SUMS = ("this looks like a classic sudoku, not a killer sudoku: hardly any cage sums "
                "were found. Send it with kind 'sudoku' or 'auto'")


def decide(requested: str, p_killer: float,
           sums_found: bool = True) -> tuple[str, float, list[str]]:
    """(kind to read, confidence in it, warnings) for the kind the caller asked for."""
    if requested == "killer":
        if not sums_found:
            raise RecognitionError(NO_CAGE_SUMS)
        return "killer", p_killer, [LOOKS_CLASSIC] if p_killer <= 1 - LOOKS_LIKE else []
    if requested == "sudoku":
        return "sudoku", 1.0 - p_killer, [LOOKS_KILLER] if p_killer >= LOOKS_LIKE else []
    if p_killer > 0.5:
        return "killer", p_killer, []
    return "sudoku", 1.0 - p_killer, []
