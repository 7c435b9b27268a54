"""Minimized reproducers of the bugs mlc.fuzz found (test_fuzz.py, python -m mlc.fuzz).

Each test compares compiled MLC with mlc.reference.run (or numpy) on the minimized program.
`xfail(strict=True)` marks a bug in MLC's compiler: fix it, then drop the mark (and the
matching KNOWN_BUGS entry of mlc/fuzz/known.py).
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp
from mlc import reference
from mlc.fuzz.compare import check_hlo, mlc_compile


def _agree(text, *inputs, tolerance=("exact",)):
    assert check_hlo(text, list(inputs), list(tolerance)) is None


def _passes_in_a_child(prog: str) -> None:
    """Runs the Python source `prog` in a child process: a compile that hangs again fails
    after 120 s instead of hanging the suite."""
    result = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, timeout=120,
                            env={**os.environ, "MLC_CACHE": "0"})
    assert result.returncode == 0, result.stderr[-800:]


def test_zero_size_slice_offsets_out_of_bounds():
    text = """func.func @main(%a: tensor<2x0xf32>) -> tensor<1x0xf32> {
  %1 = "hlo.slice"(%a) {start_indices = array<i64: 1, 0>, limit_indices = array<i64: 2, 0>, strides = array<i64: 1, 1>} : (tensor<2x0xf32>) -> tensor<1x0xf32>
  return %1 : tensor<1x0xf32>
}"""
    _agree(text, np.zeros((2, 0), np.float32))


def test_zero_size_reduce_window_padding():
    text = """func.func @main(%a: tensor<0xi1>, %b: tensor<i1>) -> tensor<1xi1> {
  %1 = "hlo.reduce_window"(%a, %b) {kind = "and", padding = dense<[[1, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 1>} : (tensor<0xi1>, tensor<i1>) -> tensor<1xi1>
  return %1 : tensor<1xi1>
}"""
    _agree(text, np.zeros((0,), bool), np.array(True))


def test_numpy_empty_slice_at_end():
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    got = mlc.jit(lambda v: v[3:3])(x)
    np.testing.assert_array_equal(got, x[3:3])


def test_reduce_window_base_dilation_shape_mismatch():
    text = """func.func @main(%a: tensor<3xf64>, %b: tensor<f64>) -> tensor<1xf64> {
  %1 = "hlo.reduce_window"(%a, %b) {base_dilations = array<i64: 2>, kind = "max", padding = dense<[[2, 0]]> : tensor<1x2xi64>, window_dimensions = array<i64: 6>, window_strides = array<i64: 2>} : (tensor<3xf64>, tensor<f64>) -> tensor<1xf64>
  return %1 : tensor<1xf64>
}"""
    _agree(text, np.array([1.0, 2.0, 3.0]), np.array(0.0))


@pytest.mark.parametrize("dtype", [np.int64, np.float32])
def test_reduce_window_base_dilation_rows_not_fused_with_the_insert(dtype):
    """`--seed 31`: the padded, base-dilated operand is a fill then a strided insert of x
    (%pad[0, 2, 0] [1, 3, 2] [2, 1, 2], a view whose rows are the buffer's dim 1), and
    mlc-row-fusion ran the insert row by row with the window kernel reading the buffer's
    dim-0 rows: output rows read rows of x not yet copied (4 of 45 elements wrong)."""
    et = "i64" if dtype == np.int64 else "f32"
    text = f"""func.func @main(%a: tensor<1x3x2x{et}>, %b: tensor<{et}>) -> tensor<3x3x5x{et}> {{
  %0 = "hlo.reduce_window"(%a, %b) {{base_dilations = array<i64: 2, 1, 2>, kind = "mul", padding = dense<[[0, 2], [2, 0], [0, 2]]> : tensor<3x2xi64>, window_dilations = array<i64: 1, 2, 1>, window_dimensions = array<i64: 1, 2, 1>}} : (tensor<1x3x2x{et}>, tensor<{et}>) -> tensor<3x3x5x{et}>
  return %0 : tensor<3x3x5x{et}>
}}"""
    x = np.array([-1, -4502, -1, 0, -1, 1700092], dtype).reshape(1, 3, 2)
    if dtype == np.float32:
        x = np.random.default_rng(31).standard_normal((1, 3, 2)).astype(dtype)
    _agree(text, x, np.array(17, dtype))


def test_atan2_of_zero_constants_folds_to_nan():
    text = """func.func @main() -> tensor<1xf32> {
  %0 = "hlo.constant"() {value = dense<0.000000e+00> : tensor<1xf32>} : () -> tensor<1xf32>
  %1 = "hlo.atan2"(%0, %0) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  return %1 : tensor<1xf32>
}"""
    assert reference.run(text)[0] == 0.0
    _agree(text, tolerance=("transcendental",))


@pytest.mark.parametrize("et,dtype", [("f16", np.float16), ("f32", np.float32), ("f64", np.float64)])
@pytest.mark.parametrize("sy,sx", [(1.0, 1.0), (-1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)])
def test_atan2_of_zeros_folded_after_lowering(et, dtype, sy, sx):
    """`--seed 31`: atan2(iota, iota) at O2 was NaN: the iota folds to zeros only in linalg,
    where upstream's math.atan2 folder answers NaN for two zeros (C and numpy: +-0 or
    +-pi by the signs). Signed zeros here come from iota * -1."""
    text = f"""func.func @main() -> tensor<1x{et}> {{
  %i = "hlo.iota"() {{iota_dimension = 0 : i64}} : () -> tensor<1x{et}>
  %a = "hlo.constant"() {{value = dense<{sy}> : tensor<1x{et}>}} : () -> tensor<1x{et}>
  %b = "hlo.constant"() {{value = dense<{sx}> : tensor<1x{et}>}} : () -> tensor<1x{et}>
  %y = "hlo.multiply"(%i, %a) : (tensor<1x{et}>, tensor<1x{et}>) -> tensor<1x{et}>
  %x = "hlo.multiply"(%i, %b) : (tensor<1x{et}>, tensor<1x{et}>) -> tensor<1x{et}>
  %r = "hlo.atan2"(%y, %x) : (tensor<1x{et}>, tensor<1x{et}>) -> tensor<1x{et}>
  return %r : tensor<1x{et}>
}}"""
    want = np.arctan2(np.array([0.0 * sy], dtype), np.array([0.0 * sx], dtype))
    got = np.asarray(mlc_compile(text)())
    np.testing.assert_array_equal(got, want)
    assert np.signbit(got[0]) == np.signbit(want[0])
    _agree(text, tolerance=("transcendental",))


# (function, JAX 0.10.2's (dtype, weak_type) of its result, stored)
_WEAK_CASES = [
    (lambda x: mnp.remainder(mnp.add(x, 0), 2), ("int32", True)),
    (lambda x: mnp.floor_divide(mnp.add(x, 0), 2), ("int32", True)),
    (lambda x: mnp.where(x, 1, 2), ("int32", True)),
    (lambda x: mnp.where(x, 1, np.int32(2)), ("int32", False)),
    (lambda x: mnp.where(x, 1.0, 2), ("float32", True)),
]


@pytest.mark.parametrize("case", range(len(_WEAK_CASES)))
def test_where_and_remainder_keep_weak_types(case):
    """`--seed 37`: remainder(bool + 0, 2) was strongly typed (JAX: weak int32): its
    sign fix-up's where() dropped the weak flag both branches had."""
    fn, (dtype, weak) = _WEAK_CASES[case]
    lowered = mlc.jit(fn).lower(np.zeros((2, 3), bool))
    assert list(lowered.out_weak) == [weak]
    assert str(np.asarray(mlc.jit(fn)(np.zeros((2, 3), bool))).dtype) == dtype


def test_empty_op_name_aborts():
    prog = (
        "import mlc\n"
        "text = '''func.func @main(%a: tensor<2xi32>) -> tensor<2xi32> {\n"
        "  %1 = \"hlo.\"(%a) : (tensor<2xi32>) -> tensor<2xi32>\n"
        "  return %1 : tensor<2xi32>\n}'''\n"
        "try:\n    mlc.compile(text)\nexcept mlc.CompileError:\n    pass\n")
    result = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-500:]


def test_numpy_abs_of_bool():
    x = np.array([True, False])
    np.testing.assert_array_equal(mlc.jit(mnp.abs)(x), np.abs(x))


def test_numpy_concatenate_zero_size():
    x = np.zeros((0, 0), np.uint8)
    got = mlc.jit(lambda v: mnp.concatenate([v, v], axis=1))(x)
    np.testing.assert_array_equal(got, np.concatenate([x, x], axis=1))


def test_zero_size_pad_with_crop():
    text = """func.func @main(%a: tensor<0x3xf32>, %p: tensor<f32>) -> tensor<0x3xf32> {
  %1 = "hlo.pad"(%a, %p) {edge_padding_high = array<i64: -2, 3>, edge_padding_low = array<i64: 2, -3>, interior_padding = array<i64: 1, 0>} : (tensor<0x3xf32>, tensor<f32>) -> tensor<0x3xf32>
  return %1 : tensor<0x3xf32>
}"""
    _agree(text, np.zeros((0, 3), np.float32), np.array(1.0, np.float32))


def test_reduce_window_empty_operand_drops_init():
    """Every window is padding: upstream's elementwise fusion folds the init-filled input into
    the body as a scalar, and upstream's vectorizer then combined that loop-invariant scalar
    once instead of once per window element (9 = 3*3 for 27). mlc-vectorize now leaves such
    reductions scalar."""
    text = """func.func @main(%a: tensor<0xi32>, %b: tensor<i32>) -> tensor<1xi32> {
  %1 = "hlo.reduce_window"(%a, %b) {kind = "mul", padding = dense<[[1, 1]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>} : (tensor<0xi32>, tensor<i32>) -> tensor<1xi32>
  return %1 : tensor<1xi32>
}"""
    a, init = np.zeros(0, np.int32), np.array(3, np.int32)
    assert reference.run(text, a, init).tolist() == [27]
    _agree(text, a, init)


@pytest.mark.parametrize("kind, expected", [("mul", 81), ("add", 12), ("max", 3)])
def test_reduce_of_a_padded_empty_operand(kind, expected):
    """The same class through hlo.reduce: a pad of an empty operand is a fill, the fill is
    folded into the reduction's body, and the vectorized reduction combined it once (mul: 9)."""
    text = f"""func.func @main(%a: tensor<0xi32>, %b: tensor<i32>) -> tensor<i32> {{
  %0 = "hlo.pad"(%a, %b) {{edge_padding_high = array<i64: 2>, edge_padding_low = array<i64: 1>, interior_padding = array<i64: 0>}} : (tensor<0xi32>, tensor<i32>) -> tensor<3xi32>
  %1 = "hlo.reduce"(%0, %b) {{kind = "{kind}", dimensions = array<i64: 0>}} : (tensor<3xi32>, tensor<i32>) -> tensor<i32>
  return %1 : tensor<i32>
}}"""
    a, init = np.zeros(0, np.int32), np.array(3, np.int32)
    assert reference.run(text, a, init).tolist() == expected
    _agree(text, a, init)


@pytest.mark.parametrize("shapes, axis", [(((0, 3), (2, 3)), 0), (((2, 0), (2, 0)), 1), (((0, 0), (0, 0)), 0),
                                          (((2, 3), (0, 3), (1, 3)), 0)])
def test_numpy_concatenate_with_empty_pieces(shapes, axis):
    arrays = [np.arange(int(np.prod(s)), dtype=np.float32).reshape(s) for s in shapes]
    got = mlc.jit(lambda *xs: mnp.concatenate(list(xs), axis=axis))(*arrays)
    np.testing.assert_array_equal(got, np.concatenate(arrays, axis=axis))


def test_pad_of_an_empty_operand_into_a_nonempty_result():
    """Found by `python -m mlc.fuzz` (seed 4): the pad lowering inserted the empty operand at
    an offset equal to a padded size, which tensor's verifier rejects."""
    text = """func.func @main(%arg0: tensor<0x5x0xf16>) -> tensor<2x9x1xf16> {
  %0 = "hlo.constant"() {value = dense<1.000000e+00> : tensor<f16>} : () -> tensor<f16>
  %1 = "hlo.pad"(%arg0, %0) {edge_padding_high = array<i64: 1, 2, 0>, edge_padding_low = array<i64: 1, -6, 1>, interior_padding = array<i64: 2, 2, 2>} : (tensor<0x5x0xf16>, tensor<f16>) -> tensor<2x9x1xf16>
  return %1 : tensor<2x9x1xf16>
}"""
    _agree(text, np.zeros((0, 5, 0), np.float16))


def test_strided_convolution_with_input_tail():
    """Found by `python -m mlc.fuzz` (seed 4): the last strided window ends before the padded
    input does, and upstream's unit-dim folding then built a generic with mismatched operand
    sizes. The lowering now reads only the covered extent."""
    text = """func.func @main(%arg1: tensor<2x4x1xf32>, %arg2: tensor<2x2x4xf32>) -> tensor<2x4x1xf32> {
  %1 = "hlo.convolution"(%arg1, %arg2) {batch_group_count = 2 : i64, feature_group_count = 1 : i64, input_batch_dimension = 1 : i64, input_feature_dimension = 0 : i64, input_spatial_dimensions = array<i64: 2>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 2 : i64, kernel_spatial_dimensions = array<i64: 0>, lhs_dilation = array<i64: 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 1 : i64, output_spatial_dimensions = array<i64: 2>, padding = dense<[[2, 0]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_strides = array<i64: 2>} : (tensor<2x4x1xf32>, tensor<2x2x4xf32>) -> tensor<2x4x1xf32>
  return %1 : tensor<2x4x1xf32>
}"""
    rng = np.random.default_rng(0)
    _agree(text, rng.standard_normal((2, 4, 1)).astype(np.float32),
           rng.standard_normal((2, 2, 4)).astype(np.float32), tolerance=("sum",))


def test_strided_integer_convolution_2d_with_input_tail():
    """The same class without padding, in 2-D: one output row (stride 4, 2-row kernel) reads
    rows 0-1 of 5. Integer convolutions take the generic path (floats go through im2col)."""
    text = """func.func @main(%x: tensor<1x2x5x6xi32>, %w: tensor<3x2x2x2xi32>) -> tensor<1x3x1x3xi32> {
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 1 : i64, input_spatial_dimensions = array<i64: 2, 3>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 0 : i64, kernel_spatial_dimensions = array<i64: 2, 3>, output_batch_dimension = 0 : i64, output_feature_dimension = 1 : i64, output_spatial_dimensions = array<i64: 2, 3>, window_strides = array<i64: 4, 2>, padding = dense<0> : tensor<2x2xi64>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x2x5x6xi32>, tensor<3x2x2x2xi32>) -> tensor<1x3x1x3xi32>
  return %0 : tensor<1x3x1x3xi32>
}"""
    rng = np.random.default_rng(1)
    _agree(text, rng.integers(-8, 8, (1, 2, 5, 6), dtype=np.int32),
           rng.integers(-8, 8, (3, 2, 2, 2), dtype=np.int32))  # integers: exact


# jax 0.10.2 with jax_enable_x64 (MLC's promotion: 64-bit types on), run in a separate
# process: (dtype, weak_type) of each function of two arrays x, y.
_JAX_WEAK_64 = [
    ("y + (y + x)", np.uint64, np.int32, "float64", True),   # found by mlc.fuzz (seed 4)
    ("(x + 1.0) + y", np.int64, np.int8, "float64", True),
    ("(x + 1.0) + y", np.uint64, np.int32, "float64", True),
    ("(x + 1.0) + y", np.int64, np.float16, "float16", False),
    ("(x + y) * 2", np.uint64, np.int64, "float64", True),
    ("(x + y) + np.float32(1)", np.uint64, np.int64, "float32", False),
]


@pytest.mark.parametrize("expr, xt, yt, dtype, weak", _JAX_WEAK_64)
def test_weak_64_bit_value_keeps_64_bits(expr, xt, yt, dtype, weak):
    """u64 + i32 is a weak f64 (its bound is float*, widened by the 64-bit array); mixing it
    with an i32 array lands on float* again, which JAX keeps at f64 where MLC gave the
    default float32 (only strong 64-bit operands counted as wide)."""
    f = eval(f"lambda x, y: {expr}")
    x, y = np.array([5], xt), np.array([3], yt)
    lowered = mlc.jit(f).lower(x, y)
    got = mlc.jit(f)(x, y)
    assert (str(got.dtype), lowered.out_weak[0]) == (dtype, weak)


def test_numpy_square_of_bool_is_the_default_int():
    """jnp.square of a bool array is int32 in jax 0.10.2 ([1, 0] for [True, False]); MLC
    multiplied the bools (logical and) and kept bool. Found once the numpy fuzzer's bool
    unary steps took abs and square."""
    x = np.array([True, False])
    got = mlc.jit(mnp.square)(x)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, [1, 0])


