"""Hand-written StableHLO programs for tools/gen_stablehlo_fixtures.py: ops JAX does not
emit on CPU (or not in this form). Each is (name, text, inputs); the generator prints the
text in both forms with jax's MLIR bindings and stores XLA's outputs for it. A text may be
a pair (program, reference): XLA runs the reference (the same program without the ops it
cannot translate)."""

from __future__ import annotations

import numpy as np


def handwritten():
    rng = np.random.default_rng(16)

    def f32(*shape, lo=-2.0, hi=2.0):
        return rng.uniform(lo, hi, shape).astype(np.float32)

    yield "tuples", TUPLES, (f32(2), f32(2), np.int32(7))
    yield "batch_norm", BATCH_NORM, (f32(4, 3, 2), f32(3), f32(3), f32(3), f32(3, lo=0.5, hi=2.0), f32(4, 3, 2))
    yield "dynamic_static_operands", DYNAMIC, (f32(4, 5), np.float32(-1.5), f32(1, 5, 5, 2), f32(3, 3, 2, 3))
    conv = DYNAMIC.replace(DYNAMIC_CONV[0], DYNAMIC_CONV[1])
    yield "dynamic_conv", (conv, DYNAMIC), (f32(4, 5), np.float32(-1.5), f32(1, 5, 5, 2), f32(3, 3, 2, 3))
    yield "general_map", GENERAL_MAP, (f32(3, 4), f32(3, 4))
    yield "scatter_variadic", SCATTER_VARIADIC, (f32(5, 3), np.arange(15, dtype=np.int32).reshape(5, 3), np.array([[4], [0], [4], [2]], np.int32), f32(4, 3), rng.integers(-5, 5, (4, 3)).astype(np.int32))
    yield "scatter_batched", SCATTER_BATCHED, (f32(2, 5), np.array([[1, 3], [4, 4]], np.int32), f32(2, 2))
    yield "sort_three", SORT_THREE, (rng.integers(0, 3, (2, 9)).astype(np.int32), f32(2, 9), rng.integers(0, 100, (2, 9)).astype(np.int32))
    yield "rng_variants", RNG_VARIANTS, (np.array([5, 0xFFFFFFFFFFFFFFFE, 3], np.uint64), np.array([9, 0xFFFFFFFFFFFFFFFF], np.uint64))
    yield "bitcast_widths", BITCAST, (f32(3, 2), np.array([1.5, -2.0, np.inf], np.float64))
    yield "reduce_precision_f64", REDUCE_PRECISION_F64, (np.array([1.0 + 2.0 ** -30, 1e300, -1e-300, 3.0, np.nan, 1e-310], np.float64),)
    yield "linalg_upper", LINALG_UPPER, (_spd(rng, 3), f32(3, 2))
    yield "select_and_scatter_padded", SELECT_AND_SCATTER_PADDED, (f32(5, 6), f32(3, 3))
    yield "reduce_window_general", REDUCE_WINDOW_GENERAL, (f32(4, 5), f32(4, 5))
    yield "conv_window_reversal", CONV_REVERSAL, (f32(1, 5, 4, 2), f32(3, 2, 2, 3))
    yield "reduce_window_large", REDUCE_WINDOW_LARGE, (f32(20, 19),)
    yield "select_and_scatter_large", SELECT_AND_SCATTER_LARGE, (f32(18, 20), f32(2, 3), f32(2, 2))
    yield "chlo_misc", CHLO_MISC, (np.array([1.0, np.inf, -np.inf, np.nan, -0.0], np.float32), f32(5), np.float32(2.5))
    yield "f64_functions", F64_FUNCTIONS, (rng.uniform(-7.5, 30.0, 12), rng.uniform(-0.99, 0.99, 12), _spd(rng, 4).astype(np.float64), rng.uniform(-1, 1, (4, 2)))


def _spd(rng, n):
    m = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    return (m @ m.T + n * np.eye(n)).astype(np.float32)


