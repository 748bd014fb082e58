"""Every model the recognizer ships, loaded at once.

Each loader caches its model, so a worker that calls `load_shipped_models` as it starts
reads its first picture as fast as its later ones: loading the models from disk took
about 1.4 s, which the first picture after a start used to pay.
"""

from __future__ import annotations

from pathlib import Path

from services.recognizer.cells import classifier, orientation, symbols
from services.recognizer.cells import kinds as cell_kinds
from services.recognizer.killer import sums
from services.recognizer.nonogram import clues as nonogram

MODELS_DIR = Path(__file__).parent / "models"


def load_shipped_models() -> dict[str, object]:
    """{model file name: the loaded model} of every model in MODELS_DIR."""
    return {
        classifier.MODEL_PATH.name: classifier.load_model(),
        classifier.SOFT_MODEL_PATH.name: classifier.load_soft_model(),
        orientation.MODEL_PATH.name: orientation.load_orientation_model(),
        cell_kinds.MODEL_PATH.name: cell_kinds.load_kind_model(),
        cell_kinds.SCREEN_MODEL_PATH.name: cell_kinds.load_kind_model(
            cell_kinds.SCREEN_MODEL_PATH),
        sums.MODEL_PATH.name: sums.load_killer_model(),
        symbols.SYMBOL_MODEL_PATH.name: symbols.load_symbol_model(),
        nonogram.CLUE_MODEL_PATH.name: nonogram.clue_model(),
    }
