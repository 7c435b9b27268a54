"""mlc.reference, the numpy interpreter of the hlo dialect: complete, right on edge cases,
and in agreement with compiled MLC.

Tolerances of the differential checks (reference vs `mlc.compile(text)(*args)`):
integers and bools exact; float elementwise results relative 1e-3 (f16), 1e-5 (f32),
1e-12 (f64) with an absolute floor of the same size times the largest magnitude, NaN
matching NaN; sums, dots and convolutions within rtol * n * sum(|terms|) of each other
(the reference accumulates f16/f32 in f64, compiled code rounds as it goes).
Every random input is drawn from np.random.default_rng(a fixed seed).
"""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.lax as lax
import mlc.nn as nn
import mlc.numpy as mnp
from mlc import reference
from mlc.diagnostics import CompileError
from mlc.dialects.hlo.ops import OPS
from mlc.dtypes import NUMPY_TO_MLIR

RTOL = {np.dtype(np.float16): 1e-3, np.dtype(np.float32): 1e-5, np.dtype(np.float64): 1e-12}


def tt(shape, dtype) -> str:
    return "tensor<" + "".join(f"{s}x" for s in shape) + NUMPY_TO_MLIR[np.dtype(dtype)] + ">"


def module(op: str, args, result: str, attrs: str = "") -> str:
    """A module whose @main applies one hlo op to its arguments."""
    ins = ", ".join(f"%a{i}: {tt(a.shape, a.dtype)}" for i, a in enumerate(args))
    names = ", ".join(f"%a{i}" for i in range(len(args)))
    types = ", ".join(tt(a.shape, a.dtype) for a in args)
    attrs = f" {{{attrs}}}" if attrs else ""
    return (f"func.func @main({ins}) -> {result} {{\n"
            f"  %0 = \"hlo.{op}\"({names}){attrs} : ({types}) -> {result}\n"
            f"  return %0 : {result}\n}}\n")


def run_op(op: str, *args, result: str | None = None, attrs: str = ""):
    result = result or tt(args[0].shape, args[0].dtype)
    return reference.run(module(op, args, result, attrs), *args)


def assert_same(actual, expected):
    """Exact equality with the same dtype (NaN equals NaN, -0.0 differs from +0.0)."""
    actual, expected = np.asarray(actual), np.asarray(expected)
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    assert actual.shape == expected.shape, (actual.shape, expected.shape)
    if actual.dtype.kind == "f":
        assert np.array_equal(np.signbit(actual), np.signbit(expected)) or np.isnan(actual).any(), (actual, expected)
        np.testing.assert_array_equal(actual, expected)
    else:
        np.testing.assert_array_equal(actual, expected)


# ---------------------------------------------------------------- the registry is complete

@pytest.mark.parametrize("op", list(OPS))
def test_every_op_has_an_evaluator(op):
    evaluator = reference.EVALUATORS.get(f"hlo.{op}")
    assert evaluator is not None, f"hlo.{op} has no evaluator in mlc.reference"
    assert evaluator.__doc__, f"the evaluator of hlo.{op} needs a one-line rule"


def test_unknown_op_names_op_and_location():
    text = ("func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {\n"
            "  %0 = tensor.empty() : tensor<3xf32>\n  return %0 : tensor<3xf32>\n}\n")
    with pytest.raises(NotImplementedError, match=r"'tensor.empty'.*:2:8"):
        reference.run(text, np.zeros(3, np.float32))


def test_argument_checks_mirror_the_executable():
    text = module("add", [np.zeros(3, np.float32)] * 2, "tensor<3xf32>")
    x = np.zeros(3, np.float32)
    with pytest.raises(TypeError, match=r"takes 2 arguments, got 1"):
        reference.run(text, x)
    with pytest.raises(TypeError, match=r"argument 1 of main\(float32\[3\], float32\[3\]\) .* must have dtype float32, got float64"):
        reference.run(text, x, x.astype(np.float64))
    with pytest.raises(ValueError, match=r"argument 0 of .* must have shape \(3,\), got \(4,\)"):
        reference.run(text, np.zeros(4, np.float32), x)
    with pytest.raises(TypeError, match=r"must be a numpy array, got list"):
        reference.run(text, [1.0, 2.0, 3.0], x)


def test_invalid_hlo_is_rejected_by_the_verifier():
    bad = module("reshape", [np.zeros(3, np.float32)], "tensor<4xf32>")
    with pytest.raises(CompileError, match="'hlo.reshape' op"):
        reference.run(bad, np.zeros(3, np.float32))


def test_results_do_not_alias_arguments_and_tuples_for_several():
    text = ("func.func @main(%a: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>) {\n"
            "  return %a, %a : tensor<2xi32>, tensor<2xi32>\n}\n")
    x = np.array([1, 2], np.int32)
    a, b = reference.run(text, x)
    assert a is not x and not np.shares_memory(a, x)
    assert_same(a, x)


# ---------------------------------------------------------------- elementwise, against numpy

I8_MIN = np.iinfo(np.int8).min
I32_MIN = np.iinfo(np.int32).min


@pytest.mark.parametrize("shape", [(0,), (1,), (3,), (17,), (2, 0, 3), ()])
@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int64, np.float16, np.float32, np.float64])
def test_add_subtract_multiply_wrap_in_their_dtype(shape, dtype):
    rng = np.random.default_rng(1)
    info = np.iinfo(dtype) if np.dtype(dtype).kind in "iu" else None
    if info is not None:
        x = rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
        y = rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    else:
        x, y = (rng.standard_normal(shape) * 100).astype(dtype), (rng.standard_normal(shape) * 100).astype(dtype)
    with np.errstate(all="ignore"):
        assert_same(run_op("add", x, y), np.asarray(x + y, dtype))
        assert_same(run_op("subtract", x, y), np.asarray(x - y, dtype))
        assert_same(run_op("multiply", x, y), np.asarray(x * y, dtype))


def test_bool_add_is_or_multiply_is_and_max_or_min_and():
    x = np.array([False, False, True, True])
    y = np.array([False, True, False, True])
    assert_same(run_op("add", x, y), x | y)
    assert_same(run_op("multiply", x, y), x & y)
    assert_same(run_op("maximum", x, y), x | y)
    assert_same(run_op("minimum", x, y), x & y)
    assert_same(run_op("xor", x, y), x ^ y)
    assert_same(run_op("not", x), ~x)