TUPLES = """
func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>, %i: tensor<i32>) -> (tensor<2xf32>, tensor<i32>) {
  %t = "stablehlo.tuple"(%a, %b, %i) : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>
  %n = "stablehlo.tuple"(%t, %i) : (tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>) -> tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>
  %r = func.call @combine(%n) : (tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>) -> tuple<tensor<2xf32>, tensor<i32>>
  %x = "stablehlo.get_tuple_element"(%r) {index = 0 : i32} : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
  %y = "stablehlo.get_tuple_element"(%r) {index = 1 : i32} : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
  return %x, %y : tensor<2xf32>, tensor<i32>
}
func.func private @combine(%n: tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>) -> tuple<tensor<2xf32>, tensor<i32>> {
  %t = "stablehlo.get_tuple_element"(%n) {index = 0 : i32} : (tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>) -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>
  %j = "stablehlo.get_tuple_element"(%n) {index = 1 : i32} : (tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>) -> tensor<i32>
  %a = "stablehlo.get_tuple_element"(%t) {index = 0 : i32} : (tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
  %b = "stablehlo.get_tuple_element"(%t) {index = 1 : i32} : (tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
  %s = stablehlo.subtract %a, %b : tensor<2xf32>
  %k = stablehlo.multiply %j, %j : tensor<i32>
  %r = "stablehlo.tuple"(%s, %k) : (tensor<2xf32>, tensor<i32>) -> tuple<tensor<2xf32>, tensor<i32>>
  return %r : tuple<tensor<2xf32>, tensor<i32>>
}
"""

BATCH_NORM = """
func.func @main(%x: tensor<4x3x2xf32>, %scale: tensor<3xf32>, %offset: tensor<3xf32>, %mean: tensor<3xf32>, %var: tensor<3xf32>, %dy: tensor<4x3x2xf32>) -> (tensor<4x3x2xf32>, tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0 = "stablehlo.batch_norm_inference"(%x, %scale, %offset, %mean, %var) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<4x3x2xf32>
  %1:3 = "stablehlo.batch_norm_training"(%x, %scale, %offset) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>)
  %2:3 = "stablehlo.batch_norm_grad"(%x, %scale, %mean, %var, %dy) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4x3x2xf32>) -> (tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0, %1#0, %1#1, %1#2, %2#0, %2#1, %2#2 : tensor<4x3x2xf32>, tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>
}
"""

DYNAMIC = """
func.func @main(%a: tensor<4x5xf32>, %p: tensor<f32>, %img: tensor<1x5x5x2xf32>, %w: tensor<3x3x2x3xf32>) -> (tensor<7x13xf32>, tensor<2x2xf32>, tensor<3x2x2xf32>, tensor<1x5x5x3xf32>, tensor<3x4xi32>, tensor<2x4x5xf32>) {
  %low = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
  %high = stablehlo.constant dense<[2, 0]> : tensor<2xi64>
  %interior = stablehlo.constant dense<[0, 2]> : tensor<2xi64>
  %0 = stablehlo.dynamic_pad %a, %p, %low, %high, %interior : (tensor<4x5xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<7x13xf32>
  %start = stablehlo.constant dense<[1, 0]> : tensor<2xi32>
  %limit = stablehlo.constant dense<[4, 4]> : tensor<2xi32>
  %stride = stablehlo.constant dense<[2, 3]> : tensor<2xi32>
  %1 = stablehlo.real_dynamic_slice %a, %start, %limit, %stride : (tensor<4x5xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xf32>
  %idx = stablehlo.constant dense<[[0], [3], [2]]> : tensor<3x1xi32>
  %sizes = stablehlo.constant dense<[2, 2]> : tensor<2xi64>
  %2 = "stablehlo.dynamic_gather"(%a, %idx, %sizes) {dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>} : (tensor<4x5xf32>, tensor<3x1xi32>, tensor<2xi64>) -> tensor<3x2x2xf32>
  %3 = stablehlo.convolution(%img, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x5x5x3xf32>
  %shape = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %4 = stablehlo.dynamic_iota %shape, dim = 1 : (tensor<2xi64>) -> tensor<3x4xi32>
  %bshape = stablehlo.constant dense<[2, 4, 5]> : tensor<3xi64>
  %5 = stablehlo.dynamic_broadcast_in_dim %a, %bshape, dims = [1, 2] : (tensor<4x5xf32>, tensor<3xi64>) -> tensor<2x4x5xf32>
  return %0, %1, %2, %3, %4, %5 : tensor<7x13xf32>, tensor<2x2xf32>, tensor<3x2x2xf32>, tensor<1x5x5x3xf32>, tensor<3x4xi32>, tensor<2x4x5xf32>
}
"""

