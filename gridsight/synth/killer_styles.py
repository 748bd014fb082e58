"""The looks of rendered killer sudoku: a phone app's, a web page's, a newspaper's and
more, each a KillerStyle, and vary() to draw one a little differently each time."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from gridsight.synth.render import RGB, Style


@dataclass(frozen=True)
class KillerStyle:
    grid: Style  # paper, grid lines and given digits
    cage: RGB = (40, 40, 40)
    cage_width: float = 0.025  # as a share of the cell side
    inset: float = 0.12  # cage outline's distance from the cell edge
    dash: float = 0.09  # dash length; 0 = solid; about cage_width = dotted
    gap: float = 0.07
    sum_height: float = 0.22  # height of a sum's digits
    sum_colour: RGB = (30, 30, 30)
    sum_serif: bool | None = False
    sum_box: bool = True  # paper behind the sum, breaking the outline there
    band: RGB | None = None  # highlight of the selected cell's row, column and box
    selected: RGB | None = None
    fills: tuple[RGB, ...] = ()  # cage colours; empty = no fills
    outline: bool = True  # False: cages told apart by their fill colours alone
    sum_bold: bool | None = None  # True: bold faces only for the sums
    texture: float = 0.0  # grain of a textured ground, in grey levels (standard deviation)
    # Space added between a sum's digits, as a share of their height: negative sets them
    # tight, so that they touch or overlap as in small bold faces of some apps.
    sum_tracking: float = 0.0


STYLES: dict[str, KillerStyle] = {
    # A phone app: light grey lines, dark dashes, a blue band and a selected cell.
    "app": KillerStyle(
        grid=Style(background=(255, 255, 255), line=(205, 208, 214), box_line=(120, 124, 134),
                   thin=0.02, thick=0.045, outer=0.05, digit=((40, 70, 170),), serif=False),
        cage=(60, 64, 74), cage_width=0.022, inset=0.1, dash=0.07, gap=0.06,
        sum_height=0.2, sum_colour=(50, 54, 64), band=(226, 235, 246),
        selected=(190, 215, 250)),
    # A web page: black lines, dashed cages about 7 px in, sums of about a fifth of a cell.
    "web": KillerStyle(
        grid=Style(thin=0.02, thick=0.06, outer=0.07, serif=False),
        cage=(0, 0, 0), cage_width=0.02, inset=0.14, dash=0.08, gap=0.06, sum_height=0.24,
        sum_colour=(0, 0, 0), band=(235, 235, 235), selected=(255, 246, 170)),
    # Newspaper print: black lines, dotted cages, a serif sum; photographed in tests.
    "print": KillerStyle(
        grid=Style(background=(246, 244, 238), line=(30, 30, 30), box_line=(10, 10, 10),
                   thin=0.02, thick=0.06, outer=0.07, digit=((15, 15, 15),), serif=True),
        cage=(20, 20, 20), cage_width=0.03, inset=0.11, dash=0.03, gap=0.08,
        sum_height=0.23, sum_colour=(15, 15, 15), sum_serif=True, sum_box=True),
    # Cages told apart by colour as well as by a faint outline.
    "colour": KillerStyle(
        grid=Style(line=(150, 150, 150), box_line=(40, 40, 40), thin=0.02, thick=0.05,
                   outer=0.06, serif=False),
        cage=(90, 90, 90), cage_width=0.018, inset=0.1, dash=0.06, gap=0.06, sum_height=0.22,
        sum_colour=(20, 20, 20),
        fills=((255, 228, 225), (222, 245, 222), (222, 232, 255), (255, 248, 205),
               (240, 225, 250), (215, 245, 245))),
}


# Kept apart from STYLES, which the killer models are trained on: dark mode (the recognizer
# reads it inverted) and cages drawn as colour fills without outlines (told apart by colour).
MORE_STYLES: dict[str, KillerStyle] = {
    "fills": replace(STYLES["colour"], outline=False, band=None, selected=None),
    "dark": KillerStyle(
        grid=Style(background=(30, 31, 36), line=(72, 75, 84), box_line=(150, 154, 165),
                   thin=0.02, thick=0.045, outer=0.05, digit=((130, 170, 255),), serif=False),
        cage=(175, 178, 186), cage_width=0.022, inset=0.1, dash=0.07, gap=0.06,
        sum_height=0.2, sum_colour=(215, 218, 226), band=(44, 50, 64), selected=(58, 74, 110)),
}


# Styles modelled on how other apps and sites draw killers. NEW_STYLES are trained on like
# STYLES; UNSEEN_STYLES are never used in training (a permanent held-out set for the bench).
NEW_STYLES: dict[str, KillerStyle] = {
    # Grey textured ground, dark lines, dashed cages; drawn at about 500 px a grid.
    "textured": KillerStyle(
        grid=Style(background=(200, 200, 198), line=(90, 90, 90), box_line=(20, 20, 20),
                   thin=0.02, thick=0.05, outer=0.06, digit=((20, 20, 20),), serif=False),
        cage=(30, 30, 30), cage_width=0.022, inset=0.1, dash=0.08, gap=0.06,
        sum_height=0.22, sum_colour=(10, 10, 10), sum_box=False, texture=9.0),
    # Bold serif sums, large, over dotted cages.
    "bold_serif": KillerStyle(
        grid=Style(thin=0.02, thick=0.06, outer=0.07, serif=True),
        cage=(0, 0, 0), cage_width=0.025, inset=0.12, dash=0.025, gap=0.07, sum_height=0.26,
        sum_colour=(0, 0, 0), sum_serif=True, sum_bold=True),
    # Cage boundaries drawn on the grid lines themselves, in another colour than the grid.
    "edge_colour": KillerStyle(
        grid=Style(line=(175, 175, 175), box_line=(60, 60, 60), thin=0.02, thick=0.04,
                   outer=0.05, serif=False),
        cage=(200, 60, 50), cage_width=0.05, inset=0.0, dash=0.0, gap=0.07, sum_height=0.22,
        sum_colour=(40, 40, 40), sum_box=False),
}
UNSEEN_STYLES: dict[str, KillerStyle] = {
    # A plain site: dashed cages inset in the cells, sums in a small sans face (about 11 px
    # at 55-px cells) and a highlighted row, column and box.
    "plain": KillerStyle(
        grid=Style(line=(160, 160, 160), box_line=(30, 30, 30), thin=0.018, thick=0.045,
                   outer=0.05, serif=False),
        cage=(70, 70, 70), cage_width=0.018, inset=0.09, dash=0.06, gap=0.05,
        sum_height=0.2, sum_colour=(30, 30, 30), sum_bold=False, sum_box=False,
        band=(255, 250, 215), selected=(255, 235, 150)),
    # Thin solid coloured cage lines just inside the cells.
    "thin_colour": KillerStyle(
        grid=Style(line=(190, 190, 190), box_line=(50, 50, 50), thin=0.02, thick=0.05,
                   outer=0.06, serif=False),
        cage=(40, 90, 200), cage_width=0.02, inset=0.08, dash=0.0, gap=0.06, sum_height=0.22,
        sum_colour=(40, 90, 200), sum_box=True, band=(236, 240, 248)),
    # Huge cages (make_killer(huge=True)) outlined by dots one pixel wide, just inside the
    # thick box lines; sums up to 45 on a ground patch.
    "huge_dotted": KillerStyle(
        grid=Style(line=(175, 175, 175), box_line=(0, 0, 0), thin=0.012, thick=0.045,
                   outer=0.05, serif=False),
        cage=(60, 60, 60), cage_width=0.01, inset=0.065, dash=0.01, gap=0.03,
        sum_height=0.2, sum_colour=(20, 20, 20), sum_box=True),
}
TRAINED_STYLES = STYLES | NEW_STYLES
ALL_STYLES = TRAINED_STYLES | MORE_STYLES | UNSEEN_STYLES
CAGE_COLOURS = ((200, 60, 50), (40, 90, 200), (30, 140, 70), (220, 120, 20), (150, 50, 160))


def vary(style: KillerStyle, rng: random.Random) -> KillerStyle:
    """A random variation on `style`: widths, insets, dashes, sizes and colours."""
    dark = rng.randint(0, 90)
    grey = (dark, dark, dark + rng.randint(0, 20))
    if sum(style.grid.background) < 3 * 128:  # dark mode: light outlines
        grey = tuple(255 - v for v in grey)
    if max(style.cage) - min(style.cage) > 40:  # a coloured outline stays coloured
        grey = rng.choice(CAGE_COLOURS)
    dash = style.dash * rng.uniform(0.6, 1.6)
    if style.dash == 0:
        dash = 0.0  # solid stays solid
    elif rng.random() < 0.2:
        dash = style.cage_width  # dotted
    grid = replace(style.grid, thin=style.grid.thin * rng.uniform(0.6, 1.5),
                   thick=min(0.08, style.grid.thick * rng.uniform(0.7, 1.4)),
                   outer=min(0.09, style.grid.outer * rng.uniform(0.7, 1.3)))
    return replace(
        style, grid=grid, cage=grey if rng.random() < 0.5 else style.cage,
        cage_width=style.cage_width * rng.uniform(0.6, 1.6),
        inset=0.0 if style.inset == 0 else  # on the grid lines stays there
        min(0.2, max(grid.thick / 2 + 0.06, style.inset * rng.uniform(0.8, 1.4))),
        dash=dash, gap=max(0.05, style.gap * rng.uniform(0.7, 1.5)),
        sum_height=style.sum_height * rng.uniform(0.8, 1.2),
        sum_box=style.sum_box or rng.random() < 0.5,
        band=style.band if rng.random() < 0.7 else None,
        selected=style.selected if rng.random() < 0.7 else None,
        texture=style.texture * rng.uniform(0.5, 1.5))


def hairline_huge(rng: random.Random, cell_px: int) -> KillerStyle:
    """A huge-cage killer's look as some apps draw it in 912-px screenshots (cells of
    about 100 px): dots one pixel wide, 2-5 px apart, 1.5-6 px inside the grid lines,
    thick box lines too, in a grey from dark to light; sums in any face (serif or not,
    bold or not), on a ground patch or not. Widths are in pixels, so `cell_px` is the
    cell the picture is drawn at."""
    base = UNSEEN_STYLES["huge_dotted"]
    thick = rng.uniform(0.03, 0.06)
    dot = rng.randint(60, 170)
    grid = replace(base.grid, thick=thick, outer=thick + rng.uniform(0.0, 0.02),
                   thin=rng.uniform(0.008, 0.015), line=(rng.randint(150, 215),) * 3)
    return replace(base, grid=grid, cage=(dot, dot, dot), cage_width=1.0 / cell_px,
                   dash=1.0 / cell_px, gap=rng.uniform(2.0, 5.0) / cell_px,
                   inset=thick / 2 + rng.uniform(1.5, 6.0) / cell_px,
                   sum_height=rng.uniform(0.15, 0.25), sum_box=rng.random() < 0.5,
                   sum_serif=rng.choice((None, True, False)),
                   sum_bold=rng.choice((None, True, False)))
