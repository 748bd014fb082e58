"""Read a killer sudoku off a located grid: lattice, walls, sums, cell digits, consistency.

`read_killer` runs on every picture whose kind is not known for sure: its walls and sums
are also the evidence killer/kind.py weighs to tell killer from classic grids.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from services.contracts import CageSumReading, SumCandidate
from services.recognizer.cells.classifier import load_model
from services.recognizer.cells.features import cell_features
from services.recognizer.cells.symbols import fold
from services.recognizer.grid.outlines import binarize, grid_score, rank_grids
from services.recognizer.grid.straighten import PATCH, straighten
from services.recognizer.killer.cage_lattice import killer_lattice, thin_ink
from services.recognizer.killer.cages import (
    edge_probabilities,
    edge_profiles,
    phase_steady_walls,
    straighten_at,
    wall_ink,
    wall_probabilities,
    without_large_digits,
)
from services.recognizer.killer.fills import (
    cell_fills,
    coloured_line_walls,
    colourful,
    fill_walls,
    sum_consistency,
)
from services.recognizer.killer.hairlines import dotted_walls, with_dotted_walls, with_walls_seen
from services.recognizer.killer.sum_finding import flagged_one
from services.recognizer.killer.sum_glyphs import along_top_left, cell_ink, corner_glyphs
from services.recognizer.killer.sum_tuning import MAX_SUM, NARROW, SUM_CELL
from services.recognizer.killer.sums import load_killer_model, read_sums
from services.recognizer.killer.tuning import (
    BALANCE,
    CAGES_SEEN,
    CLASSIC_WALLS,
    CLEAR_LINE,
    DIGITS_OUT_FROM,
    DOT_GAP,
    DOUBT,
    FAINT_BLUR,
    FAINT_CELL,
    FULL_COLUMN,
    GAP_GUESS,
    MAYBE_HEAD,
    STRAY_INK,
    STRAY_PLACE,
    STRAY_SURE,
    STRAY_SURE_TWO,
    STRAY_TALL,
    STRAY_WIDE,
    SUM_LINE,
    SURE_WALL,
    UNREACHABLE,
)
from services.recognizer.stages import enter

SIZE = 9  # the usual side; read_killer reads any side whose sums fit 1..45


@dataclass
class KillerRead:
    lattice: np.ndarray
    walls_right: np.ndarray  # (n, n-1) probabilities
    walls_down: np.ndarray  # (n-1, n)
    heads: list[tuple[int, int]]  # first cell of each cage the walls make
    sums: list[CageSumReading]
    numbered_heads: int  # heads whose corner held a number (read, or illegible)
    # Heads whose corner holds a number set as the grid's sums are that could not be read
    illegible: tuple[tuple[int, int], ...] = ()
    # Heads whose corner holds a number set as the grid's sums are, read or not (killer/kind.py)
    placed: int = 0


def regions(walls_right: np.ndarray, walls_down: np.ndarray) -> list[list[tuple[int, int]]]:
    """Cages as the connected regions of the walls read as present (p >= 0.5)."""
    n = walls_right.shape[0]
    parent = list(range(n * n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for r in range(n):
        for c in range(n):
            if c + 1 < n and walls_right[r, c] < 0.5:
                parent[find(r * n + c)] = find(r * n + c + 1)
            if r + 1 < n and walls_down[r, c] < 0.5:
                parent[find(r * n + c)] = find((r + 1) * n + c)
    groups: dict[int, list[tuple[int, int]]] = {}
    for i in range(n * n):
        groups.setdefault(find(i), []).append(divmod(i, n))
    return sorted(groups.values())


def grid_total(n: int) -> int:
    """What the cage sums of an n x n killer add up to: each digit 1..n, n times (405 at
    9x9, 126 at 6x6)."""
    return n * n * (n + 1) // 2


def largest_sum(n: int) -> int:
    """The largest sum a cage of an n x n killer can hold: 1..n once each."""
    return n * (n + 1) // 2


def cage_walls_seen(gray: np.ndarray, lattice: np.ndarray, colour: np.ndarray) -> bool:
    """Whether the grid shows cage walls at all, on the lattice found for a classic grid:
    drawn as outlines, as boundaries in a colour of their own, or as colour fills.

    A killer in progress holds as many large digits as a classic grid (the person's own):
    the count of large digits alone cannot tell the kinds apart, cage walls can. Cages
    tile the grid, so walls run both ways: even a killer of nothing but horizontal pairs
    has a wall on every other vertical edge. Handwriting fills a cell's height more than
    its width; its tops and feet near the horizontal lines look like walls one way only.
    Fills count by hue alone: a shadow across a photo changes the paper's lightness.
    """
    enter("cage_walls")
    n = lattice.shape[0] - 1

    def seen(walls, level: float = CAGES_SEEN) -> bool:
        return walls is not None and bool(min(np.mean(walls[0]), np.mean(walls[1])) >= level)

    # Each kind of wall looked for only while none seen so far shows the cages.
    ink, model = wall_ink(gray, lattice), load_killer_model().walls
    dotted = dotted_walls(gray, lattice)
    plain = edge_profiles(ink, n)
    # Painting the large digits out (digit_free_features) is the costly part, and it
    # moves the walls' mean by a few hundredths: only walls plainly near a killer's
    # count are looked at again without the digits.
    if seen(with_walls_seen(edge_probabilities(*plain, model), dotted), DIGITS_OUT_FROM):
        enter("cage_walls: digits out")
        if seen(with_walls_seen(wall_probabilities(ink, model, n, plain), dotted)):
            return True
    if seen(coloured_line_walls(colour, lattice)):
        return True
    fills = cell_fills(colour, lattice)
    return bool(colourful(fills)) and seen(fill_walls(fills, hue_only=True))


def grid_corners(gray: np.ndarray, corners: np.ndarray, n: int = SIZE) -> np.ndarray:
    """`corners`, unless the most grid-like outline fits the grid's lines clearly better.

    Cage fills and highlights can make the outline tracer settle on a frame around the
    grid; the grid score (ink on the n + 1 lines each way) still tells.
    """
    binary = binarize(gray)
    best, best_score = corners, grid_score(binary, corners, n)
    for quad in rank_grids(gray, binary)[:1]:
        score = grid_score(binary, quad, n)
        if score > best_score + 0.02:
            best, best_score = quad, score
    return best


def read_killer(gray: np.ndarray, corners: np.ndarray,
                colour: np.ndarray | None = None, n: int = SIZE,
                box: tuple[int, int] = (3, 3)) -> KillerRead:
    """The killer parts of an n x n grid with boxes of `box` (rows, columns); `colour` is
    the same picture in colour (BGR), where the cages may be colour fills."""
    enter("cages")
    model = load_killer_model()
    lattice = killer_lattice(gray, grid_corners(gray, corners, n), n, box)
    right, down = with_dotted_walls(phase_steady_walls(gray, lattice, model.walls, n), gray,
                                    lattice)
    ink_sums = thin_ink(straighten_at(gray, lattice, SUM_CELL), SUM_CELL)
    if colour is not None:
        right, down = outline_or_fill_walls(right, down, cell_fills(colour, lattice), ink_sums,
                                            colour, lattice)
    cages = regions(right, down)
    heads = [min(cage) for cage in cages]
    if np.mean(right) + np.mean(down) < 2 * CLASSIC_WALLS:  # no cages: a classic grid
        return KillerRead(lattice, right, down, heads, [], 0)
    top = np.vstack([np.ones((1, n)), down])  # wall above each cell; the border is one
    left = np.hstack([np.ones((n, 1)), right])
    doubtful = np.minimum(top, left) < 1 - MAYBE_HEAD  # one of them could be misread
    maybe = [(r, c) for r in range(n) for c in range(n)
             if (r, c) not in heads and top[r, c] > MAYBE_HEAD and left[r, c] > MAYBE_HEAD
             and doubtful[r, c]]
    clean = without_large_digits(ink_sums, SUM_CELL)
    strays = stray_numbers(ink_sums, clean, heads, maybe, n)
    maybe = maybe + list(strays)
    sums = read_sums(without_digits_in(ink_sums, maybe, n, clean), heads, maybe, n, model,
                     sure_heads(cages, right, down))
    written = {cell for cell in strays if holds_writing(ink_sums, clean, cell, n)}
    unsure = unsure_strays(sums, strays, written) | off_line_numbers(
        ink_sums, clean, heads, [tuple(s.cell) for s in sums if not unread(s)], n)
    sums = [s for s in sums if tuple(s.cell) not in unsure]
    # A stray whose corner gave no number to read (its glyph the outline's side) keeps
    # its walls as read.
    kept = [cell for cell in strays if cell not in unsure
            and any(tuple(s.cell) == cell for s in sums)]
    if kept:
        # Its top or left wall (whichever makes it no cage's first) is in doubt: the
        # repair may then flip it, and the cage holds the number.
        right, down = right.copy(), down.copy()
        for r, c in kept:
            if r > 0 and down[r - 1, c] < 0.5:
                down[r - 1, c] = 0.5 + (down[r - 1, c] - 0.5) * DOUBT
            if c > 0 and right[r, c - 1] < 0.5:
                right[r, c - 1] = 0.5 + (right[r, c - 1] - 0.5) * DOUBT
    read = {tuple(s.cell) for s in sums if not unread(s)}
    on_line = set_as_sums(ink_sums, heads, n)
    illegible = tuple(h for h in heads if h not in read and h in on_line)
    numbered = len(read & set(heads)) + len(illegible)
    right, down = consistent_walls(right, down, {tuple(s.cell) for s in sums})
    sums = balanced_sums(plausible_sums(sums, regions(right, down), n), n)
    return KillerRead(lattice, right, down, heads, sums, numbered, illegible, len(on_line))


def sums_line(ink_sums: np.ndarray, heads, n: int = SIZE
              ) -> tuple[float, float, float, float] | None:
    """(start x, top y, height, darkness) of the grid's sums: the medians of the numbers
    in the heads' corners; None when fewer than three heads hold one."""
    placed = [(g[0].x, g[0].y, g[0].h, float(g[0].image.max())) for g in
              (corner_glyphs(cell_ink(ink_sums, r, c, n)) for r, c in heads) if g]
    if len(placed) < 3:
        return None
    x0, y0, tall, dark = (float(np.median(v)) for v in zip(*placed, strict=True))
    return x0, y0, tall, dark


def set_as_sums(ink_sums: np.ndarray, cells, n: int = SIZE) -> set[tuple[int, int]]:
    """The cells of `cells` (the heads) whose corner holds a number set as the grid's
    sums are: it starts where they start, and a digit of it stands on their line, as
    tall and as dark as they are.

    Among the heads not read, these are illegible numbers, not missing ones. A small
    face's hairline '1' falls apart at the sums' sampling (FreeMono at 38-px cells: its
    stem fainter than the stroke threshold), and every sum from 10 to 19 is then unread:
    a quarter of the cages looked numberless and the killer was read as a classic grid.
    Such a number is still printed where every cage's sum is, which nothing in a
    classic grid is (a large digit stands in the cell's middle; a dash of a false wall
    is no digit, a person's writing keeps no one place). Counted over all heads, the
    same test is kind evidence that holds however the numbers read (killer/kind.py)."""
    line = sums_line(ink_sums, cells, n)
    if line is None:
        return set()
    x0, y0, tall, dark = line
    out = set()
    for r, c in cells:
        glyphs = corner_glyphs(cell_ink(ink_sums, r, c, n))
        if glyphs and abs(glyphs[0].x - x0) <= STRAY_PLACE * tall and any(
                abs(g.y - y0) <= STRAY_PLACE * tall
                and STRAY_TALL[0] * tall <= g.h <= STRAY_TALL[1] * tall
                and float(g.image.max()) >= STRAY_INK * dark and not outline_corner(g)
                for g in glyphs):
            out.add((r, c))
    return out


def off_line_numbers(ink_sums: np.ndarray, clean: np.ndarray, heads, cells,
                     n: int = SIZE) -> set[tuple[int, int]]:
    """The cells of `cells` whose number is the top of a person's digit or notes, not a
    sum: the cell holds writing (`clean`, the sums' ink without it, differs there) and
    the number's top lies off the clear line (CLEAR_LINE) the grid's sums start on by
    more than SUM_LINE of their height. Sums are printed at one place in every cell
    (their tops within 0.06 of their height of one another on by-hand photos); a large
    digit a false wall makes a cage's first reaches the corner anywhere, and read as a
    number it gave the false cage a sum (the repair could then keep the wall)."""
    placed = [(g[0].y, max(x.h for x in g)) for g in
              (corner_glyphs(cell_ink(ink_sums, r, c, n)) for r, c in heads) if g]
    if len(placed) < 3:
        return set()
    line, tall = (float(np.median(v)) for v in zip(*placed, strict=True))
    if np.mean([abs(y - line) <= SUM_LINE * tall for y, _ in placed]) < CLEAR_LINE:
        return set()  # no clear line: outline dots joined to the sums (deeply inset dots)
    out = set()
    for r, c in cells:
        raw = cell_ink(ink_sums, r, c, n)
        glyphs = corner_glyphs(raw)
        if glyphs and holds_writing(ink_sums, clean, (r, c), n) and \
                abs(glyphs[0].y - line) > SUM_LINE * tall:
            out.add((r, c))
    return out


def holds_writing(ink_sums: np.ndarray, clean: np.ndarray, cell: tuple[int, int],
                  n: int = SIZE) -> bool:
    """Whether a large digit or notes were painted out of the cell (`clean`: the sums'
    ink without them)."""
    r, c = cell
    return bool((cell_ink(ink_sums, r, c, n) - cell_ink(clean, r, c, n)).max() > 0)


def unsure_strays(sums: list[CageSumReading], strays: dict[tuple[int, int], int],
                  written: set[tuple[int, int]] = frozenset()) -> set[tuple[int, int]]:
    """The cells of `strays` ({cell: how many digits}) whose number is read too unsurely
    to be a sum. A lone digit is a sum only when read as one with confidence
    (STRAY_SURE): an outline's dots run together into a bar read as an unsure '1'
    (0.58-0.77) at small cells, other marks as an '8' or '4' (0.68-0.73) in print and in
    progress. Two digits need STRAY_SURE_TWO in a cell of `written` (holding a person's
    writing, which may be what was read); elsewhere a printed sum hidden by a misread
    wall may read less surely (0.49)."""
    return {tuple(s.cell) for s in sums if tuple(s.cell) in strays
            and s.candidates[0].prob < (STRAY_SURE if strays[tuple(s.cell)] == 1
                                        else STRAY_SURE_TWO if tuple(s.cell) in written
                                        else 0.0)}


def unread(s: CageSumReading) -> bool:
    """Whether the sum is a head's whose number was not found (every value 1..45)."""
    return len(s.candidates) >= MAX_SUM


def stray_numbers(ink_sums: np.ndarray, clean: np.ndarray, heads, maybe, n: int = SIZE
                  ) -> dict[tuple[int, int], int]:
    """Cells the walls make no cage's first (nor may make) whose corner holds a number
    set as the grid's sums are: as tall, its top and start where theirs are.

    The cage's first cell always has its sum along its top and left walls, and the sum's
    ink beside a wall is what hides it most (a faint dash beside a thick box line, the
    other side cluttered by the digits: read 0.01). Read as no wall, the sum was not
    looked for and the repair never tried the wall. Pencil notes and a person's digits
    are not placed nor sized as the grid's sums, and large digits are painted out of
    `clean` (`ink_sums` without them), where the other cells are looked at. A number of
    one digit counts too (a hidden '8' or '9' left its cage merged in held-out web
    pictures) when the digit is wide: a lone bar is the outline's side as well as a
    '1', unless it is a '1' with its flag (flagged_one: a one-cell cage's sum 1 in a
    narrow face left its wall unseen in held-out web pictures). No digit may be broken
    or a corner: dotted sides on grain break into dots, and
    two pencil notes in a row, one of them broken, stood as a number in a handwritten
    print.
    """
    line = sums_line(ink_sums, heads, n)
    if line is None:
        return {}
    x0, y0, tall, dark = line
    known = set(map(tuple, heads)) | set(map(tuple, maybe))
    out = {}
    for r in range(n):
        for c in range(n):
            if (r, c) in known:
                continue
            glyphs = kept_number(cell_ink(ink_sums, r, c, n), cell_ink(clean, r, c, n))
            if len(glyphs) in (1, 2) and abs(glyphs[0].x - x0) <= STRAY_PLACE * tall \
                    and abs(glyphs[0].y - y0) <= STRAY_PLACE * tall \
                    and STRAY_TALL[0] * tall <= max(g.h for g in glyphs) <= STRAY_TALL[1] * tall \
                    and min(float(g.image.max()) for g in glyphs) >= STRAY_INK * dark \
                    and any(g.w >= STRAY_WIDE * tall and not outline_corner(g)
                            or flagged_one(g, x0, tall) for g in glyphs) \
                    and not any(corner_or_broken(g) for g in glyphs):
                out[(r, c)] = len(glyphs)
    return out


def outline_corner(glyph) -> bool:
    """Whether a glyph is a piece of the cage outline (its corner, or a run of its dots),
    not a digit."""
    if corner_or_broken(glyph):
        return True
    # Dots joined by the line between them: narrow, one column dark from top to foot
    # (as a '1', which is no wide digit).
    ink = glyph.image.astype(np.float32)
    return glyph.w < NARROW * glyph.h and \
        bool(((ink >= 0.5 * ink.max()).mean(axis=0) >= FULL_COLUMN).any())


def corner_or_broken(glyph) -> bool:
    """Whether a glyph's ink lies along the top and left of its box only (the outline's
    corner), or breaks into pieces one above the other (dots of a dotted side, a pencil
    note's broken stroke): no printed digit."""
    ink = glyph.image.astype(np.float32)
    if float(ink.sum()) <= 0:
        return False
    if along_top_left(ink):
        return True
    # A dotted side's dots run together into one blob with all but empty rows between
    # them; every row of a digit holds ink.
    rows = ink.max(axis=1)
    return bool((rows[1:-1] < DOT_GAP * rows.max()).any())


def without_digits_in(ink_sums: np.ndarray, cells: list[tuple[int, int]], n: int = SIZE,
                      clean: np.ndarray | None = None) -> np.ndarray:
    """The sums' ink with the large digits and written notes painted out of `cells`, the
    cells that may hold a sum though the walls do not make them a cage's first: a tall
    handwritten digit there reaches into the corner where a sum would be, and read as
    one it makes a cage. (Known first cells keep their ink: the person's digit below a
    sum may touch it, and would take the sum with it.) The number is put back whole
    (kept_number). `clean`: the whole of `ink_sums` so painted, when already made."""
    if not cells:
        return ink_sums
    clean = without_large_digits(ink_sums, SUM_CELL) if clean is None else clean
    out = ink_sums.copy()
    p = ink_sums.shape[0] // n
    for r, c in cells:
        part = out[r * p:(r + 1) * p, c * p:(c + 1) * p]
        raw = part.copy()
        part[:] = clean[r * p:(r + 1) * p, c * p:(c + 1) * p]
        glyphs = kept_number(raw, part)
        if len(glyphs) > len(corner_glyphs(part)):
            y0, y1 = min(g.y for g in glyphs), max(g.y + g.h for g in glyphs)
            x0, x1 = glyphs[0].x, max(g.x + g.w for g in glyphs)
            part[y0:y1, x0:x1] = raw[y0:y1, x0:x1]
    return out


def kept_number(raw: np.ndarray, clean: np.ndarray) -> list:
    """The number in a cell's corner (corner_glyphs) with its large digits and notes
    painted out (`clean`), whole: a number's second digit stands where notes do and is
    painted out with them; where the first digit stays, the number is the one in `raw`."""
    kept = corner_glyphs(clean)
    if not kept:
        return kept
    whole = corner_glyphs(raw)
    if len(whole) > len(kept) and (whole[0].x, whole[0].y) == (kept[0].x, kept[0].y):
        return whole
    return kept


def outline_or_fill_walls(right: np.ndarray, down: np.ndarray, fills: np.ndarray,
                          ink_sums: np.ndarray, colour: np.ndarray, lattice: np.ndarray
                          ) -> tuple[np.ndarray, np.ndarray]:
    """The outline walls, or in a colourful grid the fill walls if they fit the sums better,
    or walls drawn on the grid lines in a colour of their own (coloured_line_walls).

    Where cages are colour fills without outlines, the outline reader still sees a part
    of the fill edges; where both are drawn, a highlight band makes fill edges that are no
    walls. Whichever walls give more cages with exactly one number, in their first cell,
    are the cages.
    """
    others = [fill_walls(fills)] if colourful(fills) else []
    by_line = coloured_line_walls(colour, lattice)
    if by_line is not None:
        others.append(by_line)
    if not others:
        return right, down
    n = right.shape[0]
    numbered = {(r, c) for r in range(n) for c in range(n)
                if corner_glyphs(cell_ink(ink_sums, r, c, n))}
    best, best_fit = (right, down), sum_consistency(regions(right, down), numbered)
    for walls in others:
        fit = sum_consistency(regions(*walls), numbered)
        if fit > best_fit:
            best, best_fit = walls, fit
    return best


def sure_heads(cages, right: np.ndarray, down: np.ndarray) -> list[tuple[int, int]]:
    """Heads of the cages whose every boundary wall is read with confidence."""
    n = right.shape[0]
    out = []
    for cage in cages:
        inside = set(cage)
        doubtful = False
        for r, c in cage:
            for (rr, cc), p in (((r, c + 1), right[r, c] if c + 1 < n else 1.0),
                                ((r + 1, c), down[r, c] if r + 1 < n else 1.0),
                                ((r, c - 1), right[r, c - 1] if c > 0 else 1.0),
                                ((r - 1, c), down[r - 1, c] if r > 0 else 1.0)):
                if (rr, cc) not in inside and SURE_WALL > p:
                    doubtful = True
        if not doubtful:
            out.append(min(cage))
    return out


def consistent_walls(right: np.ndarray, down: np.ndarray,
                     sum_cells: set) -> tuple[np.ndarray, np.ndarray]:
    """Lower the confidence of walls around cages that hold no sum or several.

    Each cage holds exactly one sum. A region without one must join a neighbour: its
    boundary walls become doubtful. A region with two must split: the open edges inside
    it become doubtful. The solver then tries flipping exactly these first.
    """
    right, down = right.copy(), down.copy()
    n = right.shape[0]
    for cage in regions(right, down):
        inside = set(cage)
        count = len(inside & sum_cells)
        if count == 1:
            continue
        for r, c in cage:
            for grid, (dr, dc) in ((right, (0, 1)), (down, (1, 0))):
                if not (r + dr < n and c + dc < n):
                    continue
                other = (r + dr, c + dc) in inside
                if (count == 0 and not other) or (count > 1 and other):
                    grid[r, c] = 0.5 + (grid[r, c] - 0.5) * DOUBT
            for grid, (dr, dc) in ((right, (0, -1)), (down, (-1, 0))):
                rr, cc = r + dr, c + dc
                if count == 0 and rr >= 0 and cc >= 0 and (rr, cc) not in inside:
                    grid[rr, cc] = 0.5 + (grid[rr, cc] - 0.5) * DOUBT
    return right, down


def plausible_sums(sums: list[CageSumReading], cages, n: int = SIZE) -> list[CageSumReading]:
    """Sums a cage of its size cannot hold in an n x n grid lose most of their
    probability; the rest gain."""
    size_of = {min(cage): len(cage) for cage in cages}
    out = []
    for s in sums:
        cells = size_of.get(tuple(s.cell))
        if cells is None:
            out.append(s)
            continue
        low = cells * (cells + 1) // 2
        high = cells * (2 * n - cells + 1) // 2
        weighted = [(c.value, c.prob * (1.0 if low <= c.value <= high else UNREACHABLE))
                    for c in s.candidates]
        total = sum(p for _, p in weighted) or 1.0
        weighted.sort(key=lambda vp: -vp[1])
        out.append(CageSumReading(cell=s.cell, candidates=[
            SumCandidate(value=v, prob=round(p / total, 6)) for v, p in weighted]))
    return out


def balanced_sums(sums: list[CageSumReading], n: int = SIZE) -> list[CageSumReading]:
    """When the sums read add up to the wrong total, favour single alternatives that fix it.

    The cages of an n x n killer hold every digit n times (grid_total: 405 at 9x9). If
    the most probable sums
    miss that by some amount, a sum whose runner-up differs by exactly that amount becomes
    BALANCE times as likely as before (the solver still decides). A sum without such an
    alternative gets it, as likely as GAP_GUESS of its doubt: a digit lost in a photo
    can leave the true value out of the candidates altogether.
    """
    if not sums or any(unread(s) for s in sums):
        return sums  # a sum not read at all: the total says nothing yet
    gap = grid_total(n) - sum(s.candidates[0].value for s in sums)
    if gap == 0:
        return sums
    out = []
    for s in sums:
        want = s.candidates[0].value + gap
        candidates = s.candidates
        if not any(c.value == want for c in candidates[1:]):
            if not 1 <= want <= largest_sum(n):
                out.append(s)
                continue
            doubt = GAP_GUESS * (1 - candidates[0].prob)
            candidates = [*candidates, SumCandidate(value=want, prob=doubt / BALANCE)]
        weighted = [(c.value, c.prob * (BALANCE if c.value == want else 1.0))
                    for c in candidates]
        total = sum(p for _, p in weighted)
        weighted.sort(key=lambda vp: -vp[1])
        out.append(CageSumReading(cell=s.cell, candidates=[
            SumCandidate(value=v, prob=round(p / total, 6)) for v, p in weighted]))
    return out


def killer_cells(gray: np.ndarray, lattice: np.ndarray, read: KillerRead) -> np.ndarray:
    """(n, n, n + 1) probabilities of blank, 1..n with cage outlines and sums painted out
    first."""
    n = lattice.shape[0] - 1
    straight = straighten(gray, lattice).astype(np.float32)
    p = PATCH
    # On white paper: highlighted cells, cage colours and shadow edges are not ink.
    kernel = cv2.getStructuringElement(cv2.MORPH_RECT, (p // 4 | 1, p // 4 | 1))
    paper = cv2.GaussianBlur(cv2.morphologyEx(straight, cv2.MORPH_CLOSE, kernel), (0, 0), 1.0)
    straight = straight * (255.0 / np.maximum(paper, 1.0))
    # Cage lines run within a quarter cell of the edges; given digits sit in the middle.
    band = int(round(0.25 * p))
    sum_cells = {tuple(s.cell) for s in read.sums} | set(read.heads)
    for r in range(n):
        for c in range(n):
            cell = straight[r * p:(r + 1) * p, c * p:(c + 1) * p]
            ring = np.ones((p, p), bool)
            ring[band:p - band, band:p - band] = False
            if (r, c) in sum_cells:  # the number in the corner reaches further in
                ring[:int(0.55 * p), :int(0.7 * p)] = True
            cell[ring] = 255.0
            # Textured ground (paper grain, blotches) is faint next to printed digits:
            # a cell whose darkest smoothed ink stays faint is blank.
            if cv2.GaussianBlur(cell, (0, 0), FAINT_BLUR).min() > FAINT_CELL * 255:
                cell[:] = 255.0
    x = cell_features(np.clip(straight, 0, 255).astype(np.uint8), n)
    return fold(load_model().predict_proba(x).reshape(n, n, -1), n)


def reading_fields(read: KillerRead) -> dict:
    """The killer parts of a Reading."""
    return dict(walls_right=np.round(read.walls_right, 4).tolist(),
                walls_down=np.round(read.walls_down, 4).tolist(), cage_sums=read.sums)