@pytest.mark.parametrize("fn", ["max", "min"])
def test_numpy_max_of_empty_array_over_a_nonempty_axis(fn):
    """Found by `python -m mlc.fuzz` (first long run, left open): max over the size-2 axis of a
    (3, 2, 0) array is a (3, 0) array in numpy and JAX; MLC refused any zero-size operand.
    Only an empty *reduced* axis has no identity."""
    x = np.zeros((3, 2, 0), np.uint16)
    got = mlc.jit(lambda v: getattr(mnp, fn)(v, axis=-2))(x)
    assert got.shape == (3, 0) and got.dtype == np.uint16
    with pytest.raises(ValueError, match="no identity"):
        mlc.jit(lambda v: getattr(mnp, fn)(v, axis=2))(x)


def test_numpy_oracle_takes_the_weak_flag_of_the_previous_step():
    """The numpy fuzzer's own oracle: i32 + 1.0 is a weak f32 (jax 0.10.2: weak), and adding
    an f16 array then gives f16; the oracle treated the previous value as a strong f32 array
    and expected f32. It now checks and carries the weak flag MLC reports."""
    from mlc.fuzz.numpy_programs import NumpyProgram, Step, check_numpy_program
    x, y = np.array([1, -2], np.int32), np.array([0.5, 2.0], np.float16)
    steps = [Step("binary", "add", {"other": 1.0, "swap": False}),
             Step("binary", "add", {"other": "input", "swap": False})]
    assert check_numpy_program(NumpyProgram([x, y], steps)) is None
    got = mlc.jit(lambda a, b: (a + 1.0) + b)(x, y)
    assert got.dtype == np.float16


