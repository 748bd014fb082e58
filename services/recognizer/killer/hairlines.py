"""Cage walls drawn as hairline dots beside the grid lines, seen at the picture's own scale.

Some apps outline huge cages with dots one pixel wide a pixel or two inside the grid
lines, thick box lines too. The wall model reads the grid shrunk to WALL_CELL pixels a
cell; at 100-px cells the shrink puts such dots on the grid line itself, where no cage
line is looked for, and whole killers were read as classic grids. Here each edge is looked
at in the grid at its own scale: a cage line parallel to the edge, on both sides of it
(each cage has its own outline, so a wall shows twice), is a wall.

The ink is averaged along the middle of the edge (SPAN): dots one pixel apart
straightened half a pixel off blur into a faint solid line, so no dot pattern is asked
for. A cage line is either a faint line with paper between it and the grid line
(line_apart, in the grid straightened), or, where the dots touch the grid line, ink
beside it that lines drawn as it is lack elsewhere in the grid (line_added, in the
picture's own pixels, where the lines run straight along its rows and columns as in a
screenshot: a resampled line's edge blurs by as much as touching dots add). Digits, grain
and notes make no such line on both sides of a grid line, and the perpendicular outline
of a cage crosses the span once.
"""

from __future__ import annotations

import hashlib

import numpy as np

from services.recognizer.grid.lattice import cell_side
from services.recognizer.grid.straighten import straighten
from services.recognizer.killer.cage_lattice import thin_ink
from services.recognizer.killer.tuning import (
    ALIKE,
    ALIKE_SHARE,
    EVEN,
    FAINTEST,
    HAIRLINE_BAND,
    HAIRLINE_FROM,
    HAIRLINE_SURE,
    PARTS,
    SPAN,
    STRAIGHT,
    VALLEY,
)
from services.recognizer.killer.tuning import WALL_CELL as CELL

SEEK = 2  # pixels either side of the lattice's line where the line's own column is looked for
LARGEST_CELL = 128  # larger cells are straightened at this size: a hairline stays a pixel


def line_apart(profiles: np.ndarray, along: np.ndarray) -> np.ndarray:
    """Whether each side profile shows a cage line apart from the grid line.

    `profiles`: (..., band + 1) mean ink at each distance from the grid line (0: on it);
    `along`: (..., PARTS, band + 1) the same over PARTS stretches of the span. A line
    apart: a peak at least FAINTEST dark with paper between it and the grid line and
    paper beyond it (each at most VALLEY of the peak), whose ink runs along the span (every
    stretch but one at least EVEN of the peak: a digit's or a note's stroke does not; a
    large sum's ground patch breaks the outline at its cell's corner).
    """
    inner, parts = profiles[..., 1:], along[..., 1:]
    out = np.zeros(profiles.shape[:-1], bool)
    for k in range(1, inner.shape[-1] - 1):
        peak = inner[..., k]
        nearer = inner[..., :k].min(axis=-1)
        beyond = inner[..., k + 1:].min(axis=-1)
        # A hairline straightened across two columns of pixels shares its ink out.
        spread = np.sort(np.maximum(parts[..., k], parts[..., k - 1]), axis=-1)[..., 1]
        out |= (peak >= FAINTEST) & (peak >= inner[..., k + 1]) & (peak >= inner[..., k - 1]) \
            & (nearer <= VALLEY * peak) & (beyond <= VALLEY * peak) & (spread >= EVEN * peak)
    return out


def line_added(profiles: np.ndarray, along: np.ndarray, own: np.ndarray) -> np.ndarray:
    """Whether each side profile holds a line that the grid line's own profile `own` (of
    the same shape; NaN: not known) does not: ink at least FAINTEST more than the line's
    where the line's own profile is paper (at most VALLEY of that ink), along the span
    (EVEN, as in line_apart)."""
    extra = (profiles - own)[..., 1:]
    spread = np.sort(along - own[..., None, :], axis=-2)[..., 1, 1:]
    return ((extra >= FAINTEST) & (own[..., 1:] <= VALLEY * extra)
            & (spread >= EVEN * extra)).any(axis=-1)