def test_integer_divide_and_remainder_edge_cases():
    x = np.array([I32_MIN, I32_MIN, 7, -7, 7, -7, 0, 5], np.int32)
    y = np.array([-1, 0, 2, 2, -2, -2, 0, 0], np.int32)
    assert_same(run_op("divide", x, y), np.array([I32_MIN, -1, 3, -3, -3, 3, -1, -1], np.int32))
    assert_same(run_op("remainder", x, y), np.array([0, I32_MIN, 1, -1, 1, -1, 0, 5], np.int32))
    u = np.array([200, 7, 0], np.uint8)
    v = np.array([0, 2, 0], np.uint8)
    assert_same(run_op("divide", u, v), np.array([255, 3, 255], np.uint8))
    assert_same(run_op("remainder", u, v), np.array([200, 1, 0], np.uint8))


def test_float_divide_remainder_keep_ieee_and_sign_of_dividend():
    x = np.array([1.0, -1.0, 0.0, 5.5, -5.5, np.inf, 3.0], np.float32)
    y = np.array([0.0, 0.0, 0.0, 2.0, 2.0, 2.0, np.inf], np.float32)
    with np.errstate(all="ignore"):
        assert_same(run_op("divide", x, y), (x / y).astype(np.float32))
        assert_same(run_op("remainder", x, y), np.fmod(x, y))


def test_integer_power():
    x = np.array([2, -1, -1, 1, 3, -128, 0, 2, 5], np.int8)
    n = np.array([-1, -3, -2, -5, 4, 1, 0, 7, 3], np.int8)
    assert_same(run_op("power", x, n), np.array([0, -1, 1, 1, 81, -128, 1, -128, 125], np.int8))
    u, e = np.array([3, 5, 2], np.uint8), np.array([200, 129, 8], np.uint8)
    assert_same(run_op("power", u, e), np.array([pow(3, 200, 256), pow(5, 129, 256), 0], np.uint8))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_maximum_minimum_propagate_nan_and_order_signed_zeros(dtype):
    x = np.array([-0.0, 0.0, np.nan, 1, -np.inf, 2], dtype)
    y = np.array([0.0, -0.0, 1, np.nan, 3, np.inf], dtype)
    assert_same(run_op("maximum", x, y), np.array([0.0, 0.0, np.nan, np.nan, 3, np.inf], dtype))
    assert_same(run_op("minimum", x, y), np.array([-0.0, -0.0, np.nan, np.nan, -np.inf, 2], dtype))
    lo, hi = np.array(-1, dtype), np.array(1, dtype)
    assert_same(run_op("clamp", lo, x, hi, result=tt(x.shape, dtype)), np.array([-0.0, 0.0, np.nan, 1, -1, 1], dtype))


def test_shifts_by_width_or_more_and_negative_amounts():
    x = np.array([1, -1, 5, -8, -8, 7], np.int8)
    n = np.array([7, 8, -1, 1, 100, 0], np.int8)
    assert_same(run_op("shift_left", x, n), np.array([-128, 0, 0, -16, 0, 7], np.int8))
    assert_same(run_op("shift_right_arithmetic", x, n), np.array([0, -1, 0, -4, -1, 7], np.int8))
    assert_same(run_op("shift_right_logical", x, n), np.array([0, 0, 0, 124, 0, 7], np.int8))
    u = np.array([0x80, 0xFF], np.uint8)
    assert_same(run_op("shift_right_arithmetic", u, np.array([7, 9], np.uint8)), np.array([0xFF, 0xFF], np.uint8))


def test_bit_counting():
    x = np.array([0, 1, -1, 255, 256, I32_MIN], np.int32)
    assert_same(run_op("popcnt", x), np.array([0, 1, 32, 8, 1, 1], np.int32))
    assert_same(run_op("count_leading_zeros", x), np.array([32, 31, 0, 24, 23, 0], np.int32))
    u = np.array([0, 1, 2**64 - 1], np.uint64)
    assert_same(run_op("count_leading_zeros", u), np.array([64, 63, 0], np.uint64))
    assert_same(run_op("popcnt", u), np.array([0, 1, 64], np.uint64))


def test_negate_abs_sign_at_the_edges():
    x = np.array([I8_MIN, -1, 0, 127], np.int8)
    assert_same(run_op("negate", x), np.array([I8_MIN, 1, 0, -127], np.int8))
    assert_same(run_op("abs", x), np.array([I8_MIN, 1, 0, 127], np.int8))
    assert_same(run_op("sign", x), np.array([-1, -1, 0, 1], np.int8))
    u = np.array([0, 1, 255], np.uint8)
    assert_same(run_op("negate", u), np.array([0, 255, 1], np.uint8))
    assert_same(run_op("sign", u), np.array([0, 1, 1], np.uint8))
    f = np.array([-0.0, 0.0, np.nan, -3, np.inf], np.float32)
    assert_same(run_op("sign", f), np.array([-0.0, 0.0, np.nan, -1, 1], np.float32))
    assert_same(run_op("abs", f), np.abs(f))


def test_rounding():
    x = np.array([-2.5, -1.5, -0.5, -0.3, 0.5, 1.5, 2.5, 0.49999997, np.inf, np.nan], np.float32)
    assert_same(run_op("round_nearest_afz", x),
                np.array([-3, -2, -1, -0.0, 1, 2, 3, 0, np.inf, np.nan], np.float32))
    assert_same(run_op("round_nearest_even", x), np.rint(x))
    assert_same(run_op("floor", x), np.floor(x))
    assert_same(run_op("ceil", x), np.ceil(x))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("op,fn", [("exponential", np.exp), ("log", np.log), ("tanh", np.tanh),
                                   ("sqrt", np.sqrt), ("sine", np.sin), ("cbrt", np.cbrt),
                                   ("log_plus_one", np.log1p), ("exponential_minus_one", np.expm1)])
def test_float_functions_in_their_dtype(op, fn, dtype):
    x = np.array([-np.inf, -1.0, -0.0, 0.0, 1e-4, 0.5, 3.0, np.inf, np.nan], dtype)
    with np.errstate(all="ignore"):
        assert_same(run_op(op, x), fn(x))


