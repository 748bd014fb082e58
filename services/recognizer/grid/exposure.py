"""Dark-mode screenshots, under-exposed and blurred photos: the grid located either way."""

from __future__ import annotations

import cv2
import numpy as np

from services.recognizer.errors import RecognitionError
from services.recognizer.grid.fit import GOOD_FIT
from services.recognizer.grid.focus import sharpened_picture
from services.recognizer.grid.lattice import corners_of, lattice_fit
from services.recognizer.grid.locate import locate, located
from services.recognizer.grid.outlines import binarize
from services.recognizer.grid.tuning import (
    DARK_GROUND,
    GROUND_SHARE,
    SHARPENED_BETTER,
    UNDER_EXPOSED,
)
from services.recognizer.ranks import grey_counts, grey_ranked


def dark_ground(gray: np.ndarray) -> bool:
    """Whether the picture looks like a dark-mode screenshot: a flat dark ground."""
    counts = np.convolve(grey_counts(gray), np.ones(5), "same")
    ground = int(counts.argmax())
    return ground < DARK_GROUND and counts[ground] >= GROUND_SHARE * gray.size


def brightened(gray: np.ndarray) -> np.ndarray:
    """An under-exposed photo stretched to the full grey range: its faint rules then clear
    the local threshold's margin. (Stretching every low-contrast photo was tried: real
    photos of normal exposure read worse.)"""
    low, high = grey_ranked(gray, (1, 99))
    if high >= UNDER_EXPOSED:
        return gray
    lut = np.clip((np.arange(256) - low) * 255.0 / max(1.0, high - low), 0, 255)
    return lut.astype(np.uint8)[gray]


def locate_either_way(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(grey picture with dark ink on light ground, grid corners, lattice).

    Dark-mode apps draw light lines and digits on a dark ground. Any picture in which no
    grid is found, or whose grid's lines are lighter than its ground, is also tried
    inverted (a negative). A picture with a flat
    dark ground is read both inverted and as it is (a photo on a dark table, or an
    under-exposed one, has one too): the reading whose grid has ground lighter than its
    lines wins, and of two such, the one whose lattice lies better on its lines.
    """
    if not dark_ground(gray):
        try:
            corners, lattice = locate(gray)
        except RecognitionError as error:
            # A negative, or light print on a dark page photographed on a light table.
            inverted = 255 - gray
            try:
                corners, lattice = locate(inverted)
            except RecognitionError:
                raise error from None
            if not ground_lighter_than_lines(inverted, lattice):
                raise
            return inverted, corners, lattice
        if ground_lighter_than_lines(gray, lattice):
            return gray, corners, lattice
        # The lattice found has lines lighter than its ground: a dark page photographed
        # on a light table, where the page's edge and the grid's light rules can trace a
        # smaller grid. The negative's lattice wins when its own ground is lighter.
        inverted = 255 - gray
        try:
            found = locate(inverted)
        except RecognitionError:
            return gray, corners, lattice
        if ground_lighter_than_lines(inverted, found[1]):
            return (inverted, *found)
        return gray, corners, lattice
    found, error = [], None
    for candidate in (255 - gray, gray):
        try:
            corners, lattice, fit = located(candidate)
        except RecognitionError as e:
            error = error or e
            continue
        lighter = ground_lighter_than_lines(candidate, lattice)
        if lighter and fit >= GOOD_FIT and candidate is not gray:
            # A dark-mode grid, inverted, lying well on its lines: the picture as it is
            # shows its dark ground between light lines, no grid to weigh against it.
            return candidate, corners, lattice
        fit = lattice_fit(binarize(candidate), lattice)
        found.append(((lighter, fit), candidate, corners, lattice))
    if not found:
        raise error
    _, picture, corners, lattice = max(found, key=lambda f: f[0])
    return picture, corners, lattice


def locate_through_blur(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """locate_either_way, and on a picture far out of focus whose lattice does not lie well
    on its lines, again on the picture sharpened (focus.sharpened_picture): the lattice
    lying clearly better on the sharpened lines wins. The picture returned is never the
    sharpened one (the cells are read from the picture as it is, grid/focus.py)."""
    sharp = sharpened_picture(gray)
    try:
        found = locate_either_way(gray)
    except RecognitionError:
        if sharp is None:
            raise
        found = None
    if sharp is None:
        return found

    def sharp_fit(lattice: np.ndarray, inverted: bool) -> float:
        return lattice_fit(binarize(255 - sharp if inverted else sharp), lattice)

    if found is not None:
        fit = sharp_fit(found[2], found[0] is not gray)
        if fit >= GOOD_FIT:
            return found
    try:
        picture, corners, lattice = locate_either_way(sharp)
    except RecognitionError:
        if found is None:
            raise
        return found
    inverted = picture is not sharp
    if found is not None and (lattice.shape != found[2].shape
                              or sharp_fit(lattice, inverted) < fit + SHARPENED_BETTER):
        return found
    return (255 - gray if inverted else gray), corners, lattice


def ground_lighter_than_lines(gray: np.ndarray, lattice: np.ndarray) -> bool:
    """Whether the grid's ground is lighter than its lines, as ink on paper is. Relative,
    not against a fixed grey: an under-exposed photo has dark paper with darker lines."""
    lines = np.zeros(gray.shape, np.uint8)
    points = np.round(lattice).astype(np.int32)
    for k in range(lattice.shape[0]):
        cv2.polylines(lines, [np.ascontiguousarray(points[k]), np.ascontiguousarray(points[:, k])],
                      False, 1, 1)
    inside = np.zeros(gray.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(corners_of(lattice)).astype(np.int32), 1)
    ground = (inside > 0) & (lines == 0)
    if not lines.any() or not ground.any():
        return False
    return float(np.median(gray[ground])) > float(np.median(gray[lines > 0]))


def read_lattice(gray: np.ndarray) -> np.ndarray:
    """The (SIZE+1)^2 grid line intersections in `gray`'s pixels."""
    return locate(gray)[1]
