"""scikit-learn's StandardScaler and MLPClassifier predictions, worked out step for step
as scikit-learn works them out but without its checks of every input. The sum reader
asks its small networks several hundred times a picture, a few rows at a time, where
those checks cost several times the arithmetic. tests/recognizer/test_networks.py
compares both to the bit.
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit
from sklearn.preprocessing import StandardScaler

# The dtypes StandardScaler keeps as they are; any other input is taken as float64.
_KEPT_FLOATS = (np.float64, np.float32, np.float16)


def scaled(scaler, x: np.ndarray) -> np.ndarray:
    """scaler.transform(x) of a dense 2-D array, as a new array (another kind of scaler
    is asked itself)."""
    if type(scaler) is not StandardScaler:
        return scaler.transform(x)
    x = np.asarray(x)
    dtype = x.dtype if x.dtype.type in _KEPT_FLOATS else np.float64
    out = np.array(x, dtype=dtype, copy=True)
    if scaler.with_mean:
        out -= scaler.mean_.astype(dtype)
    if scaler.with_std:
        out /= scaler.scale_.astype(dtype)
    return out


def logits(network, x: np.ndarray) -> np.ndarray:
    """The output layer's scores (before its softmax or logistic) of a ReLU network for
    rows `x` already scaled, as scikit-learn's forward pass works them out."""
    activation = x
    last = len(network.coefs_) - 1
    for i, (weights, bias) in enumerate(zip(network.coefs_, network.intercepts_, strict=True)):
        activation = activation @ weights
        activation += bias
        if i != last:
            np.maximum(activation, 0, out=activation)
    return activation


def network_proba(network, x: np.ndarray) -> np.ndarray:
    """network.predict_proba(x) of a dense 2-D float array. A network of another
    activation than ReLU, or another output than softmax or logistic, is asked itself."""
    if network.activation != "relu" or network.out_activation_ not in ("softmax", "logistic"):
        return network.predict_proba(x)
    activation = logits(network, x)
    if network.out_activation_ == "logistic":
        expit(activation, out=activation)
    else:
        shifted = activation - activation.max(axis=1)[:, np.newaxis]
        np.exp(shifted, out=activation)
        activation /= activation.sum(axis=1)[:, np.newaxis]
    if network.n_outputs_ == 1:
        activation = activation.ravel()
    if activation.ndim == 1:
        return np.vstack([1 - activation, activation]).T
    return activation