def test_rsqrt_logistic_is_finite_atan2():
    x = np.array([0.0, -0.0, 4.0, np.inf, -1.0], np.float32)
    assert_same(run_op("rsqrt", x), np.array([np.inf, -np.inf, 0.5, 0.0, np.nan], np.float32))
    z = np.array([-100.0, 0.0, 100.0, np.nan], np.float32)
    assert_same(run_op("logistic", z), np.array([0.0, 0.5, 1.0, np.nan], np.float32))
    assert_same(run_op("is_finite", x, result="tensor<5xi1>"), np.isfinite(x))
    y = np.array([0.0, -0.0, 1.0, -1.0], np.float64)
    w = np.array([-0.0, -1.0, 0.0, -np.inf], np.float64)
    assert_same(run_op("atan2", y, w), np.arctan2(y, w))


# ---------------------------------------------------------------- compare, select, convert

def test_compare_types_and_nan():
    x = np.array([np.nan, -0.0, 1, -np.nan, np.inf], np.float32)
    y = np.array([np.nan, 0.0, 2, 1, np.nan], np.float32)
    cmp = lambda a, b, d, t="": run_op("compare", a, b, result=tt(a.shape, bool),  # noqa: E731
                                       attrs=f'comparison_direction = "{d}"' + (f', compare_type = "{t}"' if t else ""))
    assert_same(cmp(x, y, "NE"), x != y)
    assert_same(cmp(x, y, "EQ"), x == y)
    assert_same(cmp(x, y, "LT"), x < y)
    assert_same(cmp(x, y, "LT", "TOTALORDER"), np.array([False, True, True, True, True]))
    u = np.array([200, 1], np.uint8)
    v = np.array([1, 2], np.uint8)
    assert_same(cmp(u, v, "LT"), np.array([False, True]))
    assert_same(cmp(u, v, "LT", "SIGNED"), np.array([True, True]))
    i = np.array([-1, 1], np.int8)
    assert_same(cmp(i, np.array([1, 2], np.int8), "LT", "UNSIGNED"), np.array([False, True]))
    b = np.array([True, False])
    assert_same(cmp(b, np.array([False, True]), "LT"), np.array([False, True]))


def test_select_with_scalar_and_full_predicate():
    x, y = np.arange(3, dtype=np.int16), -np.arange(3, dtype=np.int16)
    p = np.array([True, False, True])
    assert_same(run_op("select", p, x, y, result=tt((3,), np.int16)), np.where(p, x, y))
    assert_same(run_op("select", np.array(False), x, y, result=tt((3,), np.int16)), y)


@pytest.mark.parametrize("to", [np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64, np.bool_])
def test_convert_float_to_int_truncates_saturates_nan_zero(to):
    x = np.array([np.nan, np.inf, -np.inf, 3.9, -3.9, 2.5e9, -2.5e9, 300, -0.7], np.float32)
    info = np.iinfo(to) if to is not np.bool_ else None
    def saturated(v: float) -> int:
        if np.isnan(v):
            return 0
        if np.isinf(v):
            return info.max if v > 0 else info.min
        return min(max(int(v), info.min), info.max)  # int() truncates toward zero

    expected = x != 0 if info is None else np.array([saturated(float(v)) for v in x], to)
    assert_same(run_op("convert", x, result=tt(x.shape, to)), expected)


def test_convert_between_floats_and_integers():
    assert_same(run_op("convert", np.array([65520.0, 1e-8, 0.1, -0.0], np.float64), result=tt((4,), np.float16)),
                np.array([np.inf, 0, 0.1, -0.0], np.float16))
    assert_same(run_op("convert", np.array([-1, 300], np.int16), result=tt((2,), np.uint8)), np.array([255, 44], np.uint8))
    assert_same(run_op("convert", np.array([255, 1], np.uint8), result=tt((2,), np.int32)), np.array([255, 1], np.int32))
    assert_same(run_op("convert", np.array([-1, 1], np.int8), result=tt((2,), np.uint32)),
                np.array([2**32 - 1, 1], np.uint32))
    assert_same(run_op("convert", np.array([True, False]), result=tt((2,), np.float32)), np.array([1.0, 0.0], np.float32))
    assert_same(run_op("convert", np.array([2**64 - 1], np.uint64), result=tt((1,), np.float32)),
                np.array([2.0**64], np.float32))


def test_bitcast_convert_and_constant_bits():
    x = np.array([1.0, -0.0, np.inf], np.float32)
    assert_same(run_op("bitcast_convert", x, result=tt((3,), np.int32)), x.view(np.int32))
    assert_same(run_op("bitcast_convert", np.array([-1], np.int16), result=tt((1,), np.uint16)),
                np.array([65535], np.uint16))
    text = ('func.func @main() -> (tensor<2xui8>, tensor<2x2xf16>, tensor<3xi1>) {\n'
            '  %0 = "hlo.constant"() {value = dense<[255, 1]> : tensor<2xui8>} : () -> tensor<2xui8>\n'
            '  %1 = "hlo.constant"() {value = dense<2.5> : tensor<2x2xf16>} : () -> tensor<2x2xf16>\n'
            '  %2 = "hlo.constant"() {value = dense<[true, false, true]> : tensor<3xi1>} : () -> tensor<3xi1>\n'
            '  return %0, %1, %2 : tensor<2xui8>, tensor<2x2xf16>, tensor<3xi1>\n}\n')
    a, b, c = reference.run(text)
    assert_same(a, np.array([255, 1], np.uint8))
    assert_same(b, np.full((2, 2), 2.5, np.float16))
    assert_same(c, np.array([True, False, True]))


def test_iota_wraps_in_small_integers():
    out = reference.run('func.func @main() -> tensor<300x2xi8> {\n'
                        '  %0 = "hlo.iota"() {iota_dimension = 0 : i64} : () -> tensor<300x2xi8>\n'
                        '  return %0 : tensor<300x2xi8>\n}\n')
    assert_same(out, np.broadcast_to(np.arange(300).astype(np.int8)[:, None], (300, 2)))


