"""Training of the cell-kind classifier (services/recognizer/cells/kinds.py).

Cells come from real half-solved photos (a folder of images/, labels/ and metadata.csv
with the grid's corners, as in the shared half_solved_photos set: labels 0 blank, 1-9 a
digit, 10 pencil notes), cut at the lattice the recognizer itself finds when it agrees
with the labelled corners, and at jittered lattices from those corners, and from
synthetic half-solved pages (gridsight/synth/half_solved.py). The labels do not say
whether a digit is printed or handwritten: within each photo, its digit cells are split
in two by ink darkness and stroke thickness (printed type is the darker, heavier group)
when the two groups are clearly apart, and otherwise all taken as printed.
"""

from __future__ import annotations

import csv
import random
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from scipy.optimize import minimize_scalar
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler

from services.recognizer.cells.classifier import tempered_softmax
from services.recognizer.cells.kinds import (
    CELL,
    KIND_FEATURES,
    SIZE,
    CellKindModel,
    cell_kind_features,
    class_of,
    mlp_logits,
    straight_features,
)
from services.recognizer.grid.decode import decode, decode_colour
from services.recognizer.grid.straighten import straighten

NOTES_LABEL = 10


@dataclass
class Photo:
    name: str
    data: bytes
    labels: np.ndarray  # (9, 9) ints: 0 blank, 1-9 digit, 10 notes
    corners: np.ndarray  # TL, TR, BR, BL as shares of the width and height


def load_photos(folder: Path) -> list[Photo]:
    photos = []
    with open(folder / "metadata.csv", newline="") as f:
        for row in csv.DictReader(f):
            corners = np.array([[float(row[f"x_{k}"]), float(row[f"y_{k}"])]
                                for k in ("topleft", "topright", "bottomright", "bottomleft")])
            labels = np.loadtxt(folder / "labels" / (Path(row["Name"]).stem + ".txt"), dtype=int)
            photos.append(Photo(row["Name"], (folder / "images" / row["Name"]).read_bytes(),
                                labels.reshape(SIZE, SIZE), corners))
    return photos


def lattice_from_corners(corners: np.ndarray, n: int = SIZE) -> np.ndarray:
    """(n+1, n+1, 2) points spread bilinearly between four corners TL, TR, BR, BL."""
    t = np.linspace(0, 1, n + 1)
    tl, tr, br, bl = corners
    top = tl[None] + t[:, None] * (tr - tl)[None]
    bottom = bl[None] + t[:, None] * (br - bl)[None]
    return top[None] * (1 - t)[:, None, None] + bottom[None] * t[:, None, None]


def jittered(corners: np.ndarray, rng: random.Random, cell: float, share: float) -> np.ndarray:
    return corners + np.array([[rng.uniform(-share, share) * cell for _ in range(2)]
                               for _ in range(4)])


ENTRIES_FILE = Path(__file__).with_name("half_solved_entries.txt")


def handwritten_cells(path: Path = ENTRIES_FILE) -> dict[str, set[tuple[int, int]]]:
    """Puzzle id (MM_DD) -> its handwritten cells."""
    marks = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            puzzle, *cells = line.split()
            marks[puzzle] = {(int(rc[0]), int(rc[1])) for rc in cells}
    return marks


def printed_mask(photo: Photo, marks: dict[str, set[tuple[int, int]]]) -> np.ndarray:
    """(81,) bool: digit cells not marked handwritten (all digits when the puzzle has no
    line in the marks)."""
    hand = marks.get(photo.name[:5], set())
    return np.array([1 <= photo.labels[r, c] <= 9 and (r, c) not in hand
                     for r in range(SIZE) for c in range(SIZE)])




def cell_classes(labels: np.ndarray, printed: np.ndarray) -> list[int]:
    out = []
    for v, p in zip(labels, printed, strict=True):
        if v == 0:
            out.append(class_of("blank", 0))
        elif v == NOTES_LABEL:
            out.append(class_of("notes", 0))
        else:
            out.append(class_of("printed" if p else "entry", int(v)))
    return out