_F16_PRODUCT = """func.func @main(%a: tensor<2xf16>) -> tensor<f16> {
  %0 = "hlo.constant"() {value = dense<0.0> : tensor<f16>} : () -> tensor<f16>
  %1 = "hlo.reduce"(%a, %0) {dimensions = array<i64: 0>, kind = "mul"} : (tensor<2xf16>, tensor<f16>) -> tensor<f16>
  return %1 : tensor<f16>
}"""


def test_product_whose_order_decides_nan_is_not_checked():
    """Oracle fix (fuzz seed 43): 0 * -65504 * 2.494 in f16 is -0.0 from the left and NaN
    (-inf * 0) from the right; reduce's order is unspecified, so either passes. The
    element is skipped because prod(max(|x|, 1)) overflows, not because M = prod(|x|) is NaN."""
    _agree(_F16_PRODUCT, np.array([-65504.0, 2.494], np.float16), tolerance=("sum",))


def test_product_of_a_nan_must_be_nan():
    from mlc.fuzz.compare import compare
    # M and B NaN (a NaN term): the result must be NaN in any order.
    nan = np.float16(np.nan)
    assert compare([np.float16(0.0)], [nan], ["sum"], [nan], 3, [nan]) is not None
    # B overflows: inf or NaN or 0 are all a possible order's result.
    assert compare([np.float16(0.0)], [nan], ["sum"], [nan], 3, [np.float16(np.inf)]) is None
    # No overflow: a wrong finite product is still caught.
    two = np.float16(2.0)
    assert compare([np.float16(1.5)], [two], ["sum"], [two], 3, [two]) is not None