# XLA cannot run dynamic_conv: the reference is the same program with its static form.
DYNAMIC_CONV = ("""  %3 = stablehlo.convolution(%img, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x5x5x3xf32>
""", """  %pad = stablehlo.constant dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>
  %3 = "stablehlo.dynamic_conv"(%img, %w, %pad) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x5x5x2xf32>, tensor<3x3x2x3xf32>, tensor<2x2xi64>) -> tensor<1x5x5x3xf32>
""")

GENERAL_MAP = """
func.func @main(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> tensor<3x4xf32> {
  %0 = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %c = stablehlo.constant dense<0.5> : tensor<f32>
    %gt = stablehlo.compare GT, %x, %y : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %m = stablehlo.multiply %x, %c : tensor<f32>
    %e = stablehlo.exponential %y : tensor<f32>
    %s = stablehlo.select %gt, %m, %e : tensor<i1>, tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}
"""

# Two inputs scattered together: a running (max, argmax-like index) update, index 4 twice.
SCATTER_VARIADIC = """
func.func @main(%a: tensor<5x3xf32>, %b: tensor<5x3xi32>, %i: tensor<4x1xi32>, %u: tensor<4x3xf32>, %v: tensor<4x3xi32>) -> (tensor<5x3xf32>, tensor<5x3xi32>) {
  %0:2 = "stablehlo.scatter"(%a, %b, %i, %u, %v) ({
  ^bb0(%x: tensor<f32>, %y: tensor<i32>, %ux: tensor<f32>, %uy: tensor<i32>):
    %gt = stablehlo.compare GT, %ux, %x : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %mx = stablehlo.select %gt, %ux, %x : tensor<i1>, tensor<f32>
    %sum = stablehlo.add %y, %uy : tensor<i32>
    stablehlo.return %mx, %sum : tensor<f32>, tensor<i32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<5x3xf32>, tensor<5x3xi32>, tensor<4x1xi32>, tensor<4x3xf32>, tensor<4x3xi32>) -> (tensor<5x3xf32>, tensor<5x3xi32>)
  return %0#0, %0#1 : tensor<5x3xf32>, tensor<5x3xi32>
}
"""

# Batching dims (operand dim 0 <-> indices dim 0) and a region that is not one op.
SCATTER_BATCHED = """
func.func @main(%a: tensor<2x5xf32>, %i: tensor<2x2xi32>, %u: tensor<2x2xf32>) -> tensor<2x5xf32> {
  %0 = "stablehlo.scatter"(%a, %i, %u) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = stablehlo.multiply %x, %y : tensor<f32>
    %s = stablehlo.add %m, %y : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>} : (tensor<2x5xf32>, tensor<2x2xi32>, tensor<2x2xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
"""

# Sorted by the first key descending, ties by the second ascending; the third is carried.
SORT_THREE = """
func.func @main(%k: tensor<2x9xi32>, %f: tensor<2x9xf32>, %c: tensor<2x9xi32>) -> (tensor<2x9xi32>, tensor<2x9xf32>, tensor<2x9xi32>) {
  %0:3 = "stablehlo.sort"(%k, %f, %c) ({
  ^bb0(%k0: tensor<i32>, %k1: tensor<i32>, %f0: tensor<f32>, %f1: tensor<f32>, %c0: tensor<i32>, %c1: tensor<i32>):
    %gt = stablehlo.compare GT, %k0, %k1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %eq = stablehlo.compare EQ, %k0, %k1, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %lt = stablehlo.compare LT, %f0, %f1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %tie = stablehlo.and %eq, %lt : tensor<i1>
    %r = stablehlo.or %gt, %tie : tensor<i1>
    stablehlo.return %r : tensor<i1>
  }) {dimension = 1 : i64, is_stable = true} : (tensor<2x9xi32>, tensor<2x9xf32>, tensor<2x9xi32>) -> (tensor<2x9xi32>, tensor<2x9xf32>, tensor<2x9xi32>)
  return %0#0, %0#1, %0#2 : tensor<2x9xi32>, tensor<2x9xf32>, tensor<2x9xi32>
}
"""

