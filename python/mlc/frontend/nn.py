"""mlc.nn: the activation and normalization functions of jax.nn, on mlc.numpy."""

from __future__ import annotations

import math as _math

from . import math as m
from . import reductions as r
from .core import asarray, astype, to_float
from .shapes import expand_dims


def relu(x):
    """max(x, 0); its derivative at 0 is 0, as jax.nn.relu's (a custom JVP: maximum's own
    rule would split the tie and give 0.5)."""
    return _relu_rule()(asarray(x))


_RELU = []


def _relu_rule():
    # Built on first use: mlc.autodiff imports the frontend.
    if not _RELU:
        from ..autodiff.custom import custom_jvp

        @custom_jvp
        def relu(x):
            return m.maximum(x, 0)

        @relu.defjvp
        def relu_jvp(primals, tangents):
            (x,), (t,) = primals, tangents
            return relu(x), m.where(m.greater(x, 0), t, 0)
        _RELU.append(relu)
    return _RELU[0]


def sigmoid(x):
    return m.sigmoid(x)


def silu(x):
    x = to_float(asarray(x))
    return m.multiply(x, m.sigmoid(x))


def gelu(x, approximate: bool = True):
    """tanh approximation (jax.nn.gelu's default) or the exact erf form."""
    x = to_float(asarray(x))
    if approximate:
        inner = m.multiply(_math.sqrt(2 / _math.pi), m.add(x, m.multiply(0.044715, m.multiply(x, m.multiply(x, x)))))
        return m.multiply(m.multiply(0.5, x), m.add(1.0, m.tanh(inner)))
    return m.multiply(m.multiply(0.5, x), m.add(1.0, erf(m.multiply(x, 1 / _math.sqrt(2)))))


def erf(x):
    """erf by Abramowitz-Stegun 7.1.26 (max abs error 1.5e-7), with the sign restored."""
    x = to_float(asarray(x))
    a = m.abs(x)
    t = m.reciprocal(m.add(1.0, m.multiply(0.3275911, a)))
    poly = m.multiply(t, m.add(0.254829592, m.multiply(t, m.add(-0.284496736, m.multiply(
        t, m.add(1.421413741, m.multiply(t, m.add(-1.453152027, m.multiply(t, 1.061405429)))))))))
    y = m.subtract(1.0, m.multiply(poly, m.exp(m.negative(m.multiply(a, a)))))
    return m.multiply(m.sign(x), y)


def logsumexp(x, axis=None, keepdims=False):
    x = to_float(asarray(x))
    peak = r.max(x, axis=axis, keepdims=True)
    finite_peak = m.where(m.isfinite(peak), peak, 0.0)
    total = r.sum(m.exp(m.subtract(x, finite_peak)), axis=axis, keepdims=True)
    out = m.add(m.log(total), finite_peak)
    if not keepdims:
        from .shapes import squeeze
        from .reductions import normalize_axes
        out = squeeze(out, normalize_axes(axis, x.ndim))
    return out


def softmax(x, axis=-1):
    x = to_float(asarray(x))
    shifted = m.subtract(x, r.max(x, axis=axis, keepdims=True))
    e = m.exp(shifted)
    return m.true_divide(e, r.sum(e, axis=axis, keepdims=True))


def log_softmax(x, axis=-1):
    x = to_float(asarray(x))
    shifted = m.subtract(x, r.max(x, axis=axis, keepdims=True))
    return m.subtract(shifted, m.log(r.sum(m.exp(shifted), axis=axis, keepdims=True)))


def one_hot(x, num_classes: int, dtype=None, axis=-1):
    from .creation import arange
    from .core import DEFAULT_FLOAT
    x = asarray(x)
    classes = arange(num_classes)
    hits = m.equal(expand_dims(x, axis), expand_dims(classes, tuple(range(x.ndim))) if x.ndim else classes)
    return astype(hits, dtype or DEFAULT_FLOAT)


def layer_norm(x, scale=None, bias=None, axis=-1, epsilon: float = 1e-5):
    """(x - mean) / sqrt(var + epsilon) over `axis`, then * scale + bias."""
    x = to_float(asarray(x))
    mean = r.mean(x, axis=axis, keepdims=True)
    centered = m.subtract(x, mean)
    var = r.mean(m.multiply(centered, centered), axis=axis, keepdims=True)
    out = m.multiply(centered, m.rsqrt(m.add(var, epsilon)))
    if scale is not None:
        out = m.multiply(out, scale)
    if bias is not None:
        out = m.add(out, bias)
    return out
