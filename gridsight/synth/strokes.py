"""Digits drawn as strokes, with the glyph variants installed fonts lack.

Printed puzzles use typefaces we do not have: open-topped 4s, 7s with a bar, 1s with a
foot, 6s and 9s with straight tails. A stroke "font" with those variants, drawn at
random weights, widths and slants, teaches the classifier the digit rather than the
few typefaces on the machine.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np
from PIL import ImageDraw

Polyline = list[tuple[float, float]]
WIDTH = 0.6  # glyph box: x in [0, WIDTH], y in [0, 1] downwards


def _arc(cx: float, cy: float, rx: float, ry: float, start: float, stop: float,
         steps: int = 24) -> Polyline:
    angles = np.deg2rad(np.linspace(start, stop, steps))
    return [(cx + rx * np.cos(a), cy + ry * np.sin(a)) for a in angles]


def _turned(lines: list[Polyline]) -> list[Polyline]:
    return [[(WIDTH - x, 1 - y) for x, y in line] for line in lines]


def _six(straight: bool) -> list[Polyline]:
    loop = _arc(0.3, 0.7, 0.27, 0.29, 0, 360)
    tail = [(0.04, 0.68), (0.42, 0.0)] if straight else _arc(0.6, 0.7, 0.57, 0.68, 180, 262)
    return [loop, tail]


def glyph(digit: int, variant: dict[str, bool]) -> list[Polyline]:
    """Polylines of `digit` in the unit glyph box."""
    if digit == 0:
        return [_arc(0.3, 0.5, 0.28, 0.49, 0, 360)]
    if digit == 1:
        lines = [[(0.32, 0.0), (0.32, 1.0)]]
        if variant["one_flag"]:
            lines.append([(0.1, 0.2), (0.32, 0.0)])
        if variant["one_foot"]:
            lines.append([(0.12, 1.0), (0.52, 1.0)])
        return lines
    if digit == 2:
        return [_arc(0.3, 0.27, 0.27, 0.25, 200, 385) + [(0.03, 1.0), (0.58, 1.0)]]
    if digit == 3:
        if variant["three_flat"]:
            return [[(0.05, 0.0), (0.55, 0.0), (0.25, 0.42)], _arc(0.3, 0.71, 0.28, 0.29, 250, 520)]
        return [_arc(0.3, 0.26, 0.25, 0.24, 200, 450), _arc(0.3, 0.74, 0.28, 0.26, 270, 520)]
    if digit == 4:
        if variant["four_open"]:
            return [[(0.16, 0.0), (0.03, 0.66), (0.6, 0.66)], [(0.45, 0.28), (0.45, 1.0)]]
        return [[(0.45, 1.0), (0.45, 0.0), (0.02, 0.7), (0.6, 0.7)]]
    if digit == 5:
        return [[(0.55, 0.0), (0.1, 0.0), (0.06, 0.46)] + _arc(0.3, 0.68, 0.28, 0.3, 215, 520)]
    if digit == 6:
        return _six(variant["straight_tails"])
    if digit == 7:
        lines = [[(0.02, 0.0), (0.58, 0.0), (0.2, 1.0)]]
        if variant["seven_bar"]:
            lines.append([(0.18, 0.52), (0.52, 0.52)])
        return lines
    if digit == 8:
        return [_arc(0.3, 0.25, 0.23, 0.24, 0, 360), _arc(0.3, 0.73, 0.28, 0.27, 0, 360)]
    if digit == 9:
        return _turned(_six(variant["straight_tails"]))
    raise ValueError(f"no glyph for {digit}")


@dataclass(frozen=True)
class StrokeFont:
    """One consistent hand: the same variants, weight, width and slant for every digit."""

    variant: dict
    weight: float  # stroke width as a share of the digit height
    aspect: float  # glyph width multiplier
    slant: float  # x shift per unit of height, leaning right when positive

    @classmethod
    def random(cls, rng: random.Random) -> StrokeFont:
        names = ("one_flag", "one_foot", "three_flat", "four_open", "seven_bar",
                 "straight_tails")
        variant = {name: rng.random() < 0.5 for name in names}
        variant["one_flag"] = variant["one_flag"] or rng.random() < 0.5
        return cls(variant, rng.uniform(0.07, 0.17), rng.uniform(0.75, 1.2),
                   rng.choice([0.0, 0.0, rng.uniform(-0.05, 0.15)]))

    def draw(self, draw: ImageDraw.ImageDraw, digit: int, centre: tuple[float, float],
             height: float, colour) -> None:
        cx, cy = centre
        scale_x = height * self.aspect
        width = max(1, round(self.weight * height))
        for line in glyph(digit, self.variant):
            points = [(cx + (x - WIDTH / 2) * scale_x + self.slant * (0.5 - y) * height,
                       cy + (y - 0.5) * height) for x, y in line]
            draw.line(points, fill=colour, width=width, joint="curve")
            # Round caps: PIL's lines end square.
            for x, y in (points[0], points[-1]):
                r = width / 2
                draw.ellipse([x - r, y - r, x + r, y + r], fill=colour)
