"""Elementwise arithmetic of the hlo dialect, on numpy arrays of the operands' dtype.

Contract: every result has the operand dtype and is computed in it (f16 results are f16
values; numpy rounds each f16 op once), integers wrap in their width (two's complement),
i1 `add`/`multiply`/`maximum`/`minimum` are or/and/or/and. Integer division and remainder
never trap: they follow XLA's rules (StableHLO leaves them implementation-defined).
Float maximum/minimum are IEEE-754 2019 maximum/minimum: NaN if either is NaN, and
-0.0 < +0.0. `COMBINERS` (the `kind` of reduce, reduce_window, scatter) reuse these rules.
"""

from __future__ import annotations

import numpy as np

from .registry import evaluates, is_float_dtype, unsigned_view


def maximum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """max(a, b): i1 or; floats NaN if either is NaN and max(-0.0, +0.0) = +0.0."""
    if a.dtype == np.bool_:
        return np.logical_or(a, b)
    result = np.maximum(a, b)
    if is_float_dtype(a.dtype):
        result = np.where(a == b, np.where(np.signbit(a), b, a), result)  # +0.0 beats -0.0
    return result


def minimum(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """min(a, b): i1 and; floats NaN if either is NaN and min(-0.0, +0.0) = -0.0."""
    if a.dtype == np.bool_:
        return np.logical_and(a, b)
    result = np.minimum(a, b)
    if is_float_dtype(a.dtype):
        result = np.where(a == b, np.where(np.signbit(a), a, b), result)  # -0.0 beats +0.0
    return result


def add(a, b):
    return np.logical_or(a, b) if a.dtype == np.bool_ else np.add(a, b)


def multiply(a, b):
    return np.logical_and(a, b) if a.dtype == np.bool_ else np.multiply(a, b)


# kind -> combine(acc, x): the combiners of reduce, reduce_window and scatter.
COMBINERS = {
    "add": add, "mul": multiply, "max": maximum, "min": minimum,
    "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor,
    "set": lambda old, new: new,
}


@evaluates("hlo.add")
def _add(ctx, lhs, rhs):
    """add(x, y): wraps for integers, or for i1."""
    return add(lhs, rhs)


@evaluates("hlo.subtract")
def _subtract(ctx, lhs, rhs):
    """subtract(x, y): wraps for integers."""
    return np.subtract(lhs, rhs)


@evaluates("hlo.multiply")
def _multiply(ctx, lhs, rhs):
    """multiply(x, y): wraps for integers, and for i1."""
    return multiply(lhs, rhs)


@evaluates("hlo.maximum")
def _maximum(ctx, lhs, rhs):
    """maximum(x, y): NaN if either is NaN; +0.0 > -0.0; i1 or."""
    return maximum(lhs, rhs)


@evaluates("hlo.minimum")
def _minimum(ctx, lhs, rhs):
    """minimum(x, y): NaN if either is NaN; -0.0 < +0.0; i1 and."""
    return minimum(lhs, rhs)


def _trunc_divide(lhs, rhs):
    """Integer lhs / rhs truncated toward zero, for rhs != 0 (floor division corrected)."""
    q = np.floor_divide(lhs, rhs)
    r = lhs - q * rhs
    if lhs.dtype.kind == "u":
        return q
    return np.where((r != 0) & ((lhs < 0) != (rhs < 0)), q + 1, q).astype(lhs.dtype)


@evaluates("hlo.divide")
def _divide(ctx, lhs, rhs):
    """divide(x, y): floats IEEE; integers truncate, x / 0 = -1 (all ones), INT_MIN / -1 = INT_MIN."""
    if is_float_dtype(lhs.dtype):
        return np.divide(lhs, rhs)
    dt = lhs.dtype
    by_zero = rhs == 0
    bad = by_zero
    if dt.kind == "i":
        bad = by_zero | ((lhs == np.iinfo(dt).min) & (rhs == -1))
    safe = np.where(bad, np.ones((), dt), rhs)
    q = _trunc_divide(lhs, safe)
    return np.where(by_zero, np.array(-1).astype(dt), q)


@evaluates("hlo.remainder")
def _remainder(ctx, lhs, rhs):
    """remainder(x, y): sign of x (C fmod); integers x % 0 = x, INT_MIN % -1 = 0."""
    if is_float_dtype(lhs.dtype):
        return np.fmod(lhs, rhs)
    dt = lhs.dtype
    by_zero = rhs == 0
    bad = by_zero | (rhs == -1) if dt.kind == "i" else by_zero  # x % -1 = 0 = x % 1
    safe = np.where(bad, np.ones((), dt), rhs)
    rem = lhs - _trunc_divide(lhs, safe) * safe
    return np.where(by_zero, lhs, rem)


def _integer_power(x: np.ndarray, n: np.ndarray) -> np.ndarray:
    """x ^ n by squaring, wrapping; signed n < 0 gives 0 unless |x| = 1."""
    dt = x.dtype
    signed = dt.kind == "i"
    e = unsigned_view(np.where(n < 0, np.zeros((), dt), n) if signed else n).copy()
    result = np.ones(np.broadcast_shapes(x.shape, n.shape), dt)
    base = np.broadcast_to(x, result.shape).copy()
    while np.any(e):
        result = np.where((e & 1).astype(bool), result * base, result)
        base = base * base
        e = e >> np.ones((), e.dtype)
    if signed:
        one = np.ones((), dt)
        odd = (n & one).astype(bool)
        negative = np.where(x == one, one, np.where(x == -one, np.where(odd, -one, one), np.zeros((), dt)))
        result = np.where(n < 0, negative, result)
    return result.astype(dt)


@evaluates("hlo.power")
def _power(ctx, lhs, rhs):
    """power(x, n): floats pow(); integers by squaring (wrapping), x ^ (n < 0) = 0 unless |x| = 1."""
    if is_float_dtype(lhs.dtype):
        return np.power(lhs, rhs)
    return _integer_power(lhs, rhs)


@evaluates("hlo.atan2")
def _atan2(ctx, lhs, rhs):
    """atan2(y, x): the angle of (x, y) in [-pi, pi]."""
    return np.arctan2(lhs, rhs)


@evaluates("hlo.negate")
def _negate(ctx, x):
    """negate(x): -x; integers wrap (-INT_MIN = INT_MIN), unsigned 0 - x."""
    return np.subtract(np.zeros((), x.dtype), x) if x.dtype.kind in "iu" else np.negative(x)


@evaluates("hlo.abs")
def _abs(ctx, x):
    """abs(x): |x|; abs(INT_MIN) = INT_MIN; unsigned unchanged; abs(-0.0) = +0.0."""
    return x.copy() if x.dtype.kind == "u" else np.abs(x)


@evaluates("hlo.sign")
def _sign(ctx, x):
    """sign(x): -1, 0, 1; floats keep -0.0, +0.0 and NaN; unsigned x != 0."""
    one = np.ones((), x.dtype)
    if x.dtype.kind == "u":
        return (x != 0).astype(x.dtype)
    minus_one = np.negative(one) if is_float_dtype(x.dtype) else np.array(-1).astype(x.dtype)
    zero_or_x = x if is_float_dtype(x.dtype) else np.zeros((), x.dtype)
    return np.where(x > 0, one, np.where(x < 0, minus_one, zero_or_x))


@evaluates("hlo.round_nearest_afz")
def _round_afz(ctx, x):
    """round_nearest_afz(x): nearest integral value, ties away from zero (-0.5 -> -1, -0.3 -> -0.0)."""
    t = np.trunc(x)
    away = np.abs(x - t) >= np.array(0.5, x.dtype)
    return np.where(away, t + np.copysign(np.ones((), x.dtype), x), t)


# Float functions that are one numpy ufunc each (computed in the operand's dtype).
_UFUNCS = {
    "floor": (np.floor, "largest integral value <= x"),
    "ceil": (np.ceil, "smallest integral value >= x"),
    "round_nearest_even": (np.rint, "nearest integral value, ties to even"),
    "exponential": (np.exp, "e^x"),
    "exponential_minus_one": (np.expm1, "e^x - 1"),
    "log": (np.log, "ln x; log(0) = -inf, log(x < 0) = NaN"),
    "log_plus_one": (np.log1p, "ln(1 + x)"),
    "tanh": (np.tanh, "tanh x"),
    "sqrt": (np.sqrt, "sqrt x; sqrt(-0.0) = -0.0, sqrt(x < 0) = NaN"),
    "cbrt": (np.cbrt, "cube root"),
    "sine": (np.sin, "sin x"),
    "cosine": (np.cos, "cos x"),
    "tan": (np.tan, "tan x"),
}


def _ufunc_evaluator(fn, rule):
    def evaluate(ctx, x):
        return fn(x)
    evaluate.__doc__ = rule
    return evaluate


for _name, (_fn, _rule) in _UFUNCS.items():
    evaluates(f"hlo.{_name}")(_ufunc_evaluator(_fn, f"{_name}(x): {_rule}"))


@evaluates("hlo.rsqrt")
def _rsqrt(ctx, x):
    """rsqrt(x): 1 / sqrt(x), rounded twice in x's dtype; rsqrt(0) = inf, rsqrt(-0.0) = -inf."""
    return np.divide(np.ones((), x.dtype), np.sqrt(x))


@evaluates("hlo.logistic")
def _logistic(ctx, x):
    """logistic(x): 1 / (1 + e^-x) in x's dtype."""
    one = np.ones((), x.dtype)
    return np.divide(one, np.add(one, np.exp(np.negative(x))))


@evaluates("hlo.is_finite")
def _is_finite(ctx, x):
    """is_finite(x): false for +-inf and NaN."""
    return np.isfinite(x)
