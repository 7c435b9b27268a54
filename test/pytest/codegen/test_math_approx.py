"""mlc-math-approx: f32 exp/log/tanh/logistic polynomials against numpy's float64 result
rounded to f32, over random bit patterns (every exponent), a dense sweep of [-20, 20] and the
special values; f16 over every value. The ulp bounds asserted here are the ones documented
in mlc/codegen/math_approx.py."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.nn as nn
import mlc.numpy as mnp
from mlc.codegen.target import vector_register_bits
from mlc.codegen.vector_math import native_bits, variant_name

# Every test generates code for 256- and 512-bit registers (conftest.vector_bits).
pytestmark = pytest.mark.usefixtures("vector_bits")

RNG = np.random.default_rng(0)
SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 2.0, 88.72, 88.73, 89.0,
                     -87.3, -103.9, -104.0, -200.0, 1e-45, -1e-45, 1.17e-38, 3.4e38, -3.4e38,
                     0.62, 0.625, 0.63, -0.625, 0.55, 0.5499999, -0.55, 9.0, -9.0, 9.01, 9.5, -9.5,
                     -87.3, -87.6, -87.7, -88.0, -88.72, 17.0, 17.5], np.float32)
# A vector length's worth of odd sizes: every element goes through full and masked vectors.
X = np.concatenate([
    RNG.integers(0, 2**32, 400_003, dtype=np.uint64).astype(np.uint32).view(np.float32),
    SPECIALS,
    np.linspace(-120, 120, 20_001, dtype=np.float32),
])
# Every 1021st float of [-20, 20] (over 2 million, every binade down to the subnormals).
_POSITIVE = np.arange(0, np.float32(20).view(np.int32) + 1, 1021, dtype=np.int32).view(np.float32)
SWEEP = np.concatenate([_POSITIVE, -_POSITIVE])
SMALLEST_NORMAL = np.finfo(np.float32).tiny


def logistic64(x):
    return 1 / (1 + np.exp(-x))


def ulp_distance(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Distance in units in the last place between two f32 arrays; NaN == NaN."""
    def ordered(a):
        i = a.view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)
    d = np.abs(ordered(got) - ordered(want))
    d[(got == want) | (np.isnan(got) & np.isnan(want))] = 0
    d[np.isnan(got) != np.isnan(want)] = 1 << 40
    return d


APPROXIMATIONS = [
    (mnp.exp, np.exp, 1),
    (mnp.log, np.log, 1),
    (mnp.tanh, np.tanh, 2),
    (nn.sigmoid, logistic64, 2),
]
IDS = ["exp", "log", "tanh", "logistic"]


def _check(fn, reference, max_ulp, x):
    compiled = mlc.jit(fn).lower(x).compile()
    codegen = compiled.as_text("codegen")
    assert "math.exp" not in codegen and "math.tanh" not in codegen, "the approximation did not run"
    got = compiled(x)
    with np.errstate(all="ignore"):
        want = reference(x.astype(np.float64)).astype(np.float32)
    d = ulp_distance(got, want)
    if fn is nn.sigmoid:
        # Subnormal results (x < -87.33) are approximate, 0 where e^-|x| is below 2^-126.5
        # (x < -87.68): within the smallest normal of the answer, never negative.
        tiny = np.abs(want) < SMALLEST_NORMAL
        assert np.all(np.abs(got[tiny] - want[tiny]) < SMALLEST_NORMAL) and np.all(got[tiny] >= 0)
        d[tiny] = 0
    worst = int(np.argmax(d))
    assert d.max() <= max_ulp, f"x={x[worst]!r}: got {got[worst]!r}, want {want[worst]!r}"


@pytest.mark.parametrize("fn, reference, max_ulp", APPROXIMATIONS, ids=IDS)
def test_f32_approximation_error(fn, reference, max_ulp):
    _check(fn, reference, max_ulp, X)


@pytest.mark.parametrize("fn, reference, max_ulp", APPROXIMATIONS, ids=IDS)
def test_f32_dense_sweep(fn, reference, max_ulp):
    """Every 1021st float of [-20, 20]: each branch (the tanh polynomial below 0.55, the
    exp formula above) and every reduction interval of the exp, tens of thousands of
    times."""
    _check(fn, reference, max_ulp, np.abs(SWEEP) if fn is mnp.log else SWEEP)