# PHILOX with a u64[3] state (its counter's low word about to carry), THREE_FRY into
# signed and float outputs.
RNG_VARIANTS = """
func.func @main(%s3: tensor<3xui64>, %s2: tensor<2xui64>) -> (tensor<3xui64>, tensor<4x3xui32>, tensor<2xui64>, tensor<5xi32>, tensor<2xui64>, tensor<2x2xf32>, tensor<3xui64>, tensor<3xi64>) {
  %0:2 = "stablehlo.rng_bit_generator"(%s3) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4x3xui32>)
  %1:2 = "stablehlo.rng_bit_generator"(%s2) {rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xi32>)
  %2:2 = "stablehlo.rng_bit_generator"(%s2) {rng_algorithm = #stablehlo<rng_algorithm DEFAULT>} : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xf32>)
  %3:2 = "stablehlo.rng_bit_generator"(%s3) {rng_algorithm = #stablehlo<rng_algorithm PHILOX>} : (tensor<3xui64>) -> (tensor<3xui64>, tensor<3xi64>)
  return %0#0, %0#1, %1#0, %1#1, %2#0, %2#1, %3#0, %3#1 : tensor<3xui64>, tensor<4x3xui32>, tensor<2xui64>, tensor<5xi32>, tensor<2xui64>, tensor<2x2xf32>, tensor<3xui64>, tensor<3xi64>
}
"""

BITCAST = """
func.func @main(%a: tensor<3x2xf32>, %d: tensor<3xf64>) -> (tensor<3xf64>, tensor<3x2xui32>, tensor<3x4xi16>, tensor<3x2xf32>) {
  %0 = stablehlo.bitcast_convert %a : (tensor<3x2xf32>) -> tensor<3xf64>
  %1 = stablehlo.bitcast_convert %d : (tensor<3xf64>) -> tensor<3x2xui32>
  %2 = stablehlo.bitcast_convert %d : (tensor<3xf64>) -> tensor<3x4xi16>
  %3 = stablehlo.bitcast_convert %0 : (tensor<3xf64>) -> tensor<3x2xf32>
  return %0, %1, %2, %3 : tensor<3xf64>, tensor<3x2xui32>, tensor<3x4xi16>, tensor<3x2xf32>
}
"""

REDUCE_PRECISION_F64 = """
func.func @main(%a: tensor<6xf64>) -> (tensor<6xf64>, tensor<6xf64>) {
  %0 = stablehlo.reduce_precision %a, format = e8m23 : tensor<6xf64>
  %1 = stablehlo.reduce_precision %a, format = e11m20 : tensor<6xf64>
  return %0, %1 : tensor<6xf64>, tensor<6xf64>
}
"""

LINALG_UPPER = """
func.func @main(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> (tensor<3x3xf32>, tensor<3x2xf32>) {
  %0 = stablehlo.cholesky %a : tensor<3x3xf32>
  %1 = "stablehlo.triangular_solve"(%0, %b) {left_side = true, lower = false, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = false} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<3x3xf32>
  %rows = stablehlo.iota dim = 0 : tensor<3x3xi32>
  %cols = stablehlo.iota dim = 1 : tensor<3x3xi32>
  %upper = stablehlo.compare LE, %rows, %cols : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
  %2 = stablehlo.select %upper, %0, %zero : tensor<3x3xi1>, tensor<3x3xf32>
  return %2, %1 : tensor<3x3xf32>, tensor<3x2xf32>
}
"""