_DILATED_CONV = """func.func @main(%x: tensor<5x2x2xf32>, %w: tensor<1x2x2xf32>) -> tensor<6x2x2xf32> {
  %0 = "hlo.convolution"(%x, %w) {batch_group_count = 1 : i64, feature_group_count = 1 : i64, input_batch_dimension = 1 : i64, input_feature_dimension = 2 : i64, input_spatial_dimensions = array<i64: 0>, kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 1 : i64, kernel_spatial_dimensions = array<i64: 0>, lhs_dilation = array<i64: 1>, output_batch_dimension = 1 : i64, output_feature_dimension = 2 : i64, output_spatial_dimensions = array<i64: 0>, padding = dense<[[1, 0]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 2>, window_strides = array<i64: 1>} : (tensor<5x2x2xf32>, tensor<1x2x2xf32>) -> tensor<6x2x2xf32>
  return %0 : tensor<6x2x2xf32>
}"""


def test_short_reduction_into_a_transposed_output_does_not_hang():
    """Fuzz seed 53: this 1-D convolution (spatial-major layouts, 2 input features) hung -O2
    in mlc-vectorize: upstream's cleanup patterns rewrote the transposed unit-vector write of
    its 2-element reduction forever. Run in a child so a regression fails instead of hanging."""
    prog = (
        "import numpy as np\n"
        "from mlc.fuzz.compare import check_hlo\n"
        f"text = '''{_DILATED_CONV}'''\n"
        "rng = np.random.default_rng(53)\n"
        "x = rng.standard_normal((5, 2, 2)).astype(np.float32)\n"
        "w = rng.standard_normal((1, 2, 2)).astype(np.float32)\n"
        "assert check_hlo(text, [x, w], ['sum'], 3) is None\n")
    _passes_in_a_child(prog)


