"""The symbol model: each glyph of a 12x12 or 16x16 cell as 0, a letter A-P, or "a digit
1-9" (the digit model tells those apart), trained on rendered grids only.

Grids are drawn with the renderer in the three conventions (see render.symbol_text), as
screenshots and as synthetic photos; each cell is cut into glyphs exactly as the
recognizer cuts it (services.recognizer.symbols.glyph_features), at the rendered
lattice's known position. Cells whose glyph count differs from the printed text's are
left out (the recognizer's reading of those is the convention check's business).

Held out of training (measured apart): every fourth font family by name and the "bold"
style, so the figures say how the model reads faces and line weights it never saw.
"""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np
from sklearn.neural_network import MLPClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from gridsight.synth.fonts import digit_fonts, font_family
from gridsight.synth.photo import photograph
from gridsight.synth.puzzles import make_sudoku
from gridsight.synth.render import STYLES, SYMBOLS, render_sudoku, symbol_text
from services.recognizer.cells.symbols import (
    GLYPH_CELL,
    SYMBOL_CLASSES,
    glyph_hypotheses,
    glyph_ink,
)
from services.recognizer.grid.decode import decode

HELD_OUT_STYLE = "bold"


def font_split() -> tuple[list[str], list[str]]:
    """(training font paths, held-out font paths): every fourth family by name held out."""
    families = sorted({font_family(name) for name, _ in digit_fonts()})
    held = set(families[3::4])
    train = [p for n, p in digit_fonts() if font_family(n) not in held]
    test = [p for n, p in digit_fonts() if font_family(n) in held]
    return train, test


DIGITS = "123456789"


def glyph_class(char: str) -> int:
    return SYMBOL_CLASSES.index("digit" if char in DIGITS else char)


SPECK_CLASS = SYMBOL_CLASSES.index("speck")


GLYPH_SIZES = (0.88, 1.12)  # training glyphs drawn this much smaller or larger than the style's


def grid_picture(seed: int, fonts: list[str], styles: list[str], photo: bool,
                 size: int | None = None, symbols: str | None = None, noisy: bool = False,
                 vary_size: bool = False):
    """(picture bytes as the recognizer would get them, givens, lattice in the decoded
    picture's pixels, convention) of one rendered grid. `vary_size`: glyphs drawn larger
    or smaller than the style's own size (GLYPH_SIZES), as print and apps differ."""
    rng = random.Random(seed)
    size = size or rng.choice([12, 16])
    symbols = symbols or rng.choice(SYMBOLS)
    givens, _ = make_sudoku(rng, size, unique=False, target_clues=int(size * size * 0.5))
    look = STYLES[rng.choice(styles)]
    if vary_size:
        look = replace(look, digit_height=look.digit_height * rng.uniform(*GLYPH_SIZES))
    image = render_sudoku(givens, font=rng.choice(fonts), style=look,
                          cell_px=rng.randint(24, 44), seed=seed, symbols=symbols,
                          jitter=rng.uniform(0, 0.04))
    lattice = np.asarray(image.info["lattice"], float)
    if photo:
        image, truth = photograph(image, rng=np.random.default_rng(seed), fill=(0.75, 0.95),
                                  rotation=8, out_size=rng.choice([(1024, 768), (1600, 1200)]),
                                  **({"noise": 12.0, "stripes": 2} if noisy else {}))
        lattice = truth.lattice
    import io

    buffer = io.BytesIO()
    image.save(buffer, "JPEG" if photo else "PNG", quality=90)
    return buffer.getvalue(), givens, lattice, symbols