CHLO_MISC = """
func.func @main(%a: tensor<5xf32>, %b: tensor<5xf32>, %s: tensor<f32>) -> (tensor<5xi1>, tensor<5xi1>, tensor<5xi1>, tensor<5xf32>, tensor<5xf32>, tensor<5xi1>) {
  %0 = chlo.is_inf %a : tensor<5xf32> -> tensor<5xi1>
  %1 = chlo.is_pos_inf %a : tensor<5xf32> -> tensor<5xi1>
  %2 = chlo.is_neg_inf %a : tensor<5xf32> -> tensor<5xi1>
  %3 = chlo.broadcast_add %b, %s : (tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
  %c = "chlo.constant_like"(%b) {value = 3.0 : f32} : (tensor<5xf32>) -> tensor<5xf32>
  %4 = chlo.broadcast_multiply %3, %c : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
  %5 = chlo.broadcast_compare %b, %s {comparison_direction = #chlo<comparison_direction GT>} : (tensor<5xf32>, tensor<f32>) -> tensor<5xi1>
  return %0, %1, %2, %3, %4, %5 : tensor<5xi1>, tensor<5xi1>, tensor<5xi1>, tensor<5xf32>, tensor<5xf32>, tensor<5xi1>
}
"""

# Padding (positions there are never selected; negative padding crops) and a scatter
# region that is not an add (a max, spelled in two ops: the order overlapping windows
# scatter in is XLA's own, so the region is one whose order does not matter).
SELECT_AND_SCATTER_PADDED = """
func.func @main(%x: tensor<5x6xf32>, %s: tensor<3x3xf32>) -> (tensor<5x6xf32>, tensor<5x6xf32>, tensor<5x6xf32>) {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %s, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %sum = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {window_dimensions = array<i64: 3, 2>, window_strides = array<i64: 2, 2>, padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>} : (tensor<5x6xf32>, tensor<3x3xf32>, tensor<f32>) -> tensor<5x6xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %1 = "stablehlo.select_and_scatter"(%x, %s, %one) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %le = stablehlo.compare LE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %le : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    %t = stablehlo.maximum %m, %a : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>, padding = dense<[[0, 1], [1, 1]]> : tensor<2x2xi64>} : (tensor<5x6xf32>, tensor<3x3xf32>, tensor<f32>) -> tensor<5x6xf32>
  %s23 = stablehlo.slice %s [0:2, 0:3] : (tensor<3x3xf32>) -> tensor<2x3xf32>
  %2 = "stablehlo.select_and_scatter"(%x, %s23, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %sum = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>, padding = dense<[[-1, 1], [1, -1]]> : tensor<2x2xi64>} : (tensor<5x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<5x6xf32>
  return %0, %1, %2 : tensor<5x6xf32>, tensor<5x6xf32>, tensor<5x6xf32>
}
"""

# Two inputs (a running max and the sum of the second), base dilation and negative padding.
REDUCE_WINDOW_GENERAL = """
func.func @main(%a: tensor<4x5xf32>, %b: tensor<4x5xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0:2 = "stablehlo.reduce_window"(%a, %b, %ninf, %zero) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>, %u: tensor<f32>, %v: tensor<f32>):
    %m = stablehlo.maximum %x, %u : tensor<f32>
    %s = stablehlo.add %y, %v : tensor<f32>
    stablehlo.return %m, %s : tensor<f32>, tensor<f32>
  }) {window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>, base_dilations = array<i64: 2, 1>, padding = dense<[[0, -1], [1, 1]]> : tensor<2x2xi64>} : (tensor<4x5xf32>, tensor<4x5xf32>, tensor<f32>, tensor<f32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
  return %0#0, %0#1 : tensor<3x3xf32>, tensor<3x3xf32>
}
"""

# window_reversal: the kernel flipped along the first spatial dim; dynamic_conv too.
CONV_REVERSAL = """
func.func @main(%img: tensor<1x5x4x2xf32>, %w: tensor<3x2x2x3xf32>) -> tensor<1x4x4x3xf32> {
  %0 = "stablehlo.convolution"(%img, %w) {dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, window_strides = array<i64: 1, 1>, padding = dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>, window_reversal = array<i1: true, false>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x5x4x2xf32>, tensor<3x2x2x3xf32>) -> tensor<1x4x4x3xf32>
  return %0 : tensor<1x4x4x3xf32>
}
"""