@pytest.mark.parametrize("dtype", ["ui8", "ui16", "ui32", "ui64"])
def test_abs_of_a_negated_unsigned_value(dtype):
    """Fuzz seed 59: hlo-simplify's abs(-x) -> abs(x) is wrong for unsigned x (abs is the
    identity, -x wraps): negate(abs(negate(x))) must give x back, at every level."""
    text = f"""func.func @main(%a: tensor<5x{dtype}>) -> (tensor<5x{dtype}>, tensor<5x{dtype}>) {{
  %0 = "hlo.negate"(%a) : (tensor<5x{dtype}>) -> tensor<5x{dtype}>
  %1 = "hlo.abs"(%0) : (tensor<5x{dtype}>) -> tensor<5x{dtype}>
  %2 = "hlo.negate"(%1) : (tensor<5x{dtype}>) -> tensor<5x{dtype}>
  return %1, %2 : tensor<5x{dtype}>, tensor<5x{dtype}>
}}"""
    x = np.array([0, 1, 2, 7, np.iinfo(dtype.replace("ui", "uint")).max], dtype=dtype.replace("ui", "uint"))
    _agree(text, x, tolerance=("exact", "exact"))
    np.testing.assert_array_equal(mlc.compile(text)(x)[1], x)


@pytest.mark.parametrize("dtype,init", [("i32", 1), ("i32", 6), ("i8", 1), ("ui16", 1)])
def test_and_over_no_dimensions_from_a_non_identity(dtype, init):
    """Fuzz seed 61: reduce(x, 1, dimensions = [], "and") on i32 is x & 1, but hlo-simplify
    took 1 for the identity (Python's 1 == True) and returned x at -O2."""
    text = f"""func.func @main(%a: tensor<2x5x{dtype}>) -> tensor<2x5x{dtype}> {{
  %0 = "hlo.constant"() {{value = dense<{init}> : tensor<{dtype}>}} : () -> tensor<{dtype}>
  %1 = "hlo.reduce"(%a, %0) {{dimensions = array<i64>, kind = "and"}} : (tensor<2x5x{dtype}>, tensor<{dtype}>) -> tensor<2x5x{dtype}>
  return %1 : tensor<2x5x{dtype}>
}}"""
    np_dtype = {"i32": np.int32, "i8": np.int8, "ui16": np.uint16}[dtype]
    x = np.arange(10, dtype=np_dtype).reshape(2, 5) * np_dtype(3)
    _agree(text, x)
    np.testing.assert_array_equal(mlc.compile(text)(x), x & np_dtype(init))