def glyph_set(seeds, fonts: list[str], styles: list[str], photo_share: float = 0.4,
              vary_size: bool = False, conventions: tuple[str, ...] | None = None,
              digits_only: bool = False):
    """(features, classes) of every glyph of the grids drawn from `seeds`. A number whose
    two digits touch is learnt from the cut that parts them (symbols.split_glyph), as the
    recognizer reads it. `conventions`: the ones grids are drawn in (default: any).
    `digits_only`: only the glyphs of digits 1-9, each labelled with its digit, for the
    digit model; and a number whose two digits touch, as the one glyph the gaps cut, once
    labelled with each digit 1-9: the recognizer reads that glyph with the digit model too
    and weighs it against the two halves, and it is no digit, so no digit should be read
    surely from it."""
    xs, ys = [], []
    for seed in seeds:
        photo = random.Random(seed * 7 + 1).random() < photo_share
        noisy = random.Random(seed * 7 + 2).random() < 0.3
        convention = random.Random(seed * 7 + 3).choice(conventions) if conventions else None
        data, givens, lattice, symbols = grid_picture(seed, fonts, styles, photo, noisy=noisy,
                                                      vary_size=vary_size, symbols=convention)
        gray, scale, _ = decode(data)
        ink = glyph_ink(gray, lattice / scale)
        n = len(givens)
        for r in range(n):
            for c in range(n):
                ways = glyph_hypotheses(ink[r * GLYPH_CELL:(r + 1) * GLYPH_CELL,
                                            c * GLYPH_CELL:(c + 1) * GLYPH_CELL])
                if not ways:
                    continue
                if not givens[r][c]:  # ink in a blank cell: specks, whatever their number
                    if digits_only:
                        continue
                    xs += ways[0]
                    ys += [SPECK_CLASS] * len(ways[0])
                    continue
                text = symbol_text(givens[r][c], symbols)
                vectors = next((way for way in ways if len(way) == len(text)), None)
                if vectors is None:
                    continue
                if digits_only:
                    xs += [v for v, ch in zip(vectors, text, strict=True) if ch in DIGITS]
                    ys += [int(ch) for ch in text if ch in DIGITS]
                    if len(text) == 2 and len(ways[0]) == 1:  # its digits touch
                        xs += ways[0] * len(DIGITS)
                        ys += [int(ch) for ch in DIGITS]
                    continue
                xs += vectors
                ys += [glyph_class(ch) for ch in text]
    return np.array(xs, np.float32), np.array(ys)


def train(grids: int = 240, seed: int = 0):
    """The fitted pipeline, trained on training fonts and styles only."""
    fonts, _ = font_split()
    styles = [s for s in sorted(STYLES) if s != HELD_OUT_STYLE]
    x, y = glyph_set(range(seed, seed + grids), fonts, styles, vary_size=True)
    model = make_pipeline(StandardScaler(), MLPClassifier(
        hidden_layer_sizes=(96,), alpha=1e-3, max_iter=80, early_stopping=True,
        random_state=seed))
    model.fit(x, y)
    model.info = {"grids": grids, "glyphs": int(len(y)), "held_out_style": HELD_OUT_STYLE,
                  "classes": list(SYMBOL_CLASSES)}
    return model


def held_out_accuracy(model, grids: int = 40, seed: int = 10_000) -> dict[str, float]:
    """Glyph accuracy on held-out fonts (training styles), training fonts in the held-out
    style, and held-out fonts in the held-out style."""
    train_fonts, test_fonts = font_split()
    styles = [s for s in sorted(STYLES) if s != HELD_OUT_STYLE]
    groups = {"held-out fonts": (test_fonts, styles),
              "held-out style": (train_fonts, [HELD_OUT_STYLE]),
              "held-out fonts and style": (test_fonts, [HELD_OUT_STYLE])}
    out = {}
    for k, (name, (fonts, look)) in enumerate(groups.items()):
        x, y = glyph_set(range(seed + 1000 * k, seed + 1000 * k + grids), fonts, look)
        out[name] = float((model.predict(x) == y).mean()) if len(y) else float("nan")
        out[name + " glyphs"] = int(len(y))
    return out


def held_out_families(model, grids: int = 4, seed: int = 20_000) -> dict[str, float]:
    """Glyph accuracy of each held-out font family on its own, in the held-out style:
    the worst of them says more than the pooled figure, which many easy faces lift."""
    _, test_fonts = font_split()
    families: dict[str, list[str]] = {}
    for name, path in digit_fonts():
        if path in test_fonts:
            families.setdefault(font_family(name), []).append(path)
    out = {}
    for k, (family, fonts) in enumerate(sorted(families.items())):
        x, y = glyph_set(range(seed + 100 * k, seed + 100 * k + grids), fonts,
                         [HELD_OUT_STYLE])
        out[family] = float((model.predict(x) == y).mean()) if len(y) else float("nan")
    return out