@pytest.mark.parametrize("fn, reference", [(mnp.exp, np.exp), (mnp.log, np.log), (mnp.tanh, np.tanh),
                                           (nn.sigmoid, logistic64)], ids=IDS)
@pytest.mark.parametrize("dtype", [np.float16])
def test_narrow_floats_in_f32(fn, reference, dtype):
    """f16 through the f32 approximation, over every f16 value: at most 1 ulp from the
    float64 result rounded to f16 (the f32 result's error is far below an f16 ulp; the
    one rounding to f16 can land on the other side of a tie)."""
    x = np.arange(2**16, dtype=np.uint16).view(dtype)
    compiled = mlc.jit(fn).lower(x).compile()
    codegen = compiled.as_text("codegen")
    assert "math.exp" not in codegen and "math.tanh" not in codegen and "math.log " not in codegen
    got = compiled(x)
    with np.errstate(all="ignore"):
        want = reference(x.astype(np.float64)).astype(dtype)
    assert got.dtype == dtype
    with np.errstate(all="ignore"):
        ulp = np.spacing(np.abs(want).astype(dtype)).astype(np.float64)
        d = np.abs(got.astype(np.float64) - want) / ulp
    d[(got == want) | (np.isnan(got) & np.isnan(want))] = 0
    worst = int(np.nanargmax(d))
    assert np.array_equal(np.isnan(got), np.isnan(want))
    assert np.nanmax(d) <= 1, (x[worst], got[worst], want[worst])
    assert np.array_equal(np.signbit(got[got == 0]), np.signbit(want[got == 0]))


def _pow_reference(x, y):
    """C99 powf's cases (numpy's float32 power) with the float64 result rounded to f32."""
    with np.errstate(all="ignore"):
        return np.power(x.astype(np.float64), y.astype(np.float64)).astype(np.float32)


def _check_pow(x, y, max_ulp=1):
    compiled = mlc.jit(mnp.power).lower(x, y).compile()
    assert "__mlc_powf" in compiled.as_text("codegen") and "powf" not in compiled.as_text("llvm").replace(
        "__mlc_powf", ""), "the approximation did not run"
    got = compiled(x, y)
    want = _pow_reference(x, y)
    d = ulp_distance(got, want)
    worst = int(np.argmax(d))
    assert d.max() <= max_ulp, f"{x[worst]!r} ** {y[worst]!r}: got {got[worst]!r}, want {want[worst]!r}"
    zeros = want == 0
    assert np.array_equal(np.signbit(got[zeros]), np.signbit(want[zeros]))


def test_pow_f32_error():
    """x ** y within 1 ulp of the float64 result: |x| over every exponent (subnormals too)
    with y in [-12, 12], results over and under f32's range, and x near 1 with big y."""
    rng = np.random.default_rng(3)
    n = 200_003
    x = np.abs(rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32).view(np.float32))
    x = np.where(np.isfinite(x), x, np.float32(2.5))
    y = rng.uniform(-12, 12, n).astype(np.float32)
    near_one = (1 + rng.uniform(-1e-3, 1e-3, 20_000)).astype(np.float32)
    big_y = rng.uniform(-3e4, 3e4, 20_000).astype(np.float32)
    _check_pow(np.concatenate([x, near_one, x[:20_000]]),
               np.concatenate([y, big_y, np.round(y[:20_000])]))


def test_pow_f32_special_values():
    """Every pair of C99's special operands: y = 0 or x = 1 give 1 even with a NaN, a
    negative x with a non-integer y is NaN, odd integer powers keep the sign (-0.0 too),
    zeros and infinities to positive and negative powers, |x| = 1 to +-inf."""
    values = np.array([0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5, 3.0, -3.0, 2.5, -2.5, np.inf, -np.inf,
                       np.nan, 1e-30, -1e-30, 3e38, 1e-45, 2.0 ** 24, 2.0 ** 24 + 2, 2.0 ** 31, 0.75],
                      np.float32)
    a, b = np.meshgrid(values, values)
    _check_pow(a.ravel(), b.ravel())
    got = mlc.jit(mnp.power)(a.ravel(), b.ravel())
    want = _pow_reference(a.ravel(), b.ravel())
    exact = ~np.isfinite(want) | (want == 0) | (np.abs(want) == 1)
    assert np.array_equal(got[exact], want[exact], equal_nan=True)


