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
    from .reductions import normalize_axes
    from .shapes import reshape
    x = asarray(x)
    (ax,) = normalize_axes(axis, x.ndim + 1)
    shape = [1] * (x.ndim + 1)
    shape[ax] = int(num_classes)
    classes = reshape(arange(num_classes, dtype=x.dtype if x.dtype.kind in "iuf" else None), shape)
    hits = m.equal(expand_dims(x, ax), classes)
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


# --- jax.nn's other activations --------------------------------------------------------------

def _k(value, like):
    """A Python number as a constant of like's dtype (a weakly typed Python float becomes a
    float32 constant first, too coarse for float64 inputs); arrays as they are."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        import numpy as np
        from .core import constant
        return constant(np.asarray(value, like.dtype))
    return value


def softplus(x):
    """log(1 + e^x) = logaddexp(x, 0)."""
    from .transcendental import logaddexp
    return logaddexp(to_float(asarray(x)), 0.0)


def log_sigmoid(x):
    """log(sigmoid(x)) = -softplus(-x)."""
    return m.negative(softplus(m.negative(to_float(asarray(x)))))


def leaky_relu(x, negative_slope=1e-2):
    x = to_float(asarray(x))
    return m.where(m.greater_equal(x, 0), x, m.multiply(_k(negative_slope, x), x))


def elu(x, alpha=1.0):
    """x if x > 0 else alpha (e^x - 1); the expm1 sees only x <= 0 (no overflow in its gradient)."""
    x = to_float(asarray(x))
    safe = m.where(m.greater(x, 0), 0.0, x)
    return m.where(m.greater(x, 0), x, m.multiply(_k(alpha, x), m.expm1(safe)))


def celu(x, alpha=1.0):
    """max(x, 0) + alpha (e^{min(x, 0) / alpha} - 1)."""
    x = to_float(asarray(x))
    alpha = _k(alpha, x)
    return m.add(m.maximum(x, 0.0), m.multiply(alpha, m.expm1(m.true_divide(m.minimum(x, 0.0), alpha))))


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(x):
    from .core import constant
    import numpy as np
    x = to_float(asarray(x))
    alpha, scale = (constant(np.asarray(v, x.dtype)) for v in (_SELU_ALPHA, _SELU_SCALE))
    return m.multiply(scale, elu(x, alpha))


def glu(x, axis=-1):
    """a * sigmoid(b), a and b the two halves of x along axis."""
    from .shapes import split
    x = to_float(asarray(x))
    from .reductions import normalize_axes
    (ax,) = normalize_axes(axis, x.ndim)
    if x.shape[ax] % 2:
        raise ValueError(f"glu: axis {axis} of shape {x.shape} must have an even size")
    a, b = split(x, 2, ax)
    return m.multiply(a, m.sigmoid(b))


swish = silu


def _clipped_rule(key, lo, hi):
    """min(max(x, lo), hi) whose derivative is 1 strictly inside (lo, hi) and 0 elsewhere
    (JAX's relu6: the boundaries get 0, not maximum's split 0.5)."""
    if key not in _CLIPPED:
        from ..autodiff.custom import custom_jvp

        @custom_jvp
        def clipped(x):
            return m.minimum(m.maximum(x, lo), hi)

        @clipped.defjvp
        def clipped_jvp(primals, tangents):
            (x,), (t,) = primals, tangents
            inside = m.logical_and(m.greater(x, lo), m.less(x, hi))
            return clipped(x), m.where(inside, t, 0.0)
        _CLIPPED[key] = clipped
    return _CLIPPED[key]


_CLIPPED: dict = {}


def relu6(x):
    return _clipped_rule("relu6", 0.0, 6.0)(to_float(asarray(x)))


def hard_sigmoid(x):
    """relu6(x + 3) / 6."""
    return m.true_divide(relu6(m.add(to_float(asarray(x)), 3.0)), 6.0)


def hard_silu(x):
    x = to_float(asarray(x))
    return m.multiply(x, hard_sigmoid(x))


hard_swish = hard_silu


def hard_tanh(x):
    """-1 below -1, 1 above 1, x between (derivative 1 at the ends, as JAX's where form)."""
    x = to_float(asarray(x))
    return m.where(m.greater(x, 1.0), 1.0, m.where(m.less(x, -1.0), -1.0, x))


def soft_sign(x):
    """x / (|x| + 1)."""
    x = to_float(asarray(x))
    return m.true_divide(x, m.add(m.abs(x), 1.0))


softsign = soft_sign


def squareplus(x, b=4):
    """(x + sqrt(x^2 + b)) / 2."""
    x = to_float(asarray(x))
    return m.multiply(m.add(x, m.sqrt(m.add(m.multiply(x, x), _k(b, x)))), 0.5)


def mish(x):
    """x tanh(softplus(x))."""
    x = to_float(asarray(x))
    return m.multiply(x, m.tanh(softplus(x)))


def standardize(x, axis=-1, mean=None, variance=None, epsilon=1e-5, where=None):
    """(x - mean) / sqrt(variance + epsilon), with JAX's variance = mean(x^2) - mean^2."""
    if where is not None:
        raise NotImplementedError("standardize(where=...) is not supported")
    x = to_float(asarray(x))
    if mean is None:
        mean = r.mean(x, axis=axis, keepdims=True)
    if variance is None:
        variance = m.subtract(r.mean(m.multiply(x, x), axis=axis, keepdims=True), m.multiply(mean, mean))
    return m.multiply(m.subtract(x, mean), m.rsqrt(m.add(variance, _k(epsilon, x))))
