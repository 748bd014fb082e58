"""Whole-board scans for following hypotheses.

The rules of hypothesis.py look at every unit or every segment of the grid after each
pass, and most passes find nothing. The scans here say at once where a rule may change
something, so that the rule itself runs only there: the segments where pointing or
claiming may remove a digit, and per unit the answer of a rule, memoised by the unit's
masks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce
from itertools import repeat
from operator import call, or_

# entries a memo of per-unit answers keeps before it starts again
MEMO_LIMIT = 1 << 17
NOTHING = ()  # a memoised 'this rule changes nothing in this unit'


@dataclass(frozen=True)
class Scans:
    """What the scans of one layout read."""

    unit_masks: tuple  # per unit: candidates -> its cells' masks
    segment_cells: tuple[tuple[int, ...], ...]
    # per segment: its index, the other segments of its line, then those of its box along
    # lines of the same kind (index len(segment_cells): none)
    parts: tuple[tuple[int, ...], ...]
    threes: bool  # segments of three cells, two others in each line and box (9x9)
    two_bits: bytes  # two_bits[m]: whether mask m has exactly two digits

    def unit_keys(self, cands: list[int]) -> list[tuple[int, ...]]:
        """Every unit's masks, unit after unit."""
        return list(map(call, self.unit_masks, repeat(cands)))

    def segments(self, cands: list[int]) -> tuple[list[int], list[int]]:
        """(the digits of each segment, then 0 for 'none'; per segment, its digits found
        in just one of the rest of its line and the rest of its box: what pointing or
        claiming may remove). Cells down to one digit count as its place."""
        if self.threes:
            here = [cands[a] | cands[b] | cands[c] for a, b, c in self.segment_cells]
            here.append(0)
            return here, [here[k] & ((here[a] | here[b]) ^ (here[c] | here[d]))
                          for k, a, b, c, d in self.parts]
        here = [reduce(or_, map(cands.__getitem__, cells)) for cells in self.segment_cells]
        here.append(0)
        half = len(self.parts[0]) // 2 + 1
        return here, [here[p[0]] & (reduce(or_, map(here.__getitem__, p[1:half]))
                                    ^ reduce(or_, map(here.__getitem__, p[half:])))
                      for p in self.parts]

    def outside(self, here: list[int], k: int) -> tuple[int, int]:
        """(the digits of the rest of segment k's line, of the rest of its box)."""
        parts = self.parts[k]
        half = len(parts) // 2 + 1
        return (reduce(or_, map(here.__getitem__, parts[1:half])),
                reduce(or_, map(here.__getitem__, parts[half:])))


def scans_of(lay) -> Scans:
    """The scans of a board.Layout."""
    parts = tuple((k, *p) for k, p in enumerate(lay.segment_parts))
    threes = (all(len(cells) == 3 for cells in lay.segment_cells)
              and all(len(p) == 5 for p in parts))
    return Scans(lay.geo.unit_masks, lay.segment_cells, parts, threes,
                 bytes(m.bit_count() == 2 for m in range(1 << lay.geo.size)))


def memo_scan(memo: dict, rule, keys) -> list:
    """rule(key) for every key, memoised (NOTHING where it gives None)."""
    found = list(map(memo.get, keys))
    if None in found:
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        for k, key in enumerate(keys):
            if found[k] is None:
                found[k] = memo[key] = rule(key) or NOTHING
    return found


def memo_one(memo: dict, rule, key):
    """rule(key), memoised (NOTHING where it gives None)."""
    found = memo.get(key)
    if found is None:
        if len(memo) > MEMO_LIMIT:
            memo.clear()
        found = memo[key] = rule(key) or NOTHING
    return found
