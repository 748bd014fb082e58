"""Every shipped model is loaded before a worker's first picture."""

from __future__ import annotations

from celery.signals import worker_process_init

from services.recognizer.cells import classifier, orientation, symbols
from services.recognizer.cells import kinds as cell_kinds
from services.recognizer.killer import sums
from services.recognizer.shipped_models import MODELS_DIR, load_shipped_models

CACHED_LOADERS = (classifier.load_model, classifier.load_soft_model,
                  orientation.load_orientation_model,
                  cell_kinds.load_kind_model, sums.load_killer_model, symbols.load_symbol_model)


def test_every_model_file_is_loaded():
    loaded = load_shipped_models()
    assert set(loaded) == {path.name for path in MODELS_DIR.glob("*.joblib")}
    assert all(model is not None for model in loaded.values())
    # Loaded once: a second call hands back the very same objects.
    again = load_shipped_models()
    assert all(again[name] is loaded[name] for name in loaded)


def test_a_recognizer_pool_process_loads_them_as_it_starts():
    import services.recognizer.tasks  # noqa: F401  (connects the worker's start hook)

    for loader in CACHED_LOADERS:
        loader.cache_clear()
    worker_process_init.send(sender=None)
    assert all(loader.cache_info().currsize >= 1 for loader in CACHED_LOADERS)
