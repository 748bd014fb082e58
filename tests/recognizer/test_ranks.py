"""cells/ranks.py gives numpy's median and percentiles to the bit."""

import numpy as np

from services.recognizer.cells.ranks import column_medians, ranked


def test_ranked_is_numpys_median_and_percentiles_to_the_bit():
    rng = np.random.default_rng(7)
    for trial in range(3000):
        n = int(rng.integers(1, 700))
        values = (rng.random(n) * rng.random()).astype(np.float32)
        if trial % 3 == 0:  # ties, as a picture's grey levels have
            values = np.round(values * 20) / 20
        p90, p30, median = ranked(values, (90, 30), median=True)
        assert p90 == np.percentile(values, 90)
        assert p30 == np.percentile(values, 30)
        assert median == np.median(values)


def test_column_medians_are_numpys_to_the_bit():
    rng = np.random.default_rng(8)
    for _ in range(500):
        values = rng.random((int(rng.integers(1, 400)), 3)).astype(np.float32)
        assert np.array_equal(column_medians(values), np.median(values, axis=0))