# ---------------------------------------------------------------- shape and indexing

def test_shape_ops():
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    assert_same(run_op("transpose", x, result=tt((4, 2, 3), np.int32), attrs="permutation = array<i64: 2, 0, 1>"),
                x.transpose(2, 0, 1))
    assert_same(run_op("reverse", x, attrs="dimensions = array<i64: 0, 2>"), x[::-1, :, ::-1])
    assert_same(run_op("reshape", x, result=tt((6, 4), np.int32)), x.reshape(6, 4))
    assert_same(run_op("slice", x, result=tt((1, 2, 2), np.int32), attrs="start_indices = array<i64: 1, 0, 1>, "
                       "limit_indices = array<i64: 2, 3, 4>, strides = array<i64: 1, 2, 2>"), x[1:2, 0:3:2, 1:4:2])
    v = np.array([1, 2, 3], np.float16)
    assert_same(run_op("broadcast_in_dim", v, result=tt((2, 3), np.float16), attrs="broadcast_dimensions = array<i64: 1>"),
                np.broadcast_to(v, (2, 3)))
    m = np.arange(6, dtype=np.uint8).reshape(2, 3)
    assert_same(run_op("broadcast_in_dim", m, result=tt((3, 4, 2), np.uint8),
                       attrs="broadcast_dimensions = array<i64: 2, 0>"),
                np.broadcast_to(m.T[:, None, :], (3, 4, 2)))
    assert_same(run_op("reshape", np.zeros((0, 3), np.bool_), result=tt((3, 0), np.bool_)), np.zeros((3, 0), bool))


def test_pad_edges_negative_and_interior():
    x = np.arange(1, 5, dtype=np.float32)
    out = run_op("pad", x, np.array(-1, np.float32), result=tt((7,), np.float32),
                 attrs="edge_padding_low = array<i64: 1>, edge_padding_high = array<i64: -1>, "
                       "interior_padding = array<i64: 1>")
    assert_same(out, np.array([-1, 1, -1, 2, -1, 3, -1], np.float32))
    out = run_op("pad", x, np.array(0, np.float32), result=tt((1,), np.float32),
                 attrs="edge_padding_low = array<i64: -3>, edge_padding_high = array<i64: 0>, "
                       "interior_padding = array<i64: 0>")
    assert_same(out, np.array([4], np.float32))
    e = np.zeros((0,), np.int8)
    assert_same(run_op("pad", e, np.array(7, np.int8), result=tt((3,), np.int8),
                       attrs="edge_padding_low = array<i64: 1>, edge_padding_high = array<i64: 2>, "
                             "interior_padding = array<i64: 4>"), np.full(3, 7, np.int8))


@pytest.mark.parametrize("start,dtype,expected", [(-5, np.int32, 0), (2, np.int32, 2), (99, np.int64, 3),
                                                  (2**32 - 1, np.uint32, 3), (200, np.uint8, 3), (-128, np.int8, 0)])
def test_dynamic_slice_and_update_clamp_starts(start, dtype, expected):
    x = np.arange(5, dtype=np.float32)
    s = np.array(start, dtype)
    assert_same(run_op("dynamic_slice", x, s, result=tt((2,), np.float32), attrs="slice_sizes = array<i64: 2>"),
                x[expected:expected + 2])
    u = np.array([10, 20], np.float32)
    want = x.copy()
    want[expected:expected + 2] = u
    assert_same(run_op("dynamic_update_slice", x, u, s), want)


GATHER_ROWS = ("offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, "
               "index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 3>")


def test_gather_clamps_out_of_range_starts():
    x = np.arange(12, dtype=np.int16).reshape(4, 3)
    idx = np.array([[0], [3], [-7], [100]], np.int32)
    assert_same(run_op("gather", x, idx, result=tt((4, 3), np.int16), attrs=GATHER_ROWS), x[[0, 3, 0, 3]])
    window = ("offset_dims = array<i64: 1, 2>, collapsed_slice_dims = array<i64>, start_index_map = array<i64: 0, 1>, "
              "index_vector_dim = 1 : i64, slice_sizes = array<i64: 2, 2>")
    starts = np.array([[3, 2], [-1, 1], [1, 0]], np.int64)
    want = np.stack([x[2:4, 1:3], x[0:2, 1:3], x[1:3, 0:2]])
    assert_same(run_op("gather", x, starts, result=tt((3, 2, 2), np.int16), attrs=window), want)


def test_gather_with_batching_dims():
    x = np.arange(24, dtype=np.float32).reshape(2, 4, 3)  # batch 2: row i of batch b
    idx = np.array([[1, 3], [0, 9]], np.int32)            # (batch, positions)
    attrs = ("offset_dims = array<i64: 2>, collapsed_slice_dims = array<i64: 1>, start_index_map = array<i64: 1>, "
             "index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 1, 3>, operand_batching_dims = array<i64: 0>, "
             "start_indices_batching_dims = array<i64: 0>")
    want = np.stack([x[0][[1, 3]], x[1][[0, 3]]])
    assert_same(run_op("gather", x, idx, result=tt((2, 2, 3), np.float32), attrs=attrs), want)


SCATTER_ROWS = ("update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, "
                "scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64")


@pytest.mark.parametrize("kind", ["set", "add", "mul", "max", "min"])
def test_scatter_drops_out_of_bounds_and_applies_in_order(kind):
    x = np.arange(12, dtype=np.int32).reshape(4, 3)
    idx = np.array([[1], [4], [-1], [1], [3]], np.int32)
    upd = np.arange(100, 115, dtype=np.int32).reshape(5, 3)
    want = x.copy()
    op = {"set": lambda a, b: b, "add": np.add, "mul": np.multiply, "max": np.maximum, "min": np.minimum}[kind]
    for i, row in zip(idx[:, 0], upd):
        if 0 <= i < 4:
            want[i] = op(want[i], row)
    got = run_op("scatter", x, idx, upd, result=tt((4, 3), np.int32), attrs=SCATTER_ROWS + f', kind = "{kind}"')
    assert_same(got, want)