@pytest.mark.parametrize("index", [0, 1, -3, 5])
def test_gather_of_a_value_merged_with_its_other_consumer(index):
    """Fuzz run 16: x + y feeds a clamp and a gather, both multiplied. mlc-fuse-kernels
    merged the add, the clamp, and the gather's loop (whose body reads x + y with
    tensor.extract) into one generic, which then read its own result: a dominance error at
    -O2. Merging now skips a loop whose body reads the other loop's results itself."""
    text = """func.func @main(%a: tensor<2xui32>, %b: tensor<2xui32>, %i: tensor<1xi8>, %lo: tensor<2xui32>, %hi: tensor<ui32>) -> tensor<2xui32> {
  %0 = "hlo.add"(%a, %b) : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xui32>
  %1 = "hlo.gather"(%0, %i) {collapsed_slice_dims = array<i64>, index_vector_dim = 0 : i64, offset_dims = array<i64: 0>, slice_sizes = array<i64: 2>, start_index_map = array<i64: 0>} : (tensor<2xui32>, tensor<1xi8>) -> tensor<2xui32>
  %2 = "hlo.clamp"(%lo, %0, %hi) : (tensor<2xui32>, tensor<2xui32>, tensor<ui32>) -> tensor<2xui32>
  %3 = "hlo.multiply"(%1, %2) : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xui32>
  return %3 : tensor<2xui32>
}"""
    rng = np.random.default_rng(16 + index)
    a, b, lo = (rng.integers(0, 1000, 2).astype(np.uint32) for _ in range(3))
    _agree(text, a, b, np.array([index], np.int8), lo, np.uint32(900))