def own_profiles(mean: np.ndarray) -> np.ndarray:
    """(n, lines, W) the profile each edge's grid line has where no cage line runs beside
    it; NaN for lines not drawn alike with others, as they are in a screenshot.

    A line's least profile (the least ink at each distance over its edges) is its own
    where any of its edges is no wall. Lines whose least profiles agree (within ALIKE)
    are drawn alike and share the median of them: a box line all but one of whose edges
    are walls (huge cages follow the boxes) is seen by the others. Known only where
    ALIKE_SHARE of such a group's edges lie within ALIKE of it: a photo's lines bend and
    blur from place to place."""
    least = mean.min(axis=0)  # (lines, W)
    alike = np.abs(least[:, None] - least[None, :]).max(axis=-1) <= ALIKE
    own = np.full_like(mean, np.nan)
    for i in range(least.shape[0]):
        profile = np.median(least[alike[i]], axis=0)
        edges = mean[:, alike[i]]
        if np.mean(np.abs(edges - profile).max(axis=-1) <= ALIKE) >= ALIKE_SHARE:
            own[:, i] = profile
    return own


def _profiles(ink: np.ndarray, n: int, p: int, band: int) -> tuple[np.ndarray, np.ndarray]:
    """(mean, parts): the ink across each inner vertical grid line's edges in the grid
    straightened at `p` pixels a cell, (n, n - 1, 2 band + 1) averaged along the edge's
    SPAN, and (n, n - 1, PARTS, 2 band + 1) over PARTS stretches of it; the edge between
    cells (r, c) and (r, c + 1) at [r, c]."""
    along = np.arange(int(SPAN[0] * p), int(SPAN[1] * p))
    along = along[:len(along) // PARTS * PARTS]
    rows = p * np.arange(n)[:, None] + along  # (n, L)
    cols = p * np.arange(1, n)[:, None] + np.arange(-band, band + 1)  # (n - 1, W)
    strips = ink[rows[:, None, :, None], cols[None, :, None, :]]  # (n, n - 1, L, W)
    parts = strips.reshape(n, n - 1, PARTS, -1, 2 * band + 1).mean(axis=3)
    return parts.mean(axis=2), parts


def _line_middle(least: np.ndarray, at: int) -> int:
    """The middle of the grid line in `least` (the least ink at each column over the
    line's edges; the lattice's line at `at`): of the columns within SEEK of `at` inked
    on every edge (at least half the most such ink: a cage line runs along walls only),
    the nearest `at`, and the columns about it as dark (a thick line is dark across
    several)."""
    window = least[at - SEEK:at + SEEK + 1]
    inked = np.flatnonzero(window >= 0.5 * window.max()) + at - SEEK
    core = int(inked[np.abs(inked - at).argmin()])
    dark = least >= least[core] - 0.01
    first, last = core, core
    while first > 0 and dark[first - 1]:
        first -= 1
    while last < len(dark) - 1 and dark[last + 1]:
        last += 1
    return (first + last) // 2


def _pixel_profiles(ink: np.ndarray, lattice: np.ndarray, band: int
                    ) -> tuple[np.ndarray, np.ndarray] | None:
    """_profiles of the picture's own pixels (`ink`: thin_ink of the picture) about each
    inner vertical grid line's middle column, unresampled; None unless every such line
    runs straight down one column of pixels, as in a screenshot."""
    n = lattice.shape[0] - 1
    tops, feet = lattice[:-1, 1:n, 1], lattice[1:, 1:n, 1]  # (n, n - 1) each edge's ends
    length = int(round((SPAN[1] - SPAN[0]) * float(np.median(feet - tops)))) // PARTS * PARTS
    if length < PARTS:
        return None
    starts = np.round(tops + SPAN[0] * (feet - tops)).astype(int)
    rows = np.clip(starts[..., None] + np.arange(length), 0, ink.shape[0] - 1)  # (n, n-1, L)
    reach = SEEK + band
    near = np.clip(np.round(np.median(lattice[:, 1:n, 0], axis=0)).astype(int)[:, None]
                   + np.arange(-reach, reach + 1), 0, ink.shape[1] - 1)  # (n - 1, S)
    seen = ink[rows[..., None], near[None, :, None, :]].mean(axis=2)  # (n, n - 1, S)
    middle = np.array([_line_middle(least, reach) for least in seen.min(axis=0)])
    lines = np.arange(n - 1)
    # Straight: on every edge the line's column is as dark as the columns beside it.
    beside = np.maximum(seen[:, lines, middle - 1], seen[:, lines, middle + 1])
    if (seen[:, lines, middle] < STRAIGHT * beside).any():
        return None
    cols = np.clip(near[lines, middle][:, None] + np.arange(-band, band + 1), 0,
                   ink.shape[1] - 1)
    strips = ink[rows[..., None], cols[None, :, None, :]]  # (n, n - 1, L, W)
    parts = strips.reshape(n, n - 1, PARTS, -1, 2 * band + 1).mean(axis=3)
    return parts.mean(axis=2), parts


def _ink_of(part: np.ndarray, side: float) -> np.ndarray:
    """thin_ink of the picture `part`, kept for the next call on the same pixels (the
    grid's kind is tested, then its killer read, on one picture, each on a lattice of its
    own; cells this large fill most of the picture, so none is cut out)."""
    key = (part.shape, int(0.16 * side), hashlib.blake2b(np.ascontiguousarray(part).data,
                                                        digest_size=16).digest())
    known, ink = _LAST_INK[0]  # one tuple read: another thread may replace it meanwhile
    if known != key:
        ink = thin_ink(part, side)
        _LAST_INK[0] = key, ink
    return ink


_LAST_INK: list[tuple] = [(None, None)]


def dotted_walls(gray: np.ndarray, lattice: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(right n x n-1, down n-1 x n) booleans: edges with a cage line along both sides,
    read at the picture's own scale; None where the cells are small enough that the wall
    model sees such lines itself (shrunk less than HAIRLINE_FROM times)."""
    side = cell_side(lattice)
    if side < HAIRLINE_FROM * CELL:
        return None
    n = lattice.shape[0] - 1
    p = int(min(LARGEST_CELL, round(side)))
    band = max(3, int(round(HAIRLINE_BAND * p)))
    halves = (slice(band, None, -1), slice(band, None))  # left (above), right (below)
    # Down edges as right edges of the grid transposed: both ways in one array.
    own_ink = _ink_of(gray, side)
    pixels = [_pixel_profiles(own_ink, lattice, band),
              _pixel_profiles(own_ink.T, lattice[..., ::-1].transpose(1, 0, 2), band)]
    if pixels[0] is not None and pixels[1] is not None:
        mean = np.concatenate([pixels[0][0], pixels[1][0]], axis=1)
        parts = np.concatenate([pixels[0][1], pixels[1][1]], axis=1)
        own = own_profiles(mean)
        sides = [line_apart(mean[..., half], parts[..., half])
                 | line_added(mean[..., half], parts[..., half], own[..., half])
                 for half in halves]
    else:
        ink = thin_ink(straighten(gray, lattice, p), p)
        ways = [_profiles(ink, n, p, band), _profiles(ink.T, n, p, band)]
        mean = np.concatenate([ways[0][0], ways[1][0]], axis=1)
        parts = np.concatenate([ways[0][1], ways[1][1]], axis=1)
        sides = [line_apart(mean[..., half], parts[..., half]) for half in halves]
    walls = sides[0] & sides[1]
    return walls[:, :n - 1], walls[:, n - 1:].T


def with_dotted_walls(walls: tuple[np.ndarray, np.ndarray], gray: np.ndarray,
                      lattice: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The wall probabilities `walls` with the edges dotted_walls finds made at least
    HAIRLINE_SURE likely."""
    return with_walls_seen(walls, dotted_walls(gray, lattice))


def with_walls_seen(walls: tuple[np.ndarray, np.ndarray],
                    dotted: tuple[np.ndarray, np.ndarray] | None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """with_dotted_walls, the dotted walls found already (None: none)."""
    if dotted is None:
        return walls
    return tuple(np.where(seen, np.maximum(p, HAIRLINE_SURE), p)
                 for p, seen in zip(walls, dotted, strict=True))
