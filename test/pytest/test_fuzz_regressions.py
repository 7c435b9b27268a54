"""Minimized reproducers of the bugs mlc.fuzz found (test_fuzz.py, python -m mlc.fuzz).

Each test compares compiled MLC with mlc.reference.run (or numpy) on the minimized program.
`xfail(strict=True)` marks a bug in MLC's compiler: fix it, then drop the mark (and the
matching KNOWN_BUGS entry of test_fuzz.py).
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp
from mlc import reference
from mlc.fuzz.compare import check_hlo


def _agree(text, *inputs, tolerance=("exact",)):
    assert check_hlo(text, list(inputs), list(tolerance)) is None


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


def test_atan2_of_zero_constants_folds_to_nan():
    text = """func.func @main() -> tensor<1xf32> {
  %0 = "hlo.constant"() {value = dense<0.000000e+00> : tensor<1xf32>} : () -> tensor<1xf32>
  %1 = "hlo.atan2"(%0, %0) : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  return %1 : tensor<1xf32>
}"""
    assert reference.run(text)[0] == 0.0
    _agree(text, tolerance=("transcendental",))


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


@pytest.mark.xfail(strict=True, reason="reduce_window over a zero-size operand (every window is padding) "
                   "is wrong at the default level only: init=3, kind mul, a 2-wide window gives 9 (3*3) "
                   "where the documented rule and opt_level=0 give 27 (init combined with two pads "
                   "filled with init); some O2 rewrite of empty-operand reduce_window drops the initial "
                   "init value (add: 6 instead of 9)")
def test_reduce_window_empty_operand_drops_init():
    text = """func.func @main(%a: tensor<0xi32>, %b: tensor<i32>) -> tensor<1xi32> {
  %1 = "hlo.reduce_window"(%a, %b) {kind = "mul", padding = dense<[[1, 1]]> : tensor<1x2xi64>, window_dimensions = array<i64: 2>} : (tensor<0xi32>, tensor<i32>) -> tensor<1xi32>
  return %1 : tensor<1xi32>
}"""
    a, init = np.zeros(0, np.int32), np.array(3, np.int32)
    assert reference.run(text, a, init).tolist() == [27]
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


@pytest.mark.xfail(strict=True, reason="a strided convolution whose last window leaves an input tail "
                   "(padding [[2, 0]], stride 2) fails at -O2: upstream's unit-dim folding builds a "
                   "linalg.generic with mismatched operand sizes (the reduce_window case, fixed by "
                   "slicing the input to what the windows read, has the same cause)")
def test_strided_convolution_with_input_tail():
    """Found by `python -m mlc.fuzz` (seed 4)."""
    text = """func.func @main(%arg1: tensor<2x4x1xf32>, %arg2: tensor<2x2x4xf32>) -> tensor<2x4x1xf32> {
  %1 = "hlo.convolution"(%arg1, %arg2) {batch_group_count = 2 : i64, feature_group_count = 1 : i64, input_batch_dimension = 1 : i64, input_feature_dimension = 0 : i64, input_spatial_dimensions = array<i64: 2>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 2 : i64, kernel_spatial_dimensions = array<i64: 0>, lhs_dilation = array<i64: 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 1 : i64, output_spatial_dimensions = array<i64: 2>, padding = dense<[[2, 0]]> : tensor<1x2xi64>, rhs_dilation = array<i64: 1>, window_strides = array<i64: 2>} : (tensor<2x4x1xf32>, tensor<2x2x4xf32>) -> tensor<2x4x1xf32>
  return %1 : tensor<2x4x1xf32>
}"""
    rng = np.random.default_rng(0)
    _agree(text, rng.standard_normal((2, 4, 1)).astype(np.float32),
           rng.standard_normal((2, 2, 4)).astype(np.float32), tolerance=("sum",))
