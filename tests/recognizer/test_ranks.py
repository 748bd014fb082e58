"""ranks.py gives numpy's median and percentiles to the bit."""

import numpy as np

from services.recognizer.ranks import grey_counts, grey_ranked, ranked


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


def test_grey_ranked_is_numpys_on_whole_pictures_to_the_bit():
    rng = np.random.default_rng(9)
    for trial in range(300):
        shape = (int(rng.integers(1, 60)), int(rng.integers(1, 60)))
        gray = rng.integers(0, 256, shape).astype(np.uint8)
        if trial % 2:  # few levels, as a screenshot's flat paper and one ink
            gray = np.where(rng.random(shape) < 0.9, 240, rng.integers(0, 256, shape)
                            ).astype(np.uint8)
        percents = (0.5, 1, 50, 90, 99, float(rng.random() * 100))
        found = grey_ranked(gray, percents, median=True)
        assert found[:-1] == [np.percentile(gray, q) for q in percents]
        assert found[-1] == np.median(gray)
        assert all(type(v) is np.float64 for v in found)


def test_grey_counts_are_numpys_count():
    rng = np.random.default_rng(10)
    for shape in ((1, 1), (7, 300), (480, 640)):
        gray = rng.integers(0, 256, shape).astype(np.uint8)
        assert np.array_equal(grey_counts(gray), np.bincount(gray.ravel(), minlength=256))
    view = rng.integers(0, 256, (50, 80)).astype(np.uint8)[::2, 3:70]  # not contiguous
    assert np.array_equal(grey_counts(view), np.bincount(view.ravel(), minlength=256))