@pytest.mark.parametrize("dtype,name", [(np.uint64, "ui64"), (np.int32, "i32"), (np.float32, "f32")])
def test_window_reduction_over_a_strided_padded_view(dtype, name):
    """Fuzz run 26: a reduce_window over a padded, base-dilated operand of size 0 reduces a
    3 x 5 window of a view of its padded temporary (memref<3x5, strided<[5, 1]>>);
    mlc-vectorize collapsed the window's two loops into one and typed the collapsed view
    with an identity layout, which memref.collapse_shape refuses for a strided source
    (its strides being the identity's or not): a compile error at -O2."""
    kind = "and" if name != "f32" else "max"
    text = f"""func.func @main(%a: tensor<0x0x3x{name}>, %i: tensor<{name}>) -> tensor<1x1x1x{name}> {{
  %1 = "hlo.reduce_window"(%a, %i) {{base_dilations = array<i64: 2, 2, 2>, kind = "{kind}", padding = dense<[[1, 1], [2, 2], [0, 0]]> : tensor<3x2xi64>, window_dilations = array<i64: 2, 1, 1>, window_dimensions = array<i64: 1, 3, 5>, window_strides = array<i64: 2, 3, 1>}} : (tensor<0x0x3x{name}>, tensor<{name}>) -> tensor<1x1x1x{name}>
  return %1 : tensor<1x1x1x{name}>
}}"""
    _agree(text, np.zeros((0, 0, 3), dtype), np.array(7, dtype))


@pytest.mark.parametrize("name,dtype", [("i16", np.int16), ("f32", np.float32), ("f64", np.float64)])
@pytest.mark.parametrize("n", [1, 5, 33])
def test_product_of_a_scalar_and_a_vector_without_contraction(name, dtype, n):
    """Fuzz run 30: a dot_general with no contracting dims (an outer product of a scalar
    and a vector) failed to lower (max() of no contracting dims) when the vector-matrix
    rule of this session asked whether the contraction could go outside."""
    text = f"""func.func @main(%a: tensor<{name}>, %b: tensor<{n}x{name}>) -> tensor<{n}x{name}> {{
  %0 = "hlo.dot_general"(%a, %b) {{lhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, rhs_contracting_dimensions = array<i64>}} : (tensor<{name}>, tensor<{n}x{name}>) -> tensor<{n}x{name}>
  return %0 : tensor<{n}x{name}>
}}"""
    rng = np.random.default_rng(n)
    _agree(text, np.array(3, dtype), (rng.standard_normal(n) * 9).astype(dtype))


def test_product_with_a_subnormal_partial_product_is_not_checked():
    """Oracle fix (fuzz run 28): f64 reduce_window mul over -1, -1.44, 2.2e-308, -4.2e-3 and
    init values: an order that multiplies 2.2e-308 by 4.2e-3 first goes subnormal and keeps
    fewer bits, so two orders differ by more than 2 * eps * terms relative (1.06e-15 here).
    Such an element (0 < prod(min(|x|, 1)) < the smallest normal) is not checked; one whose
    partial products all stay normal still is."""
    from mlc.fuzz.compare import _unless_subnormal, magnitudes
    text = """func.func @main(%a: tensor<4xf64>) -> tensor<f64> {
  %i = "hlo.constant"() {value = dense<1.0> : tensor<f64>} : () -> tensor<f64>
  %r = "hlo.reduce"(%a, %i) {dimensions = array<i64: 0>, kind = "mul"} : (tensor<4xf64>, tensor<f64>) -> tensor<f64>
  return %r : tensor<f64>
}"""
    tiny = np.finfo(np.float64).tiny
    low = np.array([-1.0, -1.44, tiny, -4.2e-3])
    floor = magnitudes(text, [low], product_bound="floor")[0]
    assert 0 < floor < tiny and np.isinf(_unless_subnormal(np.float64(1.0), floor))
    normal = np.array([-1.0, -1.44, 2.0, -4.2e-3])
    floor = magnitudes(text, [normal], product_bound="floor")[0]
    assert _unless_subnormal(np.float64(1.0), floor) == 1.0
    _agree(text, low, tolerance=("sum",))
    _agree(text, normal, tolerance=("sum",))