def test_pow_narrow_floats_in_f32():
    """f16 ** f16 through the f32 helper: within 1 ulp of the float64 result rounded to f16."""
    rng = np.random.default_rng(4)
    x = np.abs(rng.standard_normal(4099) * 4).astype(np.float16)
    y = rng.uniform(-4, 4, 4099).astype(np.float16)
    got = mlc.jit(mnp.power)(x, y)
    with np.errstate(all="ignore"):
        want = np.power(x.astype(np.float64), y.astype(np.float64)).astype(np.float16)
    assert got.dtype == np.float16
    finite = np.isfinite(want) & (want != 0)
    ulp = np.spacing(np.abs(want[finite])).astype(np.float64)
    assert np.max(np.abs(got[finite].astype(np.float64) - want[finite]) / ulp) <= 1
    assert np.array_equal(got[~finite], want[~finite], equal_nan=True)


@pytest.mark.parametrize("x, want", [(np.inf, np.inf), (-np.inf, 0.0), (100.0, np.inf), (-110.0, 0.0)])
def test_exp_saturates(x, want):
    assert mlc.jit(mnp.exp)(np.array([x], np.float32))[0] == want


@pytest.mark.parametrize("x, want", [(0.0, -np.inf), (-0.0, -np.inf), (np.inf, np.inf)])
def test_log_edges(x, want):
    assert mlc.jit(mnp.log)(np.array([x], np.float32))[0] == want


def test_log_of_negative_is_nan():
    assert np.isnan(mlc.jit(mnp.log)(np.array([-1.0, -np.inf, np.nan], np.float32))).all()


def test_tanh_keeps_negative_zero():
    y = mlc.jit(mnp.tanh)(np.array([-0.0], np.float32))
    assert y[0] == 0 and np.signbit(y[0])


def test_tanh_edges():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 9.0, -9.0, 9.5, 1e30, -1e30, 1e-30, -1e-45],
                 np.float32)
    y = mlc.jit(mnp.tanh)(x)
    np.testing.assert_array_equal(np.signbit(y[:2]), [False, True])
    np.testing.assert_array_equal(y[2:4], [1.0, -1.0])
    assert np.isnan(y[4])
    # tanh(9) = 1 - 3.05e-8 rounds to the float below 1; from 9.01 on it rounds to 1.
    below_one = np.float32(np.tanh(9.0))
    np.testing.assert_array_equal(y[5:10], [below_one, -below_one, 1.0, 1.0, -1.0])
    np.testing.assert_array_equal(y[10:], x[10:])  # tiny and subnormal x: x itself


def test_logistic_edges():
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 17.0, 20.0, 100.0, -100.0, -87.0, -88.0, 1e-30],
                 np.float32)
    y = mlc.jit(nn.sigmoid)(x)
    np.testing.assert_array_equal(y[[0, 1, 2, 3]], [0.5, 0.5, 1.0, 0.0])
    assert np.isnan(y[4])
    assert ulp_distance(y[5:6], np.array([logistic64(17.0)], np.float32))[0] <= 2 and y[6] == y[7] == 1.0
    assert y[8] == 0.0 and y[10] == 0.0  # below e^-87.68: 0, not a subnormal
    assert ulp_distance(y[9:10], np.array([logistic64(-87.0)], np.float32))[0] <= 2
    assert y[11] == 0.5


@pytest.mark.parametrize("fn, reference, base", [(mnp.sin, np.sin, "sinf"), (mnp.cos, np.cos, "cosf")],
                         ids=["sin", "cos"])
