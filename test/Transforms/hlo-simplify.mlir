// One case per pattern where it fires, and cases where it must not. hlo-simplify erases
// the ops a rewrite left unused (cases at the end), as upstream canonicalize does.
// RUN: mlc-opt %s --split-input-file --hlo-simplify | FileCheck %s

// x + -0.0 is x for every float, -0.0 included.
// CHECK-LABEL: func @add_negative_zero
// CHECK-NOT: hlo.add
// CHECK: return %arg0
func.func @add_negative_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = "hlo.constant"() {value = dense<-0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.add"(%x, %z) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x + 0.0 is not x when x = -0.0: kept without fast-math.
// CHECK-LABEL: func @add_positive_zero_kept
// CHECK: hlo.add
func.func @add_positive_zero_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = "hlo.constant"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.add"(%z, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x + 0 is x for integers.
// CHECK-LABEL: func @add_zero_integer
// CHECK-NOT: hlo.add
// CHECK: return %arg0
func.func @add_zero_integer(%x: tensor<4xi32>) -> tensor<4xi32> {
  %z = "hlo.constant"() {value = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = "hlo.add"(%x, %z) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// x - 0 is x.
// CHECK-LABEL: func @subtract_zero
// CHECK-NOT: hlo.subtract
// CHECK: return %arg0
func.func @subtract_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = "hlo.constant"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.subtract"(%x, %z) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x * 1 is x (either side).
// CHECK-LABEL: func @multiply_one
// CHECK-NOT: hlo.multiply
// CHECK: return %arg0
func.func @multiply_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = "hlo.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.multiply"(%one, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x * 2 is not x.
// CHECK-LABEL: func @multiply_two_kept
// CHECK: hlo.multiply
func.func @multiply_two_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = "hlo.constant"() {value = dense<2.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.multiply"(%x, %two) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x / 1 is x.
// CHECK-LABEL: func @divide_one
// CHECK-NOT: hlo.divide
// CHECK: return %arg0
func.func @divide_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = "hlo.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.divide"(%x, %one) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x * 0 is 0 for integers.
// CHECK-LABEL: func @multiply_zero_integer
// CHECK-NOT: hlo.multiply
// CHECK: %[[Z:.*]] = "hlo.constant"() {value = dense<0> : tensor<4xi32>}
// CHECK-NOT: hlo.multiply
// CHECK: return %{{[0-9]+}} : tensor<4xi32>
func.func @multiply_zero_integer(%x: tensor<4xi32>) -> tensor<4xi32> {
  %z = "hlo.constant"() {value = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = "hlo.multiply"(%x, %z) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// x * 0.0 is NaN for x = inf: kept without fast-math.
// CHECK-LABEL: func @multiply_zero_float_kept
// CHECK: hlo.multiply
func.func @multiply_zero_float_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = "hlo.constant"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.multiply"(%x, %z) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x - x is 0 for integers.
// CHECK-LABEL: func @subtract_self_integer
// CHECK-NOT: hlo.subtract
// CHECK: dense<0> : tensor<4xi32>
func.func @subtract_self_integer(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "hlo.subtract"(%x, %x) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// inf - inf is NaN: x - x is kept for floats.
// CHECK-LABEL: func @subtract_self_float_kept
// CHECK: hlo.subtract
func.func @subtract_self_float_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.subtract"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// negate(negate(x)) is x.
// CHECK-LABEL: func @negate_negate
// CHECK: return %arg0
func.func @negate_negate(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.negate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.negate"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// not(not(x)) is x.
// CHECK-LABEL: func @not_not
// CHECK: return %arg0
func.func @not_not(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "hlo.not"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  %1 = "hlo.not"(%0) : (tensor<4xi32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

// abs(abs(x)) is abs(x).
// CHECK-LABEL: func @abs_abs
// CHECK-COUNT-1: hlo.abs
// CHECK-NOT: hlo.abs
func.func @abs_abs(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.abs"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.abs"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// abs(-x) is abs(x).
// CHECK-LABEL: func @abs_negate
// CHECK: %[[A:.*]] = "hlo.abs"(%arg0)
// CHECK: return %[[A]]
func.func @abs_negate(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.negate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.abs"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Unsigned: abs is the identity, and abs(-x) is -x (wrapped), not abs(x) = x (fuzz seed 59:
// negate(abs(negate(2))) in ui64 gave 2^64 - 2 at -O2).
// CHECK-LABEL: func @abs_negate_unsigned
// CHECK: %[[N:.*]] = "hlo.negate"(%arg0)
// CHECK-NOT: hlo.abs
// CHECK: return %[[N]]
func.func @abs_negate_unsigned(%x: tensor<4xui64>) -> tensor<4xui64> {
  %0 = "hlo.negate"(%x) : (tensor<4xui64>) -> tensor<4xui64>
  %1 = "hlo.abs"(%0) : (tensor<4xui64>) -> tensor<4xui64>
  return %1 : tensor<4xui64>
}

// -----

// CHECK-LABEL: func @abs_unsigned
// CHECK-NOT: hlo.abs
// CHECK: return %arg0
func.func @abs_unsigned(%x: tensor<4xui8>) -> tensor<4xui8> {
  %0 = "hlo.abs"(%x) : (tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// Signed integers keep the rule: abs(-x) is abs(x) (INT_MIN too: both wrap to INT_MIN).
// CHECK-LABEL: func @abs_negate_signed
// CHECK: %[[A:.*]] = "hlo.abs"(%arg0)
// CHECK: return %[[A]]
func.func @abs_negate_signed(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "hlo.negate"(%x) : (tensor<4xi32>) -> tensor<4xi32>
  %1 = "hlo.abs"(%0) : (tensor<4xi32>) -> tensor<4xi32>
  return %1 : tensor<4xi32>
}

// -----

// maximum(x, x) is x.
// CHECK-LABEL: func @maximum_self
// CHECK-NOT: hlo.maximum
// CHECK: return %arg0
func.func @maximum_self(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.maximum"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// minimum(x, x) is x.
// CHECK-LABEL: func @minimum_self
// CHECK-NOT: hlo.minimum
// CHECK: return %arg0
func.func @minimum_self(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.minimum"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// and(x, x) is x.
// CHECK-LABEL: func @and_self
// CHECK-NOT: hlo.and
// CHECK: return %arg0
func.func @and_self(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "hlo.and"(%x, %x) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// or(x, x) is x.
// CHECK-LABEL: func @or_self
// CHECK-NOT: hlo.or
// CHECK: return %arg0
func.func @or_self(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "hlo.or"(%x, %x) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// max(x, y) with different operands stays.
// CHECK-LABEL: func @maximum_different_kept
// CHECK: hlo.maximum
func.func @maximum_different_kept(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.maximum"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x ^ x is 0.
// CHECK-LABEL: func @xor_self
// CHECK-NOT: hlo.xor
// CHECK: dense<0> : tensor<4xi32>
func.func @xor_self(%x: tensor<4xi32>) -> tensor<4xi32> {
  %0 = "hlo.xor"(%x, %x) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// select(p, x, x) is x.
// CHECK-LABEL: func @select_same_branches
// CHECK-NOT: hlo.select
// CHECK: return %arg1
func.func @select_same_branches(%p: tensor<4xi1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.select"(%p, %x, %x) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// select(true, a, b) is a; select(false, a, b) is b.
// CHECK-LABEL: func @select_constant_predicate
// CHECK-NOT: hlo.select
// CHECK: return %arg1, %arg0
func.func @select_constant_predicate(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %t = "hlo.constant"() {value = dense<true> : tensor<4xi1>} : () -> tensor<4xi1>
  %f = "hlo.constant"() {value = dense<false> : tensor<4xi1>} : () -> tensor<4xi1>
  %0 = "hlo.select"(%t, %y, %x) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.select"(%f, %y, %x) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// select(p, a, b) stays when p is not constant.
// CHECK-LABEL: func @select_unknown_predicate_kept
// CHECK: hlo.select
func.func @select_unknown_predicate_kept(%p: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.select"(%p, %y, %x) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x == x is true and x < x is false, for integers.
// CHECK-LABEL: func @compare_self_integer
// CHECK-NOT: hlo.compare
// CHECK-DAG: dense<true> : tensor<4xi1>
// CHECK-DAG: dense<false> : tensor<4xi1>
func.func @compare_self_integer(%x: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = "hlo.compare"(%x, %x) {comparison_direction = "EQ"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  %1 = "hlo.compare"(%x, %x) {comparison_direction = "LT"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// NaN == NaN is false: float self-compares stay.
// CHECK-LABEL: func @compare_self_float_kept
// CHECK: hlo.compare
func.func @compare_self_float_kept(%x: tensor<4xf32>) -> tensor<4xi1> {
  %0 = "hlo.compare"(%x, %x) {comparison_direction = "EQ"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// a boolean b != false and true == b are b; b != true (a negation) and integer compares stay.
// CHECK-LABEL: func @compare_bool_identity
// CHECK: %[[NOT:.*]] = "hlo.compare"(%arg0, %{{.*}}) {comparison_direction = "NE"}
// CHECK: %[[INT:.*]] = "hlo.compare"(%arg1, %{{.*}}) {comparison_direction = "NE"}
// CHECK: return %arg0, %arg0, %[[NOT]], %[[INT]]
func.func @compare_bool_identity(%b: tensor<4xi1>, %i: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>) {
  %f = "hlo.constant"() {value = dense<false> : tensor<4xi1>} : () -> tensor<4xi1>
  %t = "hlo.constant"() {value = dense<true> : tensor<4xi1>} : () -> tensor<4xi1>
  %z = "hlo.constant"() {value = dense<0> : tensor<4xi32>} : () -> tensor<4xi32>
  %0 = "hlo.compare"(%b, %f) {comparison_direction = "NE"} : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = "hlo.compare"(%t, %b) {comparison_direction = "EQ"} : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = "hlo.compare"(%b, %t) {comparison_direction = "NE"} : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %3 = "hlo.compare"(%i, %z) {comparison_direction = "NE"} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  return %0, %1, %2, %3 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi1>
}

// -----

// x ^ 2 is x * x.
// CHECK-LABEL: func @power_two
// CHECK-NOT: hlo.power
// CHECK: "hlo.multiply"(%arg0, %arg0)
func.func @power_two(%x: tensor<4xf32>) -> tensor<4xf32> {
  %two = "hlo.constant"() {value = dense<2.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.power"(%x, %two) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x ^ 1 is x.
// CHECK-LABEL: func @power_one
// CHECK-NOT: hlo.power
// CHECK: return %arg0
func.func @power_one(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = "hlo.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.power"(%x, %one) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x ^ 0 is 1, NaN included.
// CHECK-LABEL: func @power_zero
// CHECK-NOT: hlo.power
// CHECK: dense<1.000000e+00>
func.func @power_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = "hlo.constant"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.power"(%x, %zero) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x ^ 0.5 differs from sqrt(x) at -0.0 and -inf: kept without fast-math.
// CHECK-LABEL: func @power_half_kept
// CHECK: hlo.power
// CHECK-NOT: hlo.sqrt
func.func @power_half_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %half = "hlo.constant"() {value = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.power"(%x, %half) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// x / 4 is x * 0.25 (the reciprocal is exact).
// CHECK-LABEL: func @divide_by_power_of_two
// CHECK-NOT: hlo.divide
// CHECK: dense<2.500000e-01>
// CHECK: hlo.multiply
func.func @divide_by_power_of_two(%x: tensor<4xf32>) -> tensor<4xf32> {
  %four = "hlo.constant"() {value = dense<4.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.divide"(%x, %four) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// 1/3 is not exact in binary: x / 3 stays.
// CHECK-LABEL: func @divide_by_three_kept
// CHECK: hlo.divide
func.func @divide_by_three_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %three = "hlo.constant"() {value = dense<3.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.divide"(%x, %three) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// exp(x) * exp(y) stays without fast-math (overflow differs).
// CHECK-LABEL: func @exp_times_exp_kept
// CHECK: hlo.multiply
func.func @exp_times_exp_kept(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = "hlo.exponential"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = "hlo.exponential"(%y) : (tensor<4xf32>) -> tensor<4xf32>
  %0 = "hlo.multiply"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// convert to the same type is a no-op.
// CHECK-LABEL: func @convert_same_type
// CHECK-NOT: hlo.convert
// CHECK: return %arg0
func.func @convert_same_type(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.convert"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// f32 -> f64 -> f16 is f32 -> f16: the first step loses nothing.
// CHECK-LABEL: func @convert_convert_lossless
// CHECK: %[[C:.*]] = "hlo.convert"(%arg0) : (tensor<4xf32>) -> tensor<4xf16>
// CHECK-NOT: hlo.convert
// CHECK: return %[[C]]
func.func @convert_convert_lossless(%x: tensor<4xf32>) -> tensor<4xf16> {
  %0 = "hlo.convert"(%x) : (tensor<4xf32>) -> tensor<4xf64>
  %1 = "hlo.convert"(%0) : (tensor<4xf64>) -> tensor<4xf16>
  return %1 : tensor<4xf16>
}

// -----

// f32 -> i32 -> f32 truncates: both converts stay.
// CHECK-LABEL: func @convert_convert_lossy_kept
// CHECK-COUNT-2: hlo.convert
func.func @convert_convert_lossy_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.convert"(%x) : (tensor<4xf32>) -> tensor<4xi32>
  %1 = "hlo.convert"(%0) : (tensor<4xi32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// transpose with the identity permutation is x.
// CHECK-LABEL: func @transpose_identity
// CHECK-NOT: hlo.transpose
// CHECK: return %arg0
func.func @transpose_identity(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "hlo.transpose"(%x) {permutation = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// transposing back and forth is x.
// CHECK-LABEL: func @transpose_transpose
// CHECK: return %arg0
func.func @transpose_transpose(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "hlo.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = "hlo.transpose"(%0) {permutation = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

// -----

// two 3-d transposes compose into one.
// CHECK-LABEL: func @transpose_transpose_composed
// CHECK: "hlo.transpose"(%arg0) {permutation = array<i64: 2, 0, 1>}
// CHECK-NOT: hlo.transpose
func.func @transpose_transpose_composed(%x: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %0 = "hlo.transpose"(%x) {permutation = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = "hlo.transpose"(%0) {permutation = array<i64: 1, 2, 0>} : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  return %1 : tensor<4x2x3xf32>
}

// -----

// a reshape to the same shape is x.
// CHECK-LABEL: func @reshape_same_shape
// CHECK-NOT: hlo.reshape
// CHECK: return %arg0
func.func @reshape_same_shape(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "hlo.reshape"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// two reshapes are one.
// CHECK-LABEL: func @reshape_reshape
// CHECK: "hlo.reshape"(%arg0) : (tensor<2x3xf32>) -> tensor<3x2xf32>
// CHECK-NOT: hlo.reshape
func.func @reshape_reshape(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = "hlo.reshape"(%x) : (tensor<2x3xf32>) -> tensor<6xf32>
  %1 = "hlo.reshape"(%0) : (tensor<6xf32>) -> tensor<3x2xf32>
  return %1 : tensor<3x2xf32>
}

// -----

// broadcast_in_dim to the same type with identity dims is x.
// CHECK-LABEL: func @broadcast_same_type
// CHECK-NOT: hlo.broadcast_in_dim
// CHECK: return %arg0
func.func @broadcast_same_type(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "hlo.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 0, 1>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// a broadcast splat constant is a bigger splat constant.
// CHECK-LABEL: func @broadcast_splat
// CHECK-NOT: hlo.broadcast_in_dim
// CHECK: dense<3.000000e+00> : tensor<2x3xf32>
func.func @broadcast_splat() -> tensor<2x3xf32> {
  %s = "hlo.constant"() {value = dense<3.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "hlo.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// two broadcasts are one.
// CHECK-LABEL: func @broadcast_broadcast
// CHECK: "hlo.broadcast_in_dim"(%arg0) {broadcast_dimensions = array<i64: 2>} : (tensor<4xf32>) -> tensor<2x3x4xf32>
// CHECK-NOT: hlo.broadcast_in_dim
func.func @broadcast_broadcast(%x: tensor<4xf32>) -> tensor<2x3x4xf32> {
  %0 = "hlo.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<3x4xf32>
  %1 = "hlo.broadcast_in_dim"(%0) {broadcast_dimensions = array<i64: 1, 2>} : (tensor<3x4xf32>) -> tensor<2x3x4xf32>
  return %1 : tensor<2x3x4xf32>
}

// -----

// a slice of everything is x.
// CHECK-LABEL: func @slice_whole
// CHECK-NOT: hlo.slice
// CHECK: return %arg0
func.func @slice_whole(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.slice"(%x) {start_indices = array<i64: 0>, limit_indices = array<i64: 4>, strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// a slice of a slice is one slice.
// CHECK-LABEL: func @slice_slice
// CHECK: "hlo.slice"(%arg0) {limit_indices = array<i64: 8>, start_indices = array<i64: 3>, strides = array<i64: 4>} : (tensor<10xf32>) -> tensor<2xf32>
// CHECK-NOT: hlo.slice
func.func @slice_slice(%x: tensor<10xf32>) -> tensor<2xf32> {
  %0 = "hlo.slice"(%x) {start_indices = array<i64: 1>, limit_indices = array<i64: 9>, strides = array<i64: 2>} : (tensor<10xf32>) -> tensor<4xf32>
  %1 = "hlo.slice"(%0) {start_indices = array<i64: 1>, limit_indices = array<i64: 4>, strides = array<i64: 2>} : (tensor<4xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

// -----

// An empty dimension of a slice of a slice starts (and ends) at 0: s1 + s2*t1 = 1 + 1*3
// lies past the end of x's dim 0 (size 1), an invalid slice.
// CHECK-LABEL: func @slice_slice_empty
// CHECK: "hlo.slice"(%arg0) {limit_indices = array<i64: 0, 0>, start_indices = array<i64: 0, 0>, strides = array<i64: 3, 3>} : (tensor<1x2xf32>) -> tensor<0x0xf32>
// CHECK-NOT: hlo.slice
func.func @slice_slice_empty(%x: tensor<1x2xf32>) -> tensor<0x0xf32> {
  %0 = "hlo.slice"(%x) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 1, 1>, strides = array<i64: 3, 3>} : (tensor<1x2xf32>) -> tensor<1x0xf32>
  %1 = "hlo.slice"(%0) {start_indices = array<i64: 1, 0>, limit_indices = array<i64: 1, 0>, strides = array<i64: 1, 1>} : (tensor<1x0xf32>) -> tensor<0x0xf32>
  return %1 : tensor<0x0xf32>
}

// -----

// a slice inside the second concatenated operand slices that operand.
// CHECK-LABEL: func @slice_of_concat
// CHECK-NOT: tensor.concat
// CHECK: "hlo.slice"(%arg1) {limit_indices = array<i64: 3>, start_indices = array<i64: 1>, strides = array<i64: 1>}
func.func @slice_of_concat(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<2xf32> {
  %c = tensor.concat dim(0) %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  %0 = "hlo.slice"(%c) {start_indices = array<i64: 5>, limit_indices = array<i64: 7>, strides = array<i64: 1>} : (tensor<8xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// a slice across both operands stays.
// CHECK-LABEL: func @slice_across_concat_kept
// CHECK: tensor.concat
// CHECK: hlo.slice
func.func @slice_across_concat_kept(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<2xf32> {
  %c = tensor.concat dim(0) %x, %y : (tensor<4xf32>, tensor<4xf32>) -> tensor<8xf32>
  %0 = "hlo.slice"(%c) {start_indices = array<i64: 3>, limit_indices = array<i64: 5>, strides = array<i64: 1>} : (tensor<8xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// the first k of a descending argsort (its only use) is an argsort with limit k: top-k.
// CHECK-LABEL: func @slice_of_argsort
// CHECK-NOT: hlo.slice
// CHECK: %[[TOP:.*]] = "hlo.argsort"(%arg0) {descending = true, dimension = 1 : i64, limit = 3 : i64} : (tensor<2x50xf32>) -> tensor<2x3xi32>
// CHECK: return %[[TOP]]
func.func @slice_of_argsort(%x: tensor<2x50xf32>) -> tensor<2x3xi32> {
  %0 = "hlo.argsort"(%x) {dimension = 1 : i64, descending = true} : (tensor<2x50xf32>) -> tensor<2x50xi32>
  %1 = "hlo.slice"(%0) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 3>, strides = array<i64: 1, 1>} : (tensor<2x50xi32>) -> tensor<2x3xi32>
  return %1 : tensor<2x3xi32>
}

// -----

// not the first k (a start past 0), not whole along the other dimension, a stride, or an
// argsort used elsewhere too: the slices stay.
// CHECK-LABEL: func @slice_of_argsort_kept
// CHECK-NOT: limit
// CHECK-COUNT-4: hlo.slice
func.func @slice_of_argsort_kept(%x: tensor<2x50xf32>) -> (tensor<2x3xi32>, tensor<1x3xi32>, tensor<2x3xi32>, tensor<2x50xi32>) {
  %0 = "hlo.argsort"(%x) {dimension = 1 : i64} : (tensor<2x50xf32>) -> tensor<2x50xi32>
  %1 = "hlo.slice"(%0) {start_indices = array<i64: 0, 1>, limit_indices = array<i64: 2, 4>, strides = array<i64: 1, 1>} : (tensor<2x50xi32>) -> tensor<2x3xi32>
  %2 = "hlo.argsort"(%x) {dimension = 1 : i64, descending = true} : (tensor<2x50xf32>) -> tensor<2x50xi32>
  %3 = "hlo.slice"(%2) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 1, 3>, strides = array<i64: 1, 1>} : (tensor<2x50xi32>) -> tensor<1x3xi32>
  %4 = "hlo.argsort"(%x) {dimension = 1 : i64, descending = true, is_stable = true} : (tensor<2x50xf32>) -> tensor<2x50xi32>
  %5 = "hlo.slice"(%4) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 5>, strides = array<i64: 1, 2>} : (tensor<2x50xi32>) -> tensor<2x3xi32>
  %6 = "hlo.argsort"(%x) {dimension = 0 : i64} : (tensor<2x50xf32>) -> tensor<2x50xi32>
  %7 = "hlo.slice"(%6) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 2, 3>, strides = array<i64: 1, 1>} : (tensor<2x50xi32>) -> tensor<2x3xi32>
  return %1, %3, %5, %6 : tensor<2x3xi32>, tensor<1x3xi32>, tensor<2x3xi32>, tensor<2x50xi32>
}

// -----

// concatenating one operand is that operand.
// CHECK-LABEL: func @concat_single
// CHECK-NOT: tensor.concat
// CHECK: return %arg0
func.func @concat_single(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = tensor.concat dim(0) %x : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// reversing twice is x.
// CHECK-LABEL: func @reverse_reverse
// CHECK: return %arg0
func.func @reverse_reverse(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.reverse"(%x) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.reverse"(%0) {dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// reversing a size-1 dimension is x.
// CHECK-LABEL: func @reverse_trivial
// CHECK-NOT: hlo.reverse
// CHECK: return %arg0
func.func @reverse_trivial(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %0 = "hlo.reverse"(%x) {dimensions = array<i64: 0>} : (tensor<1x4xf32>) -> tensor<1x4xf32>
  return %0 : tensor<1x4xf32>
}

// -----

// padding by nothing is x.
// CHECK-LABEL: func @pad_nothing
// CHECK-NOT: hlo.pad
// CHECK: return %arg0
func.func @pad_nothing(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "hlo.pad"(%x, %z) {edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 0>, interior_padding = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// a max-reduction over no dimensions with init -inf is x.
// CHECK-LABEL: func @reduce_no_dimensions
// CHECK-NOT: hlo.reduce
// CHECK: return %arg0
func.func @reduce_no_dimensions(%x: tensor<4xf32>) -> tensor<4xf32> {
  %ninf = "hlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %0 = "hlo.reduce"(%x, %ninf) {dimensions = array<i64>, kind = "max"} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// init 1 is not the identity of add: kept.
// CHECK-LABEL: func @reduce_no_dimensions_non_identity_kept
// CHECK: hlo.reduce
func.func @reduce_no_dimensions_non_identity_kept(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = "hlo.constant"() {value = dense<1.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "hlo.reduce"(%x, %one) {dimensions = array<i64>, kind = "add"} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// "and" from all ones (-1 in i32, 255 in ui8, true in i1) is x; from 1 in i32 it is x & 1
// (fuzz seed 61: Python's 1 == True made init 1 pass for the identity).
// CHECK-LABEL: func @reduce_no_dimensions_and
// CHECK-NOT: hlo.reduce
// CHECK: return %arg0, %arg1, %arg2
// CHECK-LABEL: func @reduce_no_dimensions_and_of_one_kept
// CHECK: hlo.reduce
func.func @reduce_no_dimensions_and(%x: tensor<4xi32>, %y: tensor<4xui8>, %z: tensor<4xi1>) -> (tensor<4xi32>, tensor<4xui8>, tensor<4xi1>) {
  %m1 = "hlo.constant"() {value = dense<-1> : tensor<i32>} : () -> tensor<i32>
  %0 = "hlo.reduce"(%x, %m1) {dimensions = array<i64>, kind = "and"} : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  %ff = "hlo.constant"() {value = dense<255> : tensor<ui8>} : () -> tensor<ui8>
  %1 = "hlo.reduce"(%y, %ff) {dimensions = array<i64>, kind = "and"} : (tensor<4xui8>, tensor<ui8>) -> tensor<4xui8>
  %t = "hlo.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %2 = "hlo.reduce"(%z, %t) {dimensions = array<i64>, kind = "and"} : (tensor<4xi1>, tensor<i1>) -> tensor<4xi1>
  return %0, %1, %2 : tensor<4xi32>, tensor<4xui8>, tensor<4xi1>
}
func.func @reduce_no_dimensions_and_of_one_kept(%x: tensor<4xi32>) -> tensor<4xi32> {
  %one = "hlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %0 = "hlo.reduce"(%x, %one) {dimensions = array<i64>, kind = "and"} : (tensor<4xi32>, tensor<i32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// max over the dimension a broadcast added is the broadcast's operand.
// CHECK-LABEL: func @reduce_of_broadcast_max
// CHECK-NOT: hlo.reduce
// CHECK: return %arg0
func.func @reduce_of_broadcast_max(%x: tensor<4xf32>) -> tensor<4xf32> {
  %ninf = "hlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %b = "hlo.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 1>} : (tensor<4xf32>) -> tensor<3x4xf32>
  %0 = "hlo.reduce"(%b, %ninf) {dimensions = array<i64: 0>, kind = "max"} : (tensor<3x4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// an integer sum over a broadcast dimension of size 3 is x * 3.
// CHECK-LABEL: func @reduce_of_broadcast_add_integer
// CHECK-NOT: hlo.reduce
// CHECK: dense<3> : tensor<4xi32>
// CHECK: hlo.multiply
func.func @reduce_of_broadcast_add_integer(%x: tensor<4xi32>) -> tensor<4xi32> {
  %z = "hlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %b = "hlo.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 1>} : (tensor<4xi32>) -> tensor<3x4xi32>
  %0 = "hlo.reduce"(%b, %z) {dimensions = array<i64: 0>, kind = "add"} : (tensor<3x4xi32>, tensor<i32>) -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// a dot over a size-1 contracting dimension is an outer product.
// CHECK-LABEL: func @dot_unit_contraction
// CHECK-NOT: hlo.dot_general
// CHECK: hlo.broadcast_in_dim
// CHECK: hlo.multiply
func.func @dot_unit_contraction(%x: tensor<3x1xf32>, %y: tensor<1x4xf32>) -> tensor<3x4xf32> {
  %0 = "hlo.dot_general"(%x, %y) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<3x1xf32>, tensor<1x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// a dot over a real contracting dimension stays.
// CHECK-LABEL: func @dot_real_contraction_kept
// CHECK: hlo.dot_general
func.func @dot_real_contraction_kept(%x: tensor<3x2xf32>, %y: tensor<2x4xf32>) -> tensor<3x4xf32> {
  %0 = "hlo.dot_general"(%x, %y) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<3x2xf32>, tensor<2x4xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Dead code after a rewrite: neg(neg(x)) -> x erases the inner negate too.
// CHECK-LABEL: func @double_negate_leaves_nothing
// CHECK-NEXT: return %arg0
func.func @double_negate_leaves_nothing(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.negate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.negate"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// transpose(transpose(x)) and reshape(reshape(x)) pairs leave no op behind.
// CHECK-LABEL: func @transpose_and_reshape_pairs_leave_nothing
// CHECK-NEXT: return %arg0, %arg0
func.func @transpose_and_reshape_pairs_leave_nothing(%x: tensor<4x3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>) {
  %0 = "hlo.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %1 = "hlo.transpose"(%0) {permutation = array<i64: 1, 0>} : (tensor<3x4xf32>) -> tensor<4x3xf32>
  %2 = "hlo.reshape"(%x) : (tensor<4x3xf32>) -> tensor<12xf32>
  %3 = "hlo.reshape"(%2) : (tensor<12xf32>) -> tensor<4x3xf32>
  return %1, %3 : tensor<4x3xf32>, tensor<4x3xf32>
}

// -----

// A value still used elsewhere stays: only the dead part of a pair goes.
// CHECK-LABEL: func @shared_inner_negate_stays
// CHECK-NEXT: %[[N:.*]] = "hlo.negate"(%arg0)
// CHECK-NEXT: return %arg0, %[[N]]
func.func @shared_inner_negate_stays(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "hlo.negate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.negate"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1, %0 : tensor<4xf32>, tensor<4xf32>
}


// -----

// A reshape moves below an elementwise op whose other operands are splats (XLA's
// ReshapeMover): the multiply then works on the reduce's [4] shape.
// CHECK-LABEL: func @reshape_below_elementwise
// CHECK: %[[M:.*]] = "hlo.multiply"(%arg0, %{{.*}}) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK: %[[R:.*]] = "hlo.reshape"(%[[M]]) : (tensor<4xf32>) -> tensor<4x1xf32>
// CHECK: return %[[R]]
func.func @reshape_below_elementwise(%x: tensor<4xf32>) -> tensor<4x1xf32> {
  %r = "hlo.reshape"(%x) : (tensor<4xf32>) -> tensor<4x1xf32>
  %c = "hlo.constant"() {value = dense<0.25> : tensor<4x1xf32>} : () -> tensor<4x1xf32>
  %m = "hlo.multiply"(%r, %c) : (tensor<4x1xf32>, tensor<4x1xf32>) -> tensor<4x1xf32>
  return %m : tensor<4x1xf32>
}

// -----

// Two reshapes of one source shape move together (a compare, a new element type); a
// reshape with another user, or operands reshaped from different shapes, stay.
// CHECK-LABEL: func @reshape_below_compare
// CHECK: %[[C:.*]] = "hlo.compare"(%arg0, %arg1) {comparison_direction = "LT"} : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xi1>
// CHECK: "hlo.reshape"(%[[C]]) : (tensor<6xi1>) -> tensor<2x3xi1>
// CHECK-LABEL: func @reshape_kept
// CHECK: %[[A:.*]] = "hlo.reshape"(%arg0)
// CHECK: "hlo.add"(%[[A]], %[[A]])
// CHECK: %[[B:.*]] = "hlo.reshape"(%arg1)
// CHECK: %[[C:.*]] = "hlo.reshape"(%arg2)
// CHECK: "hlo.add"(%[[B]], %[[C]])
func.func @reshape_below_compare(%x: tensor<6xf32>, %y: tensor<6xf32>) -> tensor<2x3xi1> {
  %a = "hlo.reshape"(%x) : (tensor<6xf32>) -> tensor<2x3xf32>
  %b = "hlo.reshape"(%y) : (tensor<6xf32>) -> tensor<2x3xf32>
  %c = "hlo.compare"(%a, %b) {comparison_direction = "LT"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  return %c : tensor<2x3xi1>
}
func.func @reshape_kept(%x: tensor<6xf32>, %y: tensor<6xf32>, %z: tensor<3x2xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %a = "hlo.reshape"(%x) : (tensor<6xf32>) -> tensor<2x3xf32>
  %s = "hlo.add"(%a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %b = "hlo.reshape"(%y) : (tensor<6xf32>) -> tensor<2x3xf32>
  %c = "hlo.reshape"(%z) : (tensor<3x2xf32>) -> tensor<2x3xf32>
  %t = "hlo.add"(%b, %c) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %s, %t : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// A transpose moves below an elementwise op whose other operands are transposes of the
// same permutation, broadcasts (their dims permuted) or splats; two transposes then meet
// and cancel: exp(x^T - b)^T reads x in place.
// CHECK-LABEL: func @transpose_below_elementwise
// CHECK-NOT: hlo.transpose
// CHECK: %[[B:.*]] = "hlo.broadcast_in_dim"(%arg1) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
// CHECK: %[[S:.*]] = "hlo.subtract"(%arg0, %[[B]]) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[E:.*]] = "hlo.exponential"(%[[S]])
// CHECK-NOT: hlo.transpose
// CHECK: return %[[E]]
func.func @transpose_below_elementwise(%x: tensor<2x3xf32>, %v: tensor<3xf32>) -> tensor<2x3xf32> {
  %t = "hlo.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %b = "hlo.broadcast_in_dim"(%v) {broadcast_dimensions = array<i64: 0>} : (tensor<3xf32>) -> tensor<3x2xf32>
  %s = "hlo.subtract"(%t, %b) : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %e = "hlo.exponential"(%s) : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %r = "hlo.transpose"(%e) {permutation = array<i64: 1, 0>} : (tensor<3x2xf32>) -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// -----

// A rank-3 permutation through a select with a 0-d predicate and a splat: the op works in
// x's layout, one transpose after it.
// CHECK-LABEL: func @transpose_below_select
// CHECK: %[[S:.*]] = "hlo.select"(%arg2, %arg0, %{{.*}}) : (tensor<i1>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK: "hlo.transpose"(%[[S]]) {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
func.func @transpose_below_select(%x: tensor<2x3x4xf32>, %y: tensor<4x2x3xf32>, %p: tensor<i1>) -> tensor<4x2x3xf32> {
  %t = "hlo.transpose"(%x) {permutation = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %c = "hlo.constant"() {value = dense<1.5> : tensor<4x2x3xf32>} : () -> tensor<4x2x3xf32>
  %s = "hlo.select"(%p, %t, %c) : (tensor<i1>, tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  return %s : tensor<4x2x3xf32>
}

// -----

// Kept: a transpose with another user (moving it would leave two), transposes of
// different permutations, an operand that is neither a transpose nor a broadcast.
// CHECK-LABEL: func @transpose_kept
// CHECK: %[[T:.*]] = "hlo.transpose"(%arg0)
// CHECK: "hlo.exponential"(%[[T]])
// CHECK: "hlo.negate"(%[[T]])
// CHECK-LABEL: func @transpose_kept_other_operand
// CHECK: %[[T:.*]] = "hlo.transpose"(%arg0)
// CHECK: "hlo.add"(%[[T]], %arg1)
func.func @transpose_kept(%x: tensor<2x3xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>) {
  %t = "hlo.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %e = "hlo.exponential"(%t) : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %n = "hlo.negate"(%t) : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return %e, %n : tensor<3x2xf32>, tensor<3x2xf32>
}
func.func @transpose_kept_other_operand(%x: tensor<2x3xf32>, %y: tensor<3x2xf32>) -> tensor<3x2xf32> {
  %t = "hlo.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %a = "hlo.add"(%t, %y) : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %a : tensor<3x2xf32>
}

// -----

// A reduction of a transpose reduces x's dims; the kept dims are transposed back only
// when they change order.
// CHECK-LABEL: func @reduce_of_transpose
// CHECK: %[[R:.*]] = "hlo.reduce"(%arg0, %arg1) {dimensions = array<i64: 0>, kind = "max"} : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NOT: hlo.transpose
// CHECK: return %[[R]]
// CHECK-LABEL: func @reduce_of_transpose_reordered
// CHECK: %[[R:.*]] = "hlo.reduce"(%arg0, %arg1) {dimensions = array<i64: 1>, kind = "add"} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x4xf32>
// CHECK: "hlo.transpose"(%[[R]]) {permutation = array<i64: 1, 0>} : (tensor<2x4xf32>) -> tensor<4x2xf32>
func.func @reduce_of_transpose(%x: tensor<4x3xf32>, %i: tensor<f32>) -> tensor<3xf32> {
  %t = "hlo.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %r = "hlo.reduce"(%t, %i) {dimensions = array<i64: 1>, kind = "max"} : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @reduce_of_transpose_reordered(%x: tensor<2x3x4xf32>, %i: tensor<f32>) -> tensor<4x2xf32> {
  %t = "hlo.transpose"(%x) {permutation = array<i64: 2, 1, 0>} : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %r = "hlo.reduce"(%t, %i) {dimensions = array<i64: 1>, kind = "add"} : (tensor<4x3x2xf32>, tensor<f32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// -----

// A transposed operand folds into the dot's dimension numbers (XLA's TransposeFolding):
// attention's q k^T reads k in place, contracting its last dim.
// CHECK-LABEL: func @dot_transpose_folding
// CHECK-NOT: hlo.transpose
// CHECK: "hlo.dot_general"(%arg0, %arg1) {lhs_batching_dimensions = array<i64: 0>, lhs_contracting_dimensions = array<i64: 2>, rhs_batching_dimensions = array<i64: 0>, rhs_contracting_dimensions = array<i64: 2>}
func.func @dot_transpose_folding(%q: tensor<2x5x4xf32>, %k: tensor<2x7x4xf32>) -> tensor<2x5x7xf32> {
  %kt = "hlo.transpose"(%k) {permutation = array<i64: 0, 2, 1>} : (tensor<2x7x4xf32>) -> tensor<2x4x7xf32>
  %s = "hlo.dot_general"(%q, %kt) {lhs_batching_dimensions = array<i64: 0>, lhs_contracting_dimensions = array<i64: 2>, rhs_batching_dimensions = array<i64: 0>, rhs_contracting_dimensions = array<i64: 1>} : (tensor<2x5x4xf32>, tensor<2x4x7xf32>) -> tensor<2x5x7xf32>
  return %s : tensor<2x5x7xf32>
}

// -----

// A transpose that reorders the free dims stays: folding it would reorder the result.
// CHECK-LABEL: func @dot_transpose_kept
// CHECK: hlo.transpose
// CHECK: "hlo.dot_general"
func.func @dot_transpose_kept(%x: tensor<3x2x4xf32>, %w: tensor<4x5xf32>) -> tensor<2x3x5xf32> {
  %t = "hlo.transpose"(%x) {permutation = array<i64: 1, 0, 2>} : (tensor<3x2x4xf32>) -> tensor<2x3x4xf32>
  %d = "hlo.dot_general"(%t, %w) {lhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 2>, rhs_batching_dimensions = array<i64>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<2x3x4xf32>, tensor<4x5xf32>) -> tensor<2x3x5xf32>
  return %d : tensor<2x3x5xf32>
}

// -----

// log_softmax then a gather of one element per row (softmax cross-entropy): the gather
// moves above the subtracts and the broadcast, so only the gathered points are computed.
// CHECK-LABEL: func @gather_of_elementwise
// CHECK-DAG: %[[X:.*]] = "hlo.gather"(%arg0, %arg2) {{.*}} : (tensor<16x64xf32>, tensor<16x2xi32>) -> tensor<16xf32>
// CHECK-DAG: %[[COL:.*]] = "hlo.slice"(%arg2) {limit_indices = array<i64: 16, 1>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}
// CHECK-DAG: %[[M:.*]] = "hlo.gather"(%arg1, %[[COL]]) {collapsed_slice_dims = array<i64: 0>, index_vector_dim = 1 : i64, offset_dims = array<i64>, slice_sizes = array<i64: 1>, start_index_map = array<i64: 0>} : (tensor<16xf32>, tensor<16x1xi32>) -> tensor<16xf32>
// CHECK: "hlo.subtract"(%[[X]], %[[M]]) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
// CHECK-NOT: tensor<16x64xf32>) -> tensor<16x64xf32>
func.func @gather_of_elementwise(%x: tensor<16x64xf32>, %m: tensor<16xf32>, %idx: tensor<16x2xi32>) -> tensor<16xf32> {
  %b = "hlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<16xf32>) -> tensor<16x64xf32>
  %s = "hlo.subtract"(%x, %b) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  %g = "hlo.gather"(%s, %idx) {collapsed_slice_dims = array<i64: 0, 1>, index_vector_dim = 1 : i64, offset_dims = array<i64>, slice_sizes = array<i64: 1, 1>, start_index_map = array<i64: 0, 1>} : (tensor<16x64xf32>, tensor<16x2xi32>) -> tensor<16xf32>
  return %g : tensor<16xf32>
}

// -----

// Index columns in the other order (start_index_map = [1, 0]); a broadcast of a 0-d value
// and a splat become values of the gather's shape; a unary op and a compare move too.
// CHECK-LABEL: func @gather_of_broadcast_permuted
// CHECK-DAG: %[[COL:.*]] = "hlo.slice"(%arg2) {limit_indices = array<i64: 5, 2>, start_indices = array<i64: 0, 1>
// CHECK-DAG: "hlo.gather"(%arg1, %[[COL]]) {{.*}} : (tensor<8xf32>, tensor<5x1xi32>) -> tensor<5xf32>
// CHECK-DAG: "hlo.broadcast_in_dim"(%arg3) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<5xf32>
// CHECK-DAG: "hlo.exponential"({{.*}}) : (tensor<5xf32>) -> tensor<5xf32>
// CHECK-DAG: "hlo.compare"({{.*}}) {comparison_direction = "LT"} : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xi1>
// CHECK-NOT: tensor<8x32xi1>
func.func @gather_of_broadcast_permuted(%x: tensor<8x32xf32>, %m: tensor<8xf32>, %idx: tensor<5x2xi32>, %s: tensor<f32>) -> tensor<5xi1> {
  %b = "hlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<8x32xf32>
  %e = "hlo.exponential"(%x) : (tensor<8x32xf32>) -> tensor<8x32xf32>
  %t = "hlo.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<8x32xf32>
  %a = "hlo.add"(%b, %t) : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xf32>
  %c = "hlo.compare"(%e, %a) {comparison_direction = "LT"} : (tensor<8x32xf32>, tensor<8x32xf32>) -> tensor<8x32xi1>
  %g = "hlo.gather"(%c, %idx) {collapsed_slice_dims = array<i64: 0, 1>, index_vector_dim = 1 : i64, offset_dims = array<i64>, slice_sizes = array<i64: 1, 1>, start_index_map = array<i64: 1, 0>} : (tensor<8x32xi1>, tensor<5x2xi32>) -> tensor<5xi1>
  return %g : tensor<5xi1>
}

// -----

// A gather of a splat is the splat.
// CHECK-LABEL: func @gather_of_splat
// CHECK-NOT: hlo.gather
// CHECK: "hlo.constant"() {value = dense<2.500000e+00> : tensor<3xf32>}
func.func @gather_of_splat(%idx: tensor<3x1xi32>) -> tensor<3xf32> {
  %c = "hlo.constant"() {value = dense<2.5> : tensor<64xf32>} : () -> tensor<64xf32>
  %g = "hlo.gather"(%c, %idx) {collapsed_slice_dims = array<i64: 0>, index_vector_dim = 1 : i64, offset_dims = array<i64>, slice_sizes = array<i64: 1>, start_index_map = array<i64: 0>} : (tensor<64xf32>, tensor<3x1xi32>) -> tensor<3xf32>
  return %g : tensor<3xf32>
}

// -----

// Kept: a gather that reads more than 1/8 of its operand (an embedding lookup reads whole
// rows, here 4 of 8), and a broadcast under a row gather (not a point gather).
// CHECK-LABEL: func @gather_kept_large
// CHECK: "hlo.exponential"(%arg0) : (tensor<8x16xf32>) -> tensor<8x16xf32>
// CHECK: "hlo.gather"
// CHECK-LABEL: func @gather_kept_rows
// CHECK: "hlo.broadcast_in_dim"
// CHECK: "hlo.gather"
func.func @gather_kept_large(%x: tensor<8x16xf32>, %idx: tensor<4x1xi32>) -> tensor<4x16xf32> {
  %e = "hlo.exponential"(%x) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %g = "hlo.gather"(%e, %idx) {collapsed_slice_dims = array<i64: 0>, index_vector_dim = 1 : i64, offset_dims = array<i64: 1>, slice_sizes = array<i64: 1, 16>, start_index_map = array<i64: 0>} : (tensor<8x16xf32>, tensor<4x1xi32>) -> tensor<4x16xf32>
  return %g : tensor<4x16xf32>
}
func.func @gather_kept_rows(%m: tensor<64xf32>, %idx: tensor<2x1xi32>) -> tensor<2x4xf32> {
  %b = "hlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<64xf32>) -> tensor<64x4xf32>
  %g = "hlo.gather"(%b, %idx) {collapsed_slice_dims = array<i64: 0>, index_vector_dim = 1 : i64, offset_dims = array<i64: 1>, slice_sizes = array<i64: 1, 4>, start_index_map = array<i64: 0>} : (tensor<64x4xf32>, tensor<2x1xi32>) -> tensor<2x4xf32>
  return %g : tensor<2x4xf32>
}