def test_convolution_whose_transposed_kernel_has_a_dim_between_its_tile_loops():
    """Fuzz run 31: a base-dilated convolution with permuted dims; its lowering's last kernel
    writes out[d1, d0, d2] from in[d0, d2, d1]. mlc-vectorize tiled loops d1 and d2 (4 x 4
    tiles of 64-bit elements at 256 bits), with d0 between them in the output, and upstream's
    transfer patterns undid each other: the compile never ended. At 256 and 512 bits (which
    tile matches depends on the vector width, not on this host), three element types,
    against the reference interpreter; in a child, so a regression fails instead of hanging."""
    prog = (
        "import numpy as np\n"
        "import mlc\n"
        "from mlc import reference\n"
        "for et, dtype in [('i64', np.int64), ('f64', np.float64), ('i32', np.int32)]:\n"
        f"    text = '''{_PERMUTED_DILATED_CONV}'''.replace('ET', et)\n"
        "    rng = np.random.default_rng(31)\n"
        "    x = rng.integers(-50, 50, (2, 2, 1, 3)).astype(dtype)\n"
        "    w = np.array(-3, dtype).reshape(1, 1, 1, 1)\n"
        "    for bits in (256, 512):\n"
        "        compiled = mlc.compile(text, options=mlc.CompileOptions(vector_bits=bits))\n"
        "        np.testing.assert_array_equal(compiled(x, w), reference.run(text, x, w))\n")
    _passes_in_a_child(prog)


_PERMUTED_DILATED_CONV = """func.func @main(%x: tensor<2x2x1x3xET>, %w: tensor<1x1x1x1xET>) -> tensor<6x2x6x1xET> {
  %0 = "hlo.convolution"(%x, %w) {batch_group_count = 1 : i64, feature_group_count = 1 : i64, input_batch_dimension = 0 : i64, input_feature_dimension = 2 : i64, input_spatial_dimensions = array<i64: 3, 1>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = array<i64: 2, 0>, lhs_dilation = array<i64: 2, 2>, output_batch_dimension = 1 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 0, 2>, padding = dense<[[1, 0], [2, 1]]> : tensor<2x2xi64>, rhs_dilation = array<i64: 2, 1>, window_strides = array<i64: 1, 1>} : (tensor<2x2x1x3xET>, tensor<1x1x1x1xET>) -> tensor<6x2x6x1xET>
  return %0 : tensor<6x2x6x1xET>
}"""


def test_integer_power_in_a_module_compiled_in_parts(monkeypatch):
    """Fuzz run 33: at -O0 on two threads the module was cut in parts, and the part without
    the outlined integer power (`define linkonce_odr @__mlir_math_ipowi_i16`) declared it
    with that linkage: LLVM refused the part ('invalid linkage for function declaration').
    Here every module of more than a few lines is cut, at -O0 and -O2."""
    from mlc.runtime import llvm_backend
    monkeypatch.setattr(llvm_backend, "SPLIT_MIN_PART", 20)
    text = """func.func @main(%a: tensor<3x8xui16>, %x: tensor<8x5xf64>, %y: tensor<8x1xf64>) -> (tensor<8x5x1xf64>, tensor<3x8xi32>) {
  %0 = "hlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<3x8xui16>
  %1 = "hlo.power"(%0, %a) : (tensor<3x8xui16>, tensor<3x8xui16>) -> tensor<3x8xui16>
  %2 = "hlo.argsort"(%1) {dimension = 1 : i64} : (tensor<3x8xui16>) -> tensor<3x8xi32>
  %3 = "hlo.dot_general"(%x, %y) {lhs_batching_dimensions = array<i64: 0>, lhs_contracting_dimensions = array<i64>, rhs_batching_dimensions = array<i64: 0>, rhs_contracting_dimensions = array<i64>} : (tensor<8x5xf64>, tensor<8x1xf64>) -> tensor<8x5x1xf64>
  return %3, %2 : tensor<8x5x1xf64>, tensor<3x8xi32>
}"""
    rng = np.random.default_rng(33)
    a = rng.integers(0, 5, (3, 8)).astype(np.uint16)
    x, y = rng.standard_normal((8, 5)), rng.standard_normal((8, 1))
    want = reference.run(text, a, x, y)
    for opt_level in (0, 2):
        compiled = mlc.compile(text, options=mlc.CompileOptions(threads=2, opt_level=opt_level))
        got = compiled(a, x, y)
        np.testing.assert_allclose(got[0], want[0], rtol=1e-12)
        np.testing.assert_array_equal(got[1], want[1])
