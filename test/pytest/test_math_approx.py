"""mlc-math-approx: f32 exp/log/tanh polynomials against numpy's float64 result rounded to
f32, over random bit patterns (every exponent), a dense sweep and the special values.
The ulp bounds asserted here are the ones documented in mlc/codegen/math_approx.py."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp
from mlc.codegen.target import vector_register_bits
from mlc.codegen.vector_math import native_bits, variant_name

# Every test generates code for 256- and 512-bit registers (conftest.vector_bits).
pytestmark = pytest.mark.usefixtures("vector_bits")

RNG = np.random.default_rng(0)
SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 2.0, 88.72, 88.73, 89.0,
                     -87.3, -103.9, -104.0, -200.0, 1e-45, -1e-45, 1.17e-38, 3.4e38, -3.4e38,
                     0.62, 0.625, 0.63, -0.625, 9.0, -9.0], np.float32)
# A vector length's worth of odd sizes: every element goes through full and masked vectors.
X = np.concatenate([
    RNG.integers(0, 2**32, 400_003, dtype=np.uint64).astype(np.uint32).view(np.float32),
    SPECIALS,
    np.linspace(-120, 120, 20_001, dtype=np.float32),
])


def ulp_distance(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Distance in units in the last place between two f32 arrays; NaN == NaN."""
    def ordered(a):
        i = a.view(np.int32).astype(np.int64)
        return np.where(i < 0, -(i & 0x7FFFFFFF), i)
    d = np.abs(ordered(got) - ordered(want))
    d[(got == want) | (np.isnan(got) & np.isnan(want))] = 0
    d[np.isnan(got) != np.isnan(want)] = 1 << 40
    return d


@pytest.mark.parametrize("fn, reference, max_ulp", [
    (mnp.exp, np.exp, 1),
    (mnp.log, np.log, 1),
    (mnp.tanh, np.tanh, 2),
], ids=["exp", "log", "tanh"])
def test_f32_approximation_error(fn, reference, max_ulp):
    compiled = mlc.jit(fn).lower(X).compile()
    assert "math.exp" not in compiled.as_text("codegen"), "the approximation did not run"
    got = compiled(X)
    with np.errstate(all="ignore"):
        want = reference(X.astype(np.float64)).astype(np.float32)
    d = ulp_distance(got, want)
    worst = int(np.argmax(d))
    assert d.max() <= max_ulp, f"x={X[worst]!r}: got {got[worst]!r}, want {want[worst]!r}"


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