def test_f32_sin_cos_through_libmvec(fn, reference, base):
    """Full range (random bit patterns up to 3.4e38, NaN, inf): glibc's vector functions,
    documented at 4 ulp at most (2 measured here)."""
    compiled = mlc.jit(fn).lower(X).compile()
    # The variant is the target width capped at what this host executes (an AVX-512 call
    # on an AVX2 host would be an illegal instruction).
    bits = min(vector_register_bits(), native_bits())
    name = variant_name(base, bits, bits // 32)
    assert name in compiled.as_text("codegen"), f"libmvec's {name} was not used"
    got = compiled(X)
    with np.errstate(all="ignore"):
        want = reference(X.astype(np.float64)).astype(np.float32)
    assert ulp_distance(got, want).max() <= 4


@pytest.mark.parametrize("fn, reference", [(mnp.sin, np.sin), (mnp.cos, np.cos), (mnp.exp, np.exp),
                                           (mnp.log, np.log)], ids=["sin", "cos", "exp", "log"])
def test_f64_vector_math(fn, reference):
    rng = np.random.default_rng(4)
    x = np.concatenate([rng.standard_normal(20_000) * 10.0 ** rng.integers(-300, 300, 20_000),
                        [0.0, -0.0, np.inf, -np.inf, np.nan, 709.7, 710.0, -745.0, 1e-310]])
    with np.errstate(all="ignore"):
        got, want = mlc.jit(fn)(x), reference(x)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    finite = np.isfinite(want) & (want != 0)
    np.testing.assert_allclose(got[finite], want[finite], rtol=1e-15)
    np.testing.assert_array_equal(got[~finite & ~np.isnan(want)], want[~finite & ~np.isnan(want)])


def _f64_ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """ulp distance between f64 arrays (NaN == NaN; a NaN against a number: huge)."""
    def ordered(a):  # (int64: a float64 would round large bit patterns to 512-ulp steps)
        i = a.view(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFFFFFFFFFF), i)
    with np.errstate(over="ignore"):
        d = np.abs(ordered(got) - ordered(want)).astype(np.float64)
    d[(got == want) | (np.isnan(got) & np.isnan(want))] = 0
    d[np.isnan(got) != np.isnan(want)] = 2.0 ** 60
    return d


_BINARY_SPECIALS = [0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, np.inf, -np.inf, np.nan, 1e-30, 3e38]


@pytest.mark.parametrize("name, fn, reference, base", [
    ("atan2", mnp.arctan2, np.arctan2, "atan2"), ("pow", mnp.power, np.power, "pow"),
    ("tan", mnp.tan, np.tan, "tan"), ("cbrt", mnp.cbrt, np.cbrt, "cbrt")])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_libmvec_functions(name, fn, reference, base, dtype):
    """tan, cbrt, atan2 and pow on vectors: glibc's vector variants where the loaded libmvec
    has them (glibc 2.35 for all but pow), else libm lane by lane. Either way within 4 ulp of
    numpy's (float64) result, on random magnitudes and every pair of special values (C99's
    cases: atan2 of zeros and infinities, pow of -1, 1, 0, NaN and infinities)."""
    from mlc.runtime.libraries import has_libmvec_function
    rng = np.random.default_rng(7)
    n = 4096
    scale = 30.0 if dtype == np.float32 else 300.0
    x = (rng.standard_normal(n) * 10.0 ** rng.uniform(-scale, scale * 0.1, n)).astype(dtype)
    specials = np.array(_BINARY_SPECIALS, dtype)
    a, b = np.meshgrid(specials, specials)
    args = (np.concatenate([x, a.ravel()]),) if name in ("tan", "cbrt") else \
        (np.concatenate([x, a.ravel()]), np.concatenate([rng.uniform(-4, 4, n).astype(dtype), b.ravel()]))
    if name == "pow":
        args = (np.abs(args[0][:n]).tolist() + a.ravel().tolist(), args[1])
        args = (np.array(args[0], dtype), args[1])
    compiled = mlc.jit(fn).lower(*args).compile()
    bits = min(vector_register_bits(), native_bits())
    width = 32 if dtype == np.float32 else 64
    variant = variant_name(base + ("f" if width == 32 else ""), bits, bits // width, len(args))
    if name == "pow" and dtype == np.float32:  # mlc-math-approx's own (test_pow_f32_error)
        assert "__mlc_powf" in compiled.as_text("codegen")
    elif has_libmvec_function(variant):
        assert variant in compiled.as_text("codegen")
    with np.errstate(all="ignore"):
        want = reference(*[v.astype(np.float64) for v in args]).astype(dtype)
        got = np.asarray(compiled(*args))
    ulps = ulp_distance(got, want) if dtype == np.float32 else _f64_ulps(got, want)
    assert ulps.max() <= 4, (ulps.max(), [v[np.argmax(ulps)] for v in args])