def test_scatter_partial_window_is_dropped_whole():
    x = np.zeros(5, np.float32)
    attrs = ("update_window_dims = array<i64: 1>, inserted_window_dims = array<i64>, "
             "scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, kind = \"add\"")
    got = run_op("scatter", x, np.array([[3], [1]], np.int32), np.ones((2, 3), np.float32),
                 result=tt((5,), np.float32), attrs=attrs)
    assert_same(got, np.array([0, 1, 1, 1, 0], np.float32))


def test_tensor_concat():
    text = ("func.func @main(%a: tensor<2x1xi8>, %b: tensor<2x3xi8>) -> tensor<2x4xi8> {\n"
            "  %0 = tensor.concat dim(1) %a, %b : (tensor<2x1xi8>, tensor<2x3xi8>) -> tensor<2x4xi8>\n"
            "  return %0 : tensor<2x4xi8>\n}\n")
    a, b = np.ones((2, 1), np.int8), np.zeros((2, 3), np.int8)
    assert_same(reference.run(text, a, b), np.concatenate([a, b], 1))


# ---------------------------------------------------------------- reductions and sorting

@pytest.mark.parametrize("shape", [(0,), (1,), (3,), (17,), (2, 0), (3, 17)])
def test_reduce_kinds(shape):
    rng = np.random.default_rng(2)
    x = rng.integers(-100, 100, size=shape).astype(np.int8)
    dims = "array<i64: 0>"
    for kind, fn, init in [("add", np.add, 5), ("mul", np.multiply, 1), ("max", np.maximum, -128),
                           ("min", np.minimum, 127), ("and", np.bitwise_and, -1), ("or", np.bitwise_or, 0),
                           ("xor", np.bitwise_xor, 3)]:
        want = fn.reduce(x, axis=0, dtype=np.int8, initial=np.int8(init))
        got = run_op("reduce", x, np.array(init, np.int8), result=tt(shape[1:], np.int8),
                     attrs=f'dimensions = {dims}, kind = "{kind}"')
        assert_same(got, np.asarray(want, np.int8))


def test_reduce_floats_bools_and_nan():
    x = np.array([[1.0, np.nan, 3.0], [-0.0, 2.0, -np.inf]], np.float32)
    got = run_op("reduce", x, np.array(-np.inf, np.float32), result=tt((2,), np.float32),
                 attrs='dimensions = array<i64: 1>, kind = "max"')
    assert_same(got, np.array([np.nan, 2.0], np.float32))
    b = np.array([[True, False], [False, False]])
    got = run_op("reduce", b, np.array(False), result=tt((2,), bool), attrs='dimensions = array<i64: 1>, kind = "add"')
    assert_same(got, np.array([True, False]))
    h = np.full(4096, 0.1, np.float16)
    got = run_op("reduce", h, np.array(0, np.float16), result=tt((), np.float16),
                 attrs='dimensions = array<i64: 0>, kind = "add"')
    assert_same(got, np.float16(np.float64(np.float16(0.1)) * 4096))  # not f16 stagnation at 256


def test_argmax_argmin_ties_nan_and_empty():
    x = np.array([[1, 3, 3, np.nan, np.nan], [2, 2, -1, -1, 0]], np.float32)
    assert_same(run_op("argmax", x, result=tt((2,), np.int32), attrs="dimension = 1 : i64"), np.array([3, 0], np.int32))
    assert_same(run_op("argmin", x, result=tt((2,), np.int64), attrs="dimension = 1 : i64"), np.array([3, 2], np.int64))
    u = np.array([0, 255, 255, 1], np.uint8)
    assert_same(run_op("argmax", u, result=tt((), np.int32), attrs="dimension = 0 : i64"), np.array(1, np.int32))
    e = np.zeros((0, 2), np.float32)
    assert_same(run_op("argmax", e, result=tt((0,), np.int32), attrs="dimension = 1 : i64"), np.zeros(0, np.int32))


def test_reduce_window_strides_padding_dilation():
    x = np.arange(1, 8, dtype=np.float32)
    got = run_op("reduce_window", x, np.array(0, np.float32), result=tt((4,), np.float32),
                 attrs='window_dimensions = array<i64: 2>, kind = "add", window_strides = array<i64: 2>, '
                       'padding = dense<[[1, 0]]> : tensor<1x2xi64>')
    assert_same(got, np.array([1, 5, 9, 13], np.float32))
    got = run_op("reduce_window", x, np.array(-np.inf, np.float32), result=tt((2,), np.float32),
                 attrs='window_dimensions = array<i64: 2>, kind = "max", window_dilations = array<i64: 3>, '
                       'window_strides = array<i64: 2>')
    assert_same(got, np.array([max(x[0], x[3]), max(x[2], x[5])], np.float32))
    base = run_op("reduce_window", np.array([1, 2, 3], np.int32), np.array(0, np.int32), result=tt((4,), np.int32),
                  attrs='window_dimensions = array<i64: 2>, kind = "add", base_dilations = array<i64: 2>')
    assert_same(base, np.array([1, 2, 2, 3], np.int32))


@pytest.mark.parametrize("descending", [False, True])
def test_sort_and_argsort_stable_with_nan_order(descending):
    x = np.array([3.0, np.nan, -0.0, 1.0, 0.0, np.nan, 1.0, -np.inf], np.float32)
    attr = f"dimension = 0 : i64, descending = {str(descending).lower()}"
    order = run_op("argsort", x, result=tt((8,), np.int32), attrs=attr)
    want = [1, 5, 0, 3, 6, 2, 4, 7] if descending else [7, 2, 4, 3, 6, 0, 1, 5]
    assert_same(order, np.array(want, np.int32))
    assert_same(run_op("sort", x, attrs=attr), x[want])
    i = np.array([[5, -128, 127, 5], [0, 0, -1, 1]], np.int8)
    got = run_op("sort", i, attrs=f"dimension = 1 : i64, descending = {str(descending).lower()}")
    assert_same(got, -np.sort(-i.astype(np.int16), axis=1).astype(np.int8) if descending else np.sort(i, axis=1))


# ---------------------------------------------------------------- contractions