# A general region over 17 x 17 = 289 window offsets (more than are unrolled): a loop.
REDUCE_WINDOW_LARGE = """
func.func @main(%a: tensor<20x19xf32>) -> tensor<2x3xf32> {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%a, %zero) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %ay = stablehlo.abs %y : tensor<f32>
    %m = stablehlo.maximum %x, %ay : tensor<f32>
    stablehlo.return %m : tensor<f32>
  }) {window_dimensions = array<i64: 17, 17>, window_strides = array<i64: 3, 1>, window_dilations = array<i64: 1, 1>} : (tensor<20x19xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
"""

# A 17 x 17 window (289 offsets, more than are unrolled): the looped form, with padding.
SELECT_AND_SCATTER_LARGE = """
func.func @main(%x: tensor<18x20xf32>, %s: tensor<2x3xf32>, %s2: tensor<2x2xf32>) -> (tensor<18x20xf32>, tensor<18x20xf32>) {
  %init = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.select_and_scatter"(%x, %s, %init) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %ge = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %ge : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %sum = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %sum : tensor<f32>
  }) {window_dimensions = array<i64: 17, 17>, window_strides = array<i64: 2, 2>, padding = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>} : (tensor<18x20xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<18x20xf32>
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %1 = "stablehlo.select_and_scatter"(%x, %s2, %one) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %le = stablehlo.compare LE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %le : tensor<i1>
  }, {
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %m = stablehlo.maximum %a, %b : tensor<f32>
    %t = stablehlo.maximum %m, %a : tensor<f32>
    stablehlo.return %t : tensor<f32>
  }) {window_dimensions = array<i64: 17, 17>, window_strides = array<i64: 1, 3>, padding = dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>} : (tensor<18x20xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<18x20xf32>
  return %0, %1 : tensor<18x20xf32>, tensor<18x20xf32>
}
"""

# f64: the special functions and linalg at double precision (tolerance 1e-10).
F64_FUNCTIONS = """
func.func @main(%x: tensor<12xf64>, %u: tensor<12xf64>, %a: tensor<4x4xf64>, %b: tensor<4x2xf64>) -> (tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<4x4xf64>, tensor<4x2xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>) {
  %0 = chlo.lgamma %x : tensor<12xf64> -> tensor<12xf64>
  %1 = chlo.digamma %x : tensor<12xf64> -> tensor<12xf64>
  %2 = chlo.asin %u : tensor<12xf64> -> tensor<12xf64>
  %3 = chlo.acos %u : tensor<12xf64> -> tensor<12xf64>
  %4 = chlo.atanh %u : tensor<12xf64> -> tensor<12xf64>
  %5 = chlo.asinh %x : tensor<12xf64> -> tensor<12xf64>
  %ax = stablehlo.abs %x : tensor<12xf64>
  %one = stablehlo.constant dense<1.0> : tensor<12xf64>
  %x1 = stablehlo.add %ax, %one : tensor<12xf64>
  %6 = chlo.acosh %x1 : tensor<12xf64> -> tensor<12xf64>
  %7 = chlo.bessel_i1e %x : tensor<12xf64> -> tensor<12xf64>
  %two = stablehlo.constant dense<2.5> : tensor<12xf64>
  %8 = chlo.zeta %two, %x1 : tensor<12xf64>, tensor<12xf64> -> tensor<12xf64>
  %e = chlo.erf %x : tensor<12xf64> -> tensor<12xf64>
  %ec = chlo.erfc %x : tensor<12xf64> -> tensor<12xf64>
  %ei = chlo.erf_inv %u : tensor<12xf64> -> tensor<12xf64>
  %9 = stablehlo.cholesky %a, lower = true : tensor<4x4xf64>
  %10 = "stablehlo.triangular_solve"(%9, %b) {left_side = true, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false} : (tensor<4x4xf64>, tensor<4x2xf64>) -> tensor<4x2xf64>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %e, %ec, %ei : tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<4x4xf64>, tensor<4x2xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>
}
"""