def faded(straight: np.ndarray, cells: np.ndarray, strength: float) -> np.ndarray:
    """A straightened grid (CELL pixels a cell) whose `cells` (flat indices) hold their
    ink at `strength` of its contrast against the cell's paper: a light pencil. The band
    along the cell's edge, where the grid lines run, is left as it is."""
    out = straight.astype(np.float32)
    m = int(0.1 * CELL)
    for i in cells:
        r, c = divmod(int(i), SIZE)
        inner = out[r * CELL + m:(r + 1) * CELL - m, c * CELL + m:(c + 1) * CELL - m]
        paper = np.percentile(inner.reshape(-1, 3), 75, axis=0)
        inner[:] = paper + (inner - paper) * strength
    return out.clip(0, 255).astype(np.uint8)


FADE_RANGE = (0.25, 0.7)  # the val set's pencil peaks at about 0.3 of the grid's ink


def real_cells(photos: list[Photo], jitters: int, seed: int, locate=None,
               rare_jitters: int = 0, fade: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Features and classes of every cell of `photos`, at the labelled lattice, `jitters`
    jittered ones and (when `locate` is given and agrees) the recognizer's own; then the
    rarer entry and notes cells alone at `rare_jitters` more jittered lattices, with
    `fade` every other time faded to a lighter pencil (see faded)."""
    rng = random.Random(seed)
    marks = handwritten_cells()
    xs, ys = [], []
    for photo in photos:
        gray, _, _ = decode(photo.data)
        colour = decode_colour(photo.data, gray.shape)
        h, w = gray.shape
        corners = photo.corners * [w, h]
        cell = float(np.linalg.norm(corners[1] - corners[0])) / SIZE
        lattices = [lattice_from_corners(corners)]
        lattices += [lattice_from_corners(jittered(corners, rng, cell, 0.12))
                     for _ in range(jitters)]
        if locate is not None:
            try:
                found = locate(gray)[1]
                if np.abs(found[[0, 0, -1, -1], [0, -1, -1, 0]] - corners).max() < 0.3 * cell:
                    lattices.append(found)
            except Exception:  # noqa: BLE001 - no grid found: the labelled corners serve
                pass
        printed = printed_mask(photo, marks)
        classes = np.array(cell_classes(photo.labels.ravel(), printed))
        for lattice in lattices:
            xs.append(cell_kind_features(colour, lattice))
            ys.extend(classes)
        rare = classes >= class_of("entry", 1)
        for k in range(rare_jitters if rare.any() else 0):
            lattice = lattice_from_corners(jittered(corners, rng, cell, 0.12))
            straight = straighten(colour, lattice, CELL)
            if fade and k % 2 == 1:
                straight = faded(straight, np.flatnonzero(rare), rng.uniform(*FADE_RANGE))
            xs.append(straight_features(straight)[rare])
            ys.extend(classes[rare])
    return np.concatenate(xs), np.array(ys)


def fit_temperature(model: CellKindModel, x: np.ndarray, y: np.ndarray) -> float:
    logits = mlp_logits(model.scaler, model.network, model.inputs(x))

    def nll(t: float) -> float:
        p = tempered_softmax(logits, t)
        return -float(np.mean(np.log(p[np.arange(len(y)), y] + 1e-12)))

    return float(minimize_scalar(nll, bounds=(0.3, 5.0), method="bounded").x)


def train(x: np.ndarray, y: np.ndarray, x_cal: np.ndarray, y_cal: np.ndarray,
          seed: int, info: dict, columns: int = KIND_FEATURES,
          colour: bool = False, members: int = 1) -> CellKindModel:
    """The cell-kind model fitted on (x, y), its temperature on (x_cal, y_cal); with
    `members` > 1, that many networks from seeds seed, seed + 1, ..., their scores
    averaged (kinds.mlp_logits)."""
    model = CellKindModel(None, None, 1.0, info, columns=columns, colour=colour)
    x = model.inputs(x)
    scaler = StandardScaler().fit(x)
    classes = np.arange(20)
    # Every class present in the fit, so the output layer has all 20 columns.
    missing = np.setdiff1d(classes, y)
    if len(missing):
        x = np.concatenate([x, np.repeat(x[:1], len(missing), 0)])
        y = np.concatenate([y, missing])
    nets = []
    for member in range(members):
        net = MLPClassifier(hidden_layer_sizes=(160,), alpha=1e-3, max_iter=120,
                            early_stopping=False, random_state=seed + member)
        nets.append(net.fit(scaler.transform(x), y))
    model.scaler, model.network = scaler, nets[0] if members == 1 else tuple(nets)
    model.temperature = fit_temperature(model, x_cal, y_cal)
    return model


def page_classes(page) -> list[int]:
    """The 81 classes of a synthetic half-solved page, row by row."""
    notes = set(page.notes)
    out = []
    for r in range(SIZE):
        for c in range(SIZE):
            if page.givens[r][c]:
                out.append(class_of("printed", page.givens[r][c]))
            elif page.entries[r][c]:
                out.append(class_of("entry", page.entries[r][c]))
            elif (r, c) in notes:
                out.append(class_of("notes", 0))
            else:
                out.append(class_of("blank", 0))
    return out


def print_only_page(seed: int, rng: random.Random):
    """A page with printed givens only, in a random font and style, as a HalfSolvedPage."""
    from gridsight.synth.grids import random_solution
    from gridsight.synth.half_solved import HalfSolvedPage
    from gridsight.synth.render import STYLES, render_sudoku

    solution = random_solution(SIZE, None, random.Random(seed))
    share = rng.uniform(0.25, 0.5)
    givens = [[v if rng.random() < share else 0 for v in row] for row in solution]
    image = render_sudoku(givens, style=rng.choice(sorted(STYLES)), seed=seed,
                          cell_px=rng.choice([36, 44, 56]), jitter=rng.choice([0, 0.04]))
    return HalfSolvedPage(image, givens, [[0] * SIZE for _ in range(SIZE)], [], solution)


def synthetic_cells(pages: int, seed: int, hand_digits: dict | None = None,
                    light_pencil: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Features and classes of synthetic half-solved pages (gridsight/synth/half_solved.py):
    newspaper pages, as rendered and photographed, and app screenshots, cut at their true
    lattice or one a little off. With `hand_digits` (MNIST), half the handwritten pages
    are written with those real handwritten digits; every fifth page in a light pencil."""
    import cv2

    from gridsight.synth.half_solved import half_solved_page
    from gridsight.synth.photo import photograph

    rng = random.Random(seed)
    xs, ys = [], []
    for k in range(pages):
        if k % 4 == 3:  # print only, in any font and style: printed is not one typeface
            page = print_only_page(seed * 100_000 + k, rng)
        else:
            page = half_solved_page(seed * 100_000 + k, app=k % 3 == 2, wrong=rng.randint(0, 2),
                                cell_px=rng.choice([40, 48, 64]),
                                given_share=rng.uniform(0.25, 0.45),
                                entry_share=rng.uniform(0.2, 0.9),
                                notes_share=rng.uniform(0.05, 0.3),
                                hand_digits=hand_digits if k % 2 == 0 else None,
                                light_pencil=light_pencil and k % 5 == 4)
        image, lattice = page.image, np.asarray(page.image.info["lattice"], float)
        if k % 3 == 1:
            image, truth = photograph(image, rng=rng.randrange(1 << 30),
                                      curvature=rng.uniform(0, 0.02))
            lattice = truth.lattice
        colour = cv2.cvtColor(np.asarray(image.convert("RGB")), cv2.COLOR_RGB2BGR)
        cell = float(np.linalg.norm(lattice[0, -1] - lattice[0, 0])) / SIZE
        corners = lattice[[0, 0, -1, -1], [0, -1, -1, 0]]
        if rng.random() < 0.5:
            lattice = lattice_from_corners(jittered(corners, rng, cell, 0.08))
        xs.append(cell_kind_features(colour, lattice))
        ys.extend(page_classes(page))
    return np.concatenate(xs), np.array(ys)


def app_screen_cells(pages: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Features and classes of app and web screenshots in progress (gridsight/synth/
    app_screens.py) of the trained theme families only (HELD_OUT_FAMILY is the bench's
    measure), cut at their true lattice or one a little off. A dark theme's grid is cut
    from its colours inverted, as the recognizer reads a grid it finds inverted."""
    import cv2

    from gridsight.synth.app_screens import TRAINED_FAMILIES, app_screen

    rng = random.Random(seed)
    xs, ys = [], []
    for k in range(pages):
        screen = app_screen(seed * 100_000 + k, TRAINED_FAMILIES[k % len(TRAINED_FAMILIES)])
        lattice = np.asarray(screen.image.info["lattice"], float)
        colour = cv2.cvtColor(np.asarray(screen.image.convert("RGB")), cv2.COLOR_RGB2BGR)
        if screen.features["dark"]:
            colour = 255 - colour
        cell = float(np.linalg.norm(lattice[0, -1] - lattice[0, 0])) / SIZE
        if rng.random() < 0.5:
            corners = lattice[[0, 0, -1, -1], [0, -1, -1, 0]]
            lattice = lattice_from_corners(jittered(corners, rng, cell, 0.06))
        xs.append(cell_kind_features(colour, lattice))
        ys.extend(page_classes(screen))
    return np.concatenate(xs), np.array(ys)


PHOTO_DAMAGE = ("gaussian noise", "shadow stripes", "shadow gradient", "blur", "faded")


def print_photo_cells(pages: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Features and classes of photographed print-only pages: printed givens only, in any
    digit face and style, at times faint or in a halftone screen, photographed (gridsight/
    synth/photo.py) with random shadows, light falloff, exposure, defocus, noise and JPEG,
    at times damaged further (gridsight/synth/degrade.py); cut at their true lattice or one
    a little off. Negatives for the person's digits: print whose darkness varies across a
    photo is still print."""
    import cv2
    from PIL import Image

    from gridsight.synth.degrade import STRENGTHS, damaged, faint, halftone
    from gridsight.synth.fonts import digit_fonts
    from gridsight.synth.grids import random_solution
    from gridsight.synth.photo import photograph
    from gridsight.synth.render import STYLES, render_sudoku

    rng = random.Random(seed)
    fonts = [path for _, path in digit_fonts()]
    styles = sorted(STYLES)
    xs, ys = [], []
    for k in range(pages):
        page_seed = seed * 100_000 + k
        solution = random_solution(SIZE, None, random.Random(page_seed))
        share = rng.uniform(0.2, 0.5)
        givens = [[v if rng.random() < share else 0 for v in row] for row in solution]
        image = render_sudoku(givens, font=rng.choice(fonts), style=rng.choice(styles),
                              seed=page_seed, cell_px=rng.randint(30, 64),
                              jitter=rng.uniform(0, 0.05))
        lattice = image.info["lattice"]
        look = rng.random()
        if look < 0.2:
            image = faint(image, rng.uniform(0.3, 0.7))
        elif look < 0.3:
            image = halftone(image, rng.uniform(0.5, 0.8), pitch=rng.choice([3, 4, 5]))
        np_rng = np.random.default_rng(page_seed)
        photo, truth = photograph(
            image, rng=np_rng, lattice=lattice, curvature=rng.uniform(0, 0.025),
            fill=(0.55, 0.95), rotation=10, blur=rng.uniform(0.3, 1.8),
            noise=rng.uniform(2, 10), shadow=rng.uniform(0.1, 0.6),
            lighting=rng.uniform(0.1, 0.5), jpeg_quality=rng.randint(55, 92),
            stripes=rng.choice([0, 0, 0, 1, 2]),
            exposure=rng.choice(["normal"] * 6 + ["dark", "faded"]),
            corner_shadow=rng.random() < 0.2, spur_shadow=rng.random() < 0.15,
            defocus=rng.choice([0.0, 0.0, rng.uniform(0.01, 0.05)]),
            out_size=rng.choice([(1024, 768), (1600, 1200)]))
        pixels = np.asarray(photo).astype(np.float32)
        if rng.random() < 0.3:
            kind = rng.choice(PHOTO_DAMAGE)
            pixels = damaged(pixels, kind, rng.choice(STRENGTHS[kind][:2]), np_rng)
        rgb = np.clip(pixels, 0, 255).astype(np.uint8)
        colour = cv2.cvtColor(np.asarray(Image.fromarray(rgb)), cv2.COLOR_RGB2BGR)
        lat = np.asarray(truth.lattice, float)
        cell = float(np.linalg.norm(lat[0, -1] - lat[0, 0])) / SIZE
        if rng.random() < 0.5:
            corners = lat[[0, 0, -1, -1], [0, -1, -1, 0]]
            lat = lattice_from_corners(jittered(corners, rng, cell, 0.08))
        xs.append(cell_kind_features(colour, lat))
        ys.extend(class_of("printed", v) if v else class_of("blank", 0)
                  for row in givens for v in row)
    return np.concatenate(xs), np.array(ys)