def test_dot_general_batch_and_widening():
    rng = np.random.default_rng(3)
    a = rng.integers(-128, 127, size=(2, 3, 17), dtype=np.int8)
    b = rng.integers(-128, 127, size=(2, 17, 4), dtype=np.int8)
    attrs = ("lhs_batching_dimensions = array<i64: 0>, rhs_batching_dimensions = array<i64: 0>, "
             "lhs_contracting_dimensions = array<i64: 2>, rhs_contracting_dimensions = array<i64: 1>")
    assert_same(run_op("dot_general", a, b, result=tt((2, 3, 4), np.int32), attrs=attrs),
                np.matmul(a.astype(np.int32), b.astype(np.int32)))
    assert_same(run_op("dot_general", a, b, result=tt((2, 3, 4), np.int8), attrs=attrs),
                np.matmul(a.astype(np.int64), b.astype(np.int64)).astype(np.int8))
    z = np.zeros((3, 0), np.float32)
    assert_same(run_op("dot_general", z, np.zeros((0, 2), np.float32), result=tt((3, 2), np.float32),
                       attrs="lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, "
                             "lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>"),
                np.zeros((3, 2), np.float32))


CONV_1D = ("input_batch_dimension = 0 : i64, input_feature_dimension = 1 : i64, input_spatial_dimensions = array<i64: 2>, "
           "kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 0 : i64, "
           "kernel_spatial_dimensions = array<i64: 2>, output_batch_dimension = 0 : i64, output_feature_dimension = 1 : i64, "
           "output_spatial_dimensions = array<i64: 2>")


def test_convolution_1d_against_a_loop():
    rng = np.random.default_rng(4)
    x = rng.integers(-5, 5, size=(2, 4, 9)).astype(np.int32)
    w = rng.integers(-5, 5, size=(6, 2, 3)).astype(np.int32)  # 2 feature groups
    attrs = CONV_1D + (", feature_group_count = 2 : i64, batch_group_count = 1 : i64, window_strides = array<i64: 2>, "
                       "padding = dense<[[1, 2]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 2>, lhs_dilation = array<i64: 1>")
    xp = np.pad(x, ((0, 0), (0, 0), (1, 2)))
    out = np.zeros((2, 6, 4), np.int32)
    for n in range(2):
        for o in range(6):
            g = o // 3
            for s in range(4):
                out[n, o, s] = sum(xp[n, g * 2 + c, s * 2 + k * 2] * w[o, c, k] for c in range(2) for k in range(3))
    assert_same(run_op("convolution", x, w, result=tt((2, 6, 4), np.int32), attrs=attrs), out)


# ---------------------------------------------------------------- differential: reference vs compiled

def assert_agree(ref, got, atol=None):
    """Integers/bools exact; floats within the dtype's rtol (see the module docstring)."""
    refs = ref if isinstance(ref, tuple) else (ref,)
    gots = got if isinstance(got, tuple) else (got,)
    assert len(refs) == len(gots)
    for r, g in zip(refs, gots):
        assert r.dtype == g.dtype and r.shape == g.shape, (r.dtype, g.dtype, r.shape, g.shape)
        if r.dtype.kind != "f":
            np.testing.assert_array_equal(g, r)
            continue
        rtol = RTOL[r.dtype]
        finite = np.abs(r[np.isfinite(r)]).astype(np.float64)
        floor = atol if atol is not None else rtol * (float(finite.max()) if finite.size else 0.0)
        np.testing.assert_allclose(g.astype(np.float64), r.astype(np.float64), rtol=rtol, atol=floor, equal_nan=True)


def jit_text(fn, *args) -> str:
    return mlc.jit(fn).lower(*args).as_text()


def _rng(seed=0):
    return np.random.default_rng(seed)


def _f(shape, dtype=np.float32, seed=0, scale=1.0):
    return (_rng(seed).standard_normal(shape) * scale).astype(dtype)


def _i(shape, dtype, seed=0):
    info = np.iinfo(dtype)
    return _rng(seed).integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)


EDGE_F32 = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 1e30, -3.7], np.float32)
EDGE_I32 = np.array([I32_MIN, -1, 0, 1, 31, 32, 33, -32, 2**31 - 1, 7, -7, 100], np.int32)

INDEX_SWITCH = """
func.func private @twice(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "hlo.add"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func @main(%k: tensor<i32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %e = tensor.extract %k[] : tensor<i32>
  %i = arith.index_cast %e : i32 to index
  %r = scf.index_switch %i -> tensor<3xf32>
  case 0 {
    %a = func.call @twice(%x) : (tensor<3xf32>) -> tensor<3xf32>
    scf.yield %a : tensor<3xf32>
  }
  case 2 {
    %b = "hlo.negate"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    scf.yield %b : tensor<3xf32>
  }
  default {
    scf.yield %x : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
"""

ROWS = ("offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, "
        "index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 3>")


