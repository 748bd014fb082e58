"""Training cells for the screens' cell-kind model (cells/kinds.SCREEN_MODEL_PATH): app and
web screenshots in progress of the trained theme families, print-only pages and app pages
as rendered, each read as the recognizer reads a screenshot (decoded at its working scale,
PNG or JPEG, its grid cut at the true lattice or one a little off, a dark grid inverted)."""

from __future__ import annotations

import io
import random

import numpy as np

from gridsight.training.cell_kinds import jittered, lattice_from_corners, page_classes
from services.recognizer.cells.ink import screen_features
from services.recognizer.cells.kinds import CELL, SIZE
from services.recognizer.grid.decode import decode, decode_colour
from services.recognizer.grid.straighten import straighten


def _page(seed: int, k: int, rng: random.Random):
    """(picture, truth page, dark) of training page k: three in seven app screens, one a
    print-only page, one an app page and two pages written on by hand of
    gridsight/synth/half_solved.py (a clean scan of one is as flat as a screen), every
    fourth of those in a light pencil, some with a shadow's edge across."""
    from gridsight.synth.app_screens import TRAINED_FAMILIES, app_screen
    from gridsight.synth.half_solved import half_solved_page
    from gridsight.training.cell_kinds import print_only_page

    kind = k % 7
    if kind == 3:
        page = print_only_page(seed * 100_000 + k, rng)
        return page.image, page, False
    if kind >= 4:
        page = half_solved_page(seed * 100_000 + k, app=kind == 4,
                                cell_px=rng.choice([40, 48, 64]), wrong=rng.randint(0, 2),
                                given_share=rng.uniform(0.25, 0.45),
                                entry_share=rng.uniform(0.2, 0.9),
                                notes_share=rng.uniform(0.05, 0.3),
                                light_pencil=kind >= 5 and k % 4 == 1,
                                shadow_edges=int(kind >= 5 and rng.random() < 0.3))
        return page.image, page, False
    screen = app_screen(seed * 100_000 + k, TRAINED_FAMILIES[k % len(TRAINED_FAMILIES)])
    return screen.image, screen, screen.features["dark"]


def screen_cells(pages: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Features (screen_features) and classes of `pages` training pages."""
    rng = random.Random(seed)
    xs, ys = [], []
    for k in range(pages):
        image, page, dark = _page(seed, k, rng)
        buffer = io.BytesIO()
        if rng.random() < 0.5:
            image.convert("RGB").save(buffer, "JPEG", quality=rng.randint(75, 95))
        else:
            image.save(buffer, "PNG")
        data = buffer.getvalue()
        gray, scale, _ = decode(data)
        colour = decode_colour(data, gray.shape)
        if dark:
            colour = 255 - colour
        lattice = np.asarray(image.info["lattice"], float) / scale
        if rng.random() < 0.5:
            cell = float(np.linalg.norm(lattice[0, -1] - lattice[0, 0])) / SIZE
            corners = lattice[[0, 0, -1, -1], [0, -1, -1, 0]]
            lattice = lattice_from_corners(jittered(corners, rng, cell, 0.06))
        xs.append(screen_features(straighten(colour, lattice, CELL)))
        ys.extend(page_classes(page))
    return np.concatenate(xs), np.array(ys)