def _cases():
    """(id, text, args, atol or None, xfail reason or None)."""
    x17, y17 = _f(17, seed=1), _f(17, seed=2)
    m = _f((3, 17), seed=3)
    yield "add-i8-wrap", module("add", [_i(17, np.int8)] * 2, tt((17,), np.int8)), [_i(17, np.int8, 1), _i(17, np.int8, 2)], None, None
    a, b = EDGE_I32, np.array([-1, 0, 0, 2, -2, 3, 0, 5, -1, 2, -2, 7], np.int32)
    yield "divide-i32-edges", module("divide", [a, b], tt((12,), np.int32)), [a, b], None, None
    yield "remainder-i32-edges", module("remainder", [a, b], tt((12,), np.int32)), [a, b], None, None
    yield "remainder-f32", module("remainder", [x17, y17], tt((17,), np.float32)), [x17 * 10, y17], None, None
    p, q = np.array([2, -1, -1, 1, 3, -128, 0, 2], np.int8), np.array([-1, -3, -2, -5, 4, 1, 0, 7], np.int8)
    yield "power-i8", module("power", [p, q], tt((8,), np.int8)), [p, q], None, None
    # Exponents with the top bit set (math.ipowi alone reads them as negative and gives 0).
    u, e = np.array([3, 5, 2, 7, 0, 1], np.uint8), np.array([200, 129, 8, 255, 128, 255], np.uint8)
    yield "power-ui8-big-exponent", module("power", [u, e], tt((6,), np.uint8)), [u, e], None, None
    u64, e64 = np.array([3, 7, 2**63 + 1], np.uint64), np.array([2**63 + 5, 2**64 - 1, 3], np.uint64)
    yield "power-ui64-big-exponent", module("power", [u64, e64], tt((3,), np.uint64)), [u64, e64], None, None
    s = np.array([1, -1, 5, -8, -8, 7, 1, -1, 3, 4, 5, 6], np.int32)
    for op in ("shift_left", "shift_right_arithmetic", "shift_right_logical"):
        yield op, module(op, [s, EDGE_I32], tt((12,), np.int32)), [s, EDGE_I32], None, None
    big = np.array([0, 1, 2**64 - 1, 2**63, 12345], np.uint64)
    yield "popcnt-ui64", module("popcnt", [big], tt((5,), np.uint64)), [big], None, None
    yield "clz-i16", module("count_leading_zeros", [_i(17, np.int16)], tt((17,), np.int16)), [_i(17, np.int16, 4)], None, None
    z = EDGE_F32[::-1].copy()
    yield "maximum-f32-nan-zeros", module("maximum", [EDGE_F32, z], tt((12,), np.float32)), [EDGE_F32, z], None, None
    yield "minimum-f32-nan-zeros", module("minimum", [EDGE_F32, z], tt((12,), np.float32)), [EDGE_F32, z], None, None
    yield ("transcendentals-f32", jit_text(lambda v: mnp.exp(v) + mnp.log(mnp.abs(v)) * mnp.tanh(v) + mnp.sin(v), x17),
           [x17], None, None)
    h = _f(17, np.float16, seed=5, scale=3)
    yield "logistic-f16", module("logistic", [h], tt((17,), np.float16)), [h], None, None
    yield "cosine-f16", module("cosine", [h], tt((17,), np.float16)), [h], None, None
    d = np.abs(_f(17, np.float64, seed=6)) + 0.01
    yield ("f64-functions", jit_text(lambda v: mnp.log1p(v) + mnp.expm1(-v) + mnp.cbrt(v) + mnp.arctan2(v, -v), d),
           [d], None, None)
    yield "round-afz", module("round_nearest_afz", [EDGE_F32], tt((12,), np.float32)), [EDGE_F32], None, None
    yield "round-even", module("round_nearest_even", [EDGE_F32], tt((12,), np.float32)), [EDGE_F32], None, None
    n8 = np.array([-128, -1, 0, 127, 5], np.int8)
    yield "abs-sign-negate-i8", jit_text(lambda v: (mnp.abs(v), mnp.sign(v), -v), n8), [n8], None, None
    yield ("compare-f32-ne-totalorder",
           module("compare", [EDGE_F32, z], tt((12,), bool), 'comparison_direction = "NE"'), [EDGE_F32, z], None, None)
    yield ("compare-f32-totalorder", module("compare", [EDGE_F32, z], tt((12,), bool),
                                            'comparison_direction = "LT", compare_type = "TOTALORDER"'), [EDGE_F32, z], None, None)
    cu = np.array([200, 1, 0, 255], np.uint8)
    yield "compare-ui8", module("compare", [cu, cu[::-1].copy()], tt((4,), bool), 'comparison_direction = "GT"'), [cu, cu[::-1].copy()], None, None
    for to in (np.int32, np.uint8, np.int64):
        yield f"convert-f32-{np.dtype(to)}", module("convert", [EDGE_F32], tt((12,), to)), [EDGE_F32], None, None
    yield "convert-f64-f16", module("convert", [d * 1e4], tt((17,), np.float16)), [d * 1e4], None, None
    yield "bitcast-f32-i32", module("bitcast_convert", [EDGE_F32], tt((12,), np.int32)), [EDGE_F32], None, None
    yield "select-clamp", jit_text(lambda v, w: mnp.where(v > w, mnp.clip(v, -0.5, 0.5), w), x17, y17), [x17, y17], None, None
    yield "iota-broadcast-transpose", jit_text(lambda v: (v[:, None] + mnp.arange(5.0, dtype=mnp.float32)).T, x17), [x17], None, None
    yield ("reshape-reverse-slice-pad", jit_text(lambda v: mnp.pad(mnp.flip(v.reshape(3, 17), 1)[1:, ::3], 2), m),
           [m], None, None)
    v5 = np.arange(5, dtype=np.float32)
    for start, dt in ((-3, np.int32), (4, np.int32), (2**32 - 1, np.uint32)):
        st = np.array(start, dt)
        yield (f"dynamic-slice-{start}-{np.dtype(dt)}", module("dynamic_slice", [v5, st], tt((2,), np.float32), "slice_sizes = array<i64: 2>"),
               [v5, st], None, None)
    upd = np.array([7, 8], np.float32)
    yield "dynamic-update-slice", module("dynamic_update_slice", [v5, upd, np.array(9, np.int64)], tt((5,), np.float32)), [v5, upd, np.array(9, np.int64)], None, None
    idx = np.array([[0], [2], [-5], [99], [1]], np.int32)
    table = _f((3, 3), seed=7)
    yield "gather-clamped", module("gather", [table, idx], tt((5, 3), np.float32), ROWS), [table, idx], None, None
    sidx = np.array([[1], [4], [-1], [1], [0]], np.int32)
    supd = _f((5, 3), seed=8)
    for kind in ("add", "set", "max"):
        attrs = SCATTER_ROWS + f', kind = "{kind}"'
        yield f"scatter-{kind}", module("scatter", [table, sidx, supd], tt((3, 3), np.float32), attrs), [table, sidx, supd], None, None
    big_x = _f(4096, seed=9)
    yield "reduce-sum-f32-4096", jit_text(lambda v: mnp.sum(v), big_x), [big_x], 1e-5 * float(np.abs(big_x).sum()), None
    yield "reduce-rows-f32", jit_text(lambda v: (mnp.sum(v, axis=1), mnp.max(v, axis=0)), m), [m], 1e-5 * float(np.abs(m).sum()), None
    mn = m.copy()
    mn[1, 4] = np.nan
    yield "reduce-max-nan", jit_text(lambda v: mnp.max(v, axis=1), mn), [mn], None, None
    iv = _i((3, 17), np.int32, 10)
    yield "reduce-int-wrap", jit_text(lambda v: (mnp.sum(v, axis=1), mnp.min(v, axis=0)), iv), [iv], None, None
    bv = _rng(11).random((3, 17)) > 0.5
    yield "reduce-bool", jit_text(lambda v: (mnp.any(v, axis=1), mnp.all(v, axis=0)), bv), [bv], None, None
    am = np.array([[1, 3, 3, np.nan, np.nan], [2, 2, -1, -1, 0]], np.float32)
    yield "argmax-argmin", jit_text(lambda v: (mnp.argmax(v, axis=1), mnp.argmin(v, axis=1)), am), [am], None, None
    img = _f((1, 7, 9, 2), seed=12)
    yield ("reduce-window-max", jit_text(lambda v: lax.reduce_window(v, -np.inf, lax.max, (1, 3, 2, 1), (1, 2, 2, 1), "SAME"), img),
           [img], None, None)
    sv = np.array([[3.0, np.nan, -0.0, 1.0, 0.0, np.nan, 1.0, -np.inf]] * 2, np.float32)
    for desc in ("false", "true"):
        yield (f"sort-f32-descending-{desc}", module("sort", [sv], tt((2, 8), np.float32), f"dimension = 1 : i64, descending = {desc}"),
               [sv], None, None)
    ti = np.array([5, -128, 127, 5, 0, 0, -1, 5], np.int8)
    yield ("argsort-i8-descending", module("argsort", [ti], tt((8,), np.int32), "dimension = 0 : i64, descending = true"),
           [ti], None, None)
    A, B = _f((17, 3), seed=13), _f((3, 5), seed=14)
    yield "matmul-f32", jit_text(lambda p, q: p @ q, A, B), [A, B], 1e-5 * 3 * float(np.abs(A).max() * np.abs(B).max()), None
    Ah, Bh = A.astype(np.float16), B.astype(np.float16)
    yield "matmul-f16", jit_text(lambda p, q: p @ q, Ah, Bh), [Ah, Bh], 3e-3 * 3 * float(np.abs(A).max() * np.abs(B).max()), None
    i8a, i8b = _i((2, 17, 3), np.int8, 15), _i((2, 3, 4), np.int8, 16)
    dg = ("lhs_batching_dimensions = array<i64: 0>, rhs_batching_dimensions = array<i64: 0>, "
          "lhs_contracting_dimensions = array<i64: 2>, rhs_contracting_dimensions = array<i64: 1>")
    yield "dot-i8-to-i32", module("dot_general", [i8a, i8b], tt((2, 17, 4), np.int32), dg), [i8a, i8b], None, None
    ker = _f((3, 3, 2, 4), seed=17)
    yield ("conv2d-nhwc", jit_text(lambda v, k: lax.conv_general_dilated(v, k, (1, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")),
                                   img, ker), [img, ker], 1e-4 * float(np.abs(img).max() * np.abs(ker).max()) * 18, None)
    x1 = _i((2, 4, 9), np.int32, 18) % 7
    w1 = _i((6, 2, 3), np.int32, 19) % 5
    cattrs = CONV_1D + (", feature_group_count = 2 : i64, batch_group_count = 1 : i64, window_strides = array<i64: 2>, "
                        "padding = dense<[[1, 2]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 2>, lhs_dilation = array<i64: 2>")
    yield "conv1d-grouped-dilated-i32", module("convolution", [x1, w1], tt((2, 6, 8), np.int32), cattrs), [x1, w1], None, None
    yield ("cond", jit_text(lambda v: lax.cond(mnp.sum(v) > 0, lambda t: t * 2, lambda t: t - 1, v), x17), [x17], None, None)
    yield ("while-fori", jit_text(lambda v: lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * 1.5 + 1), (0, v))[1], x17),
           [x17], None, None)
    yield ("scan", jit_text(lambda v: lax.scan(lambda c, t: (c + t, c * t), np.float32(0), v), x17), [x17], 1e-5 * 17 * float(np.abs(x17).sum()), None)
    yield "concatenate", jit_text(lambda v, w: mnp.concatenate([v, w, v]), x17, y17), [x17, y17], None, None
    yield "softmax-layer-norm", jit_text(lambda v: (nn.softmax(v, axis=-1), nn.layer_norm(v)), m), [m], 1e-5, None
    hs = _f(2048, np.float16, seed=20)
    yield "reduce-sum-f16-2048", jit_text(lambda v: mnp.sum(v), hs), [hs], 1e-3 * float(np.abs(hs.astype(np.float64)).sum()), None
    rw = ('window_dimensions = array<i64: 3>, kind = "add", base_dilations = array<i64: 2>, window_strides = array<i64: 2>, '
          'padding = dense<[[2, -1]]> : tensor<1x2xi64>')
    yield "reduce-window-base-dilation-i32", module("reduce_window", [iv[0], np.array(1, np.int32)], tt((16,), np.int32), rw), [iv[0], np.array(1, np.int32)], None, None
    uidx = np.array([[200], [3], [255]], np.uint8)
    long_table, long_upd = _f((300, 2), seed=21), _f((3, 2), seed=22)
    ua = ("update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, "
          'scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, kind = "add"')
    yield "scatter-ui8-indices", module("scatter", [long_table, uidx, long_upd], tt((300, 2), np.float32), ua), [long_table, uidx, long_upd], None, None
    ga = ROWS.replace("slice_sizes = array<i64: 1, 3>", "slice_sizes = array<i64: 1, 2>")
    yield "gather-ui8-indices", module("gather", [long_table, uidx], tt((3, 2), np.float32), ga), [long_table, uidx], None, None
    for k in (0, 1, 2):
        yield f"index-switch-call-{k}", INDEX_SWITCH, [np.array(k, np.int32), x17[:3].copy()], None, None


def _params():
    params = []
    for name, text, args, atol, xfail in _cases():
        marks = [pytest.mark.xfail(strict=True, reason=xfail)] if xfail else []
        params.append(pytest.param(text, args, atol, id=name, marks=marks))
    return params


@pytest.mark.parametrize("text,args,atol", _params())
def test_reference_agrees_with_compiled(text, args, atol):
    ref = reference.run(text, *args)
    got = mlc.compile(text)(*args)
    assert_agree(ref, got, atol)
