// Each case breaks one rule of one op; hlo-verify (or the IRDL parser) names the op and
// the location of the error.
// RUN: not mlc-opt %s --split-input-file --hlo-verify 2>&1 | FileCheck %s

// A constant's result type must be its value's type.
func.func @constant_type_mismatch() -> tensor<3xf32> {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: 'hlo.constant' op result type tensor<3xf32> does not match the inferred type tensor<2xf32>
  %0 = "hlo.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// iota_dimension must index a result dimension.
func.func @iota_dimension_out_of_range() -> tensor<4xi32> {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: 'hlo.iota' op iota_dimension 1 is out of range for result rank 1
  %0 = "hlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// The IRDL constraint: both operands and the result of add share one type.
func.func @add_operand_types_differ(%a: tensor<4xf32>, %b: tensor<4xf64>) -> tensor<4xf32> {
  // CHECK: invalid.mlir:[[# @LINE + 2]]:8: error: expected 'tensor<4xf32>' but got 'tensor<4xf64>'
  // CHECK-NEXT: note: see current operation: %0 = "hlo.add"
  %0 = "hlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xf64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// subtract has no meaning on booleans.
func.func @subtract_bool(%a: tensor<4xi1>) -> tensor<4xi1> {
  // CHECK: error: 'hlo.subtract' op operands must have integer or float elements, got i1
  %0 = "hlo.subtract"(%a, %a) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @multiply_dynamic_shape(%a: tensor<?xf32>) -> tensor<?xf32> {
  // CHECK: error: 'hlo.multiply' op operand #0 must have a static shape, got tensor<?xf32> (dynamic shapes are not supported)
  %0 = "hlo.multiply"(%a, %a) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

func.func @divide_bool(%a: tensor<2xi1>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.divide' op operands must have integer or float elements, got i1
  %0 = "hlo.divide"(%a, %a) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @maximum_unranked(%a: tensor<*xf32>) -> tensor<*xf32> {
  // CHECK: error: expected base type 'builtin.tensor' but got 'builtin.unranked_tensor'
  // CHECK-NEXT: note: see current operation: %0 = "hlo.maximum"
  %0 = "hlo.maximum"(%a, %a) : (tensor<*xf32>, tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

func.func @minimum_result_type(%a: tensor<2xf32>) -> tensor<3xf32> {
  // CHECK: error: expected 'tensor<2xf32>' but got 'tensor<3xf32>'
  %0 = "hlo.minimum"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @negate_bool(%a: tensor<2xi1>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.negate' op operands must have integer or float elements, got i1
  %0 = "hlo.negate"(%a) : (tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @abs_bool(%a: tensor<2xi1>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.abs' op operands must have integer or float elements, got i1
  %0 = "hlo.abs"(%a) : (tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @exponential_integer(%a: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.exponential' op operands must have float elements, got i32
  %0 = "hlo.exponential"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @log_integer(%a: tensor<2xi64>) -> tensor<2xi64> {
  // CHECK: error: 'hlo.log' op operands must have float elements, got i64
  %0 = "hlo.log"(%a) : (tensor<2xi64>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @tanh_integer(%a: tensor<2xi8>) -> tensor<2xi8> {
  // CHECK: error: 'hlo.tanh' op operands must have float elements, got i8
  %0 = "hlo.tanh"(%a) : (tensor<2xi8>) -> tensor<2xi8>
  return %0 : tensor<2xi8>
}

// -----

func.func @sqrt_integer(%a: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.sqrt' op operands must have float elements, got i32
  %0 = "hlo.sqrt"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @rsqrt_integer(%a: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.rsqrt' op operands must have float elements, got i32
  %0 = "hlo.rsqrt"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @compare_bad_direction(%a: tensor<2xf32>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.compare' op comparison_direction must be one of EQ, NE, GE, GT, LE, LT, got "LESS"
  %0 = "hlo.compare"(%a, %a) {comparison_direction = "LESS"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @compare_type_mismatch(%a: tensor<2xf32>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.compare' op compare_type "SIGNED" does not fit element type f32
  %0 = "hlo.compare"(%a, %a) {comparison_direction = "LT", compare_type = "SIGNED"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @compare_result_not_i1(%a: tensor<2xf32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.compare' op result type tensor<2xi32> does not match the inferred type tensor<2xi1>
  %0 = "hlo.compare"(%a, %a) {comparison_direction = "LT"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @compare_missing_direction(%a: tensor<2xf32>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.compare' op attribute "comparison_direction" is expected but not provided
  %0 = "hlo.compare"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @select_pred_shape(%p: tensor<3xi1>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: error: 'hlo.select' op pred shape 3 must be scalar or equal the operand shape 2
  %0 = "hlo.select"(%p, %a, %a) : (tensor<3xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @select_pred_not_bool(%p: tensor<2xi32>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: error: 'hlo.select' op pred must have i1 elements, got i32
  %0 = "hlo.select"(%p, %a, %a) : (tensor<2xi32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @convert_shape_change(%a: tensor<2xf32>) -> tensor<3xi32> {
  // CHECK: error: 'hlo.convert' op result shape 3 must equal operand shape 2
  %0 = "hlo.convert"(%a) : (tensor<2xf32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

func.func @broadcast_in_dim_bad_size(%a: tensor<3xf32>) -> tensor<2x4xf32> {
  // CHECK: error: 'hlo.broadcast_in_dim' op operand dim 0 has size 3, which cannot broadcast to result dim 1 of size 4
  %0 = "hlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @broadcast_in_dim_out_of_range(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: error: 'hlo.broadcast_in_dim' op broadcast_dimensions entry 2 is out of range for rank 2
  %0 = "hlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 2>} : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @broadcast_in_dim_wrong_attribute(%a: tensor<3xf32>) -> tensor<2x3xf32> {
  // CHECK: error: 'hlo.broadcast_in_dim' op attribute 'broadcast_dimensions' must be array<i64: ...>, got array<i32: 1>
  %0 = "hlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i32: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reshape_element_count(%a: tensor<2x3xf32>) -> tensor<5xf32> {
  // CHECK: error: 'hlo.reshape' op cannot reshape 2x3 (6 elements) to 5 (5 elements)
  %0 = "hlo.reshape"(%a) : (tensor<2x3xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @transpose_not_a_permutation(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // CHECK: error: 'hlo.transpose' op permutation [0, 0] is not a permutation of 0..1
  %0 = "hlo.transpose"(%a) {permutation = array<i64: 0, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_result_shape(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: error: 'hlo.transpose' op result type tensor<2x3xf32> does not match the inferred type tensor<3x2xf32>
  %0 = "hlo.transpose"(%a) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reduce_bad_kind(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // CHECK: error: 'hlo.reduce' op kind must be one of add, mul, max, min, and, or, xor, got "sum"
  %0 = "hlo.reduce"(%a, %z) {dimensions = array<i64: 0>, kind = "sum"} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_xor_on_float(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<f32> {
  // CHECK: error: 'hlo.reduce' op kind "xor" needs integer or i1 elements, got f32
  %0 = "hlo.reduce"(%a, %z) {dimensions = array<i64: 0>, kind = "xor"} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @reduce_repeated_dimension(%a: tensor<4x2xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  // CHECK: error: 'hlo.reduce' op dimensions has repeated entries: [0, 0]
  %0 = "hlo.reduce"(%a, %z) {dimensions = array<i64: 0, 0>, kind = "add"} : (tensor<4x2xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @reduce_init_not_scalar(%a: tensor<4xf32>) -> tensor<f32> {
  // CHECK: error: 'hlo.reduce' op init value must be a 0-d tensor of f32, got tensor<4xf32>
  %0 = "hlo.reduce"(%a, %a) {dimensions = array<i64: 0>, kind = "add"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @dot_general_contracting_sizes(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // CHECK: error: 'hlo.dot_general' op contracting dimension sizes differ: lhs dim 1 is 3, rhs dim 0 is 4
  %0 = "hlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @dot_general_batch_count(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2xf32> {
  // CHECK: error: 'hlo.dot_general' op lhs and rhs must have as many batching dimensions, got [0] and []
  %0 = "hlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64: 0>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 1>} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @dot_general_dimension_reused(%a: tensor<3x3xf32>, %b: tensor<3x3xf32>) -> tensor<3xf32> {
  // CHECK: error: 'hlo.dot_general' op lhs batching + contracting dimensions has repeated entries: [0, 0]
  %0 = "hlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64: 0>, rhs_batching_dimensions = array<i64: 0>, lhs_contracting_dimensions = array<i64: 0>, rhs_contracting_dimensions = array<i64: 1>} : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @sign_bad_elements(%a: tensor<2xi1>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.sign' op operands must have integer or float elements, got i1
  %0 = "hlo.sign"(%a) : (tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @floor_bad_elements(%a: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.floor' op operands must have float elements, got i32
  %0 = "hlo.floor"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @ceil_bad_elements(%a: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.ceil' op operands must have float elements, got i32
  %0 = "hlo.ceil"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @round_nearest_even_bad_elements(%a: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.round_nearest_even' op operands must have float elements, got i32
  %0 = "hlo.round_nearest_even"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @round_nearest_afz_bad_elements(%a: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.round_nearest_afz' op operands must have float elements, got i32
  %0 = "hlo.round_nearest_afz"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @exponential_minus_one_bad_elements(%a: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.exponential_minus_one' op operands must have float elements, got i32
  %0 = "hlo.exponential_minus_one"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @log_plus_one_bad_elements(%a: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.log_plus_one' op operands must have float elements, got i32
  %0 = "hlo.log_plus_one"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @logistic_bad_elements(%a: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.logistic' op operands must have float elements, got i32
  %0 = "hlo.logistic"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @cbrt_bad_elements(%a: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.cbrt' op operands must have float elements, got i32
  %0 = "hlo.cbrt"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @sine_bad_elements(%a: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.sine' op operands must have float elements, got i32
  %0 = "hlo.sine"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @cosine_bad_elements(%a: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.cosine' op operands must have float elements, got i32
  %0 = "hlo.cosine"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @tan_bad_elements(%a: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.tan' op operands must have float elements, got i32
  %0 = "hlo.tan"(%a) : (tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @not_bad_elements(%a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: error: 'hlo.not' op operands must have integer or i1 elements, got f32
  %0 = "hlo.not"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @popcnt_bad_elements(%a: tensor<2xi1>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.popcnt' op operands must have integer (not i1) elements, got i1
  %0 = "hlo.popcnt"(%a) : (tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @count_leading_zeros_bad_elements(%a: tensor<2xi1>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.count_leading_zeros' op operands must have integer (not i1) elements, got i1
  %0 = "hlo.count_leading_zeros"(%a) : (tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @remainder_bad_elements(%a: tensor<2xi1>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.remainder' op operands must have integer or float elements, got i1
  %0 = "hlo.remainder"(%a, %a) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @power_bad_elements(%a: tensor<2xi1>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.power' op operands must have integer or float elements, got i1
  %0 = "hlo.power"(%a, %a) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @atan2_bad_elements(%a: tensor<2xi32>) -> tensor<2xi32> {
  // CHECK: error: 'hlo.atan2' op operands must have float elements, got i32
  %0 = "hlo.atan2"(%a, %a) : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %0 : tensor<2xi32>
}

// -----

func.func @and_bad_elements(%a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: error: 'hlo.and' op operands must have integer or i1 elements, got f32
  %0 = "hlo.and"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @or_bad_elements(%a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: error: 'hlo.or' op operands must have integer or i1 elements, got f32
  %0 = "hlo.or"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @xor_bad_elements(%a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: error: 'hlo.xor' op operands must have integer or i1 elements, got f32
  %0 = "hlo.xor"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @shift_left_bad_elements(%a: tensor<2xi1>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.shift_left' op operands must have integer (not i1) elements, got i1
  %0 = "hlo.shift_left"(%a, %a) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @shift_right_arithmetic_bad_elements(%a: tensor<2xi1>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.shift_right_arithmetic' op operands must have integer (not i1) elements, got i1
  %0 = "hlo.shift_right_arithmetic"(%a, %a) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @shift_right_logical_bad_elements(%a: tensor<2xi1>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.shift_right_logical' op operands must have integer (not i1) elements, got i1
  %0 = "hlo.shift_right_logical"(%a, %a) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @is_finite_integer(%a: tensor<2xi32>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.is_finite' op operands must have float elements, got i32
  %0 = "hlo.is_finite"(%a) : (tensor<2xi32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @clamp_bound_shape(%lo: tensor<3xf32>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: error: 'hlo.clamp' op min shape 3 must be scalar or equal the operand shape 2
  %0 = "hlo.clamp"(%lo, %a, %a) : (tensor<3xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @clamp_bound_type(%lo: tensor<f64>, %a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: error: 'hlo.clamp' op max element type f64 must equal operand's f32
  %0 = "hlo.clamp"(%a, %a, %lo) : (tensor<2xf32>, tensor<2xf32>, tensor<f64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @compare_totalorder_on_integers(%a: tensor<2xi32>) -> tensor<2xi1> {
  // CHECK: error: 'hlo.compare' op compare_type "TOTALORDER" does not fit element type i32
  %0 = "hlo.compare"(%a, %a) {comparison_direction = "LT", compare_type = "TOTALORDER"} : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  return %0 : tensor<2xi1>
}

// -----

func.func @bitcast_width_mismatch(%a: tensor<2xf32>) -> tensor<2xi64> {
  // CHECK: error: 'hlo.bitcast_convert' op cannot bitcast f32 to i64: element types must have the same bit width, and i1 has no bit layout
  %0 = "hlo.bitcast_convert"(%a) : (tensor<2xf32>) -> tensor<2xi64>
  return %0 : tensor<2xi64>
}

// -----

func.func @reverse_dimension_out_of_range(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: error: 'hlo.reverse' op dimensions entry 2 is out of range for rank 2
  %0 = "hlo.reverse"(%a) {dimensions = array<i64: 2>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @slice_limit_past_end(%a: tensor<4xf32>) -> tensor<3xf32> {
  // CHECK: error: 'hlo.slice' op dimension 0: need 0 <= start (2) <= limit (5) <= size (4)
  %0 = "hlo.slice"(%a) {start_indices = array<i64: 2>, limit_indices = array<i64: 5>, strides = array<i64: 1>} : (tensor<4xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @slice_zero_stride(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: error: 'hlo.slice' op strides[0] = 0 must be positive
  %0 = "hlo.slice"(%a) {start_indices = array<i64: 0>, limit_indices = array<i64: 4>, strides = array<i64: 0>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @slice_mismatched_lengths(%a: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // CHECK: error: 'hlo.slice' op limit_indices has 1 entries, operand rank is 2
  %0 = "hlo.slice"(%a) {start_indices = array<i64: 0, 0>, limit_indices = array<i64: 4>, strides = array<i64: 1, 1>} : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}

// -----

func.func @dynamic_slice_too_big(%a: tensor<4xf32>, %i: tensor<i32>) -> tensor<5xf32> {
  // CHECK: error: 'hlo.dynamic_slice' op slice_sizes[0] = 5 must be in [0, 4]
  %0 = "hlo.dynamic_slice"(%a, %i) {slice_sizes = array<i64: 5>} : (tensor<4xf32>, tensor<i32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

func.func @dynamic_slice_missing_start(%a: tensor<4x4xf32>, %i: tensor<i32>) -> tensor<2x2xf32> {
  // CHECK: error: 'hlo.dynamic_slice' op takes 2 start indices (one per operand dimension), got 1
  %0 = "hlo.dynamic_slice"(%a, %i) {slice_sizes = array<i64: 2, 2>} : (tensor<4x4xf32>, tensor<i32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

func.func @dynamic_update_slice_float_start(%a: tensor<4xf32>, %u: tensor<2xf32>, %i: tensor<f32>) -> tensor<4xf32> {
  // CHECK: error: 'hlo.dynamic_update_slice' op start index 0 must be a 0-d integer tensor, got tensor<f32>
  %0 = "hlo.dynamic_update_slice"(%a, %u, %i) : (tensor<4xf32>, tensor<2xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @dynamic_update_slice_update_too_big(%a: tensor<4xf32>, %u: tensor<5xf32>, %i: tensor<i32>) -> tensor<4xf32> {
  // CHECK: error: 'hlo.dynamic_update_slice' op update dim 0 (5) is larger than operand dim (4)
  %0 = "hlo.dynamic_update_slice"(%a, %u, %i) : (tensor<4xf32>, tensor<5xf32>, tensor<i32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @pad_negative_size(%a: tensor<2xf32>, %z: tensor<f32>) -> tensor<0xf32> {
  // CHECK: error: 'hlo.pad' op dimension 0 would have negative size -1
  %0 = "hlo.pad"(%a, %z) {edge_padding_low = array<i64: -2>, edge_padding_high = array<i64: -1>, interior_padding = array<i64: 0>} : (tensor<2xf32>, tensor<f32>) -> tensor<0xf32>
  return %0 : tensor<0xf32>
}

// -----

func.func @pad_negative_interior(%a: tensor<2xf32>, %z: tensor<f32>) -> tensor<2xf32> {
  // CHECK: error: 'hlo.pad' op interior_padding[0] = -1 must be non-negative
  %0 = "hlo.pad"(%a, %z) {edge_padding_low = array<i64: 0>, edge_padding_high = array<i64: 0>, interior_padding = array<i64: -1>} : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @argmax_float_result(%a: tensor<4xf32>) -> tensor<f32> {
  // CHECK: error: 'hlo.argmax' op result element type must be an integer index type, got f32
  %0 = "hlo.argmax"(%a) {dimension = 0 : i64} : (tensor<4xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @argmin_empty_dimension(%a: tensor<0x3xf32>) -> tensor<3xi64> {
  // CHECK: error: 'hlo.argmin' op dimension 0 has size 0: an empty dimension has no argmin
  %0 = "hlo.argmin"(%a) {dimension = 0 : i64} : (tensor<0x3xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @reduce_window_zero_stride(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  // CHECK: error: 'hlo.reduce_window' op window_strides[0] = 0 must be positive
  %0 = "hlo.reduce_window"(%a, %z) {window_dimensions = array<i64: 2>, window_strides = array<i64: 0>, kind = "add"} : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @reduce_window_bad_padding(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<3xf32> {
  // CHECK: error: 'hlo.reduce_window' op padding must be a tensor<1x2xi64>, got tensor<2xi64>
  %0 = "hlo.reduce_window"(%a, %z) {window_dimensions = array<i64: 2>, padding = dense<[0, 1]> : tensor<2xi64>, kind = "add"} : (tensor<4xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @reduce_window_larger_than_input(%a: tensor<4xf32>, %z: tensor<f32>) -> tensor<1xf32> {
  // CHECK: error: 'hlo.reduce_window' op the window (spanning 5) is larger than the padded input (4) in dimension 0
  %0 = "hlo.reduce_window"(%a, %z) {window_dimensions = array<i64: 5>, kind = "max"} : (tensor<4xf32>, tensor<f32>) -> tensor<1xf32>
  return %0 : tensor<1xf32>
}

// -----

func.func @convolution_feature_mismatch(%x: tensor<1x4x8xf32>, %w: tensor<2x3x3xf32>) -> tensor<1x2x6xf32> {
  // CHECK: error: 'hlo.convolution' op input features (4) / feature_group_count (1) must equal the kernel's input features (3)
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 1 : i64, input_spatial_dimensions = array<i64: 2>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 0 : i64, kernel_spatial_dimensions = array<i64: 2>, output_batch_dimension = 0 : i64, output_feature_dimension = 1 : i64, output_spatial_dimensions = array<i64: 2>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x8xf32>, tensor<2x3x3xf32>) -> tensor<1x2x6xf32>
  return %0 : tensor<1x2x6xf32>
}

// -----

func.func @convolution_both_group_counts(%x: tensor<2x4x8xf32>, %w: tensor<2x2x3xf32>) -> tensor<1x2x6xf32> {
  // CHECK: error: 'hlo.convolution' op feature_group_count (2) and batch_group_count (2) must be positive and at most one of them > 1
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 1 : i64, input_spatial_dimensions = array<i64: 2>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 0 : i64, kernel_spatial_dimensions = array<i64: 2>, output_batch_dimension = 0 : i64, output_feature_dimension = 1 : i64, output_spatial_dimensions = array<i64: 2>, feature_group_count = 2 : i64, batch_group_count = 2 : i64} : (tensor<2x4x8xf32>, tensor<2x2x3xf32>) -> tensor<1x2x6xf32>
  return %0 : tensor<1x2x6xf32>
}

// -----

func.func @convolution_bad_dimension_numbers(%x: tensor<1x4x8xf32>, %w: tensor<2x4x3xf32>) -> tensor<1x2x6xf32> {
  // CHECK: error: 'hlo.convolution' op output dimension numbers [0, 0, 2] must be a permutation of 0..2
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 1 : i64, input_spatial_dimensions = array<i64: 2>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 0 : i64, kernel_spatial_dimensions = array<i64: 2>, output_batch_dimension = 0 : i64, output_feature_dimension = 0 : i64, output_spatial_dimensions = array<i64: 2>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x8xf32>, tensor<2x4x3xf32>) -> tensor<1x2x6xf32>
  return %0 : tensor<1x2x6xf32>
}

// -----

func.func @convolution_kernel_larger_than_input(%x: tensor<1x4x2xf32>, %w: tensor<2x4x3xf32>) -> tensor<1x2x1xf32> {
  // CHECK: error: 'hlo.convolution' op the window (spanning 3) is larger than the padded input (2) in dimension 2
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 1 : i64, input_spatial_dimensions = array<i64: 2>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 0 : i64, kernel_spatial_dimensions = array<i64: 2>, output_batch_dimension = 0 : i64, output_feature_dimension = 1 : i64, output_spatial_dimensions = array<i64: 2>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x2xf32>, tensor<2x4x3xf32>) -> tensor<1x2x1xf32>
  return %0 : tensor<1x2x1xf32>
}

// -----

func.func @convolution_zero_stride(%x: tensor<1x4x8xf32>, %w: tensor<2x4x3xf32>) -> tensor<1x2x6xf32> {
  // CHECK: error: 'hlo.convolution' op strides must have 1 positive entries, got [0]
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 1 : i64, input_spatial_dimensions = array<i64: 2>, kernel_input_feature_dimension = 1 : i64, kernel_output_feature_dimension = 0 : i64, kernel_spatial_dimensions = array<i64: 2>, output_batch_dimension = 0 : i64, output_feature_dimension = 1 : i64, output_spatial_dimensions = array<i64: 2>, window_strides = array<i64: 0>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x4x8xf32>, tensor<2x4x3xf32>) -> tensor<1x2x6xf32>
  return %0 : tensor<1x2x6xf32>
}

// -----

func.func @gather_slice_too_big(%t: tensor<5x4xf32>, %i: tensor<3xi32>) -> tensor<3x5xf32> {
  // CHECK: error: 'hlo.gather' op slice_sizes[1] = 5 must be in [0, 4]
  %0 = "hlo.gather"(%t, %i) {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 5>} : (tensor<5x4xf32>, tensor<3xi32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @gather_collapsed_dim_not_unit(%t: tensor<5x4xf32>, %i: tensor<3xi32>) -> tensor<3x4xf32> {
  // CHECK: error: 'hlo.gather' op slice_sizes[0] must be 0 or 1 for a collapsed or batching dimension
  %0 = "hlo.gather"(%t, %i) {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 2, 4>} : (tensor<5x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_float_indices(%t: tensor<5x4xf32>, %i: tensor<3xf32>) -> tensor<3x4xf32> {
  // CHECK: error: 'hlo.gather' op start_indices must have integer elements, got f32
  %0 = "hlo.gather"(%t, %i) {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 4>} : (tensor<5x4xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @scatter_bad_kind(%t: tensor<5x4xf32>, %r: tensor<6xi32>, %u: tensor<6x4xf32>) -> tensor<5x4xf32> {
  // CHECK: error: 'hlo.scatter' op kind must be one of set, add, mul, max, min, got "xor"
  %0 = "hlo.scatter"(%t, %r, %u) {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, kind = "xor"} : (tensor<5x4xf32>, tensor<6xi32>, tensor<6x4xf32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

func.func @scatter_updates_mismatch(%t: tensor<5x4xf32>, %r: tensor<6xi32>, %u: tensor<7x4xf32>) -> tensor<5x4xf32> {
  // CHECK: error: 'hlo.scatter' op updates scatter dims [7] must match the scatter index batch shape [6]
  %0 = "hlo.scatter"(%t, %r, %u) {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, kind = "set"} : (tensor<5x4xf32>, tensor<6xi32>, tensor<7x4xf32>) -> tensor<5x4xf32>
  return %0 : tensor<5x4xf32>
}

// -----

func.func @sort_dimension_out_of_range(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: error: 'hlo.sort' op dimension 1 is out of range for rank 1
  %0 = "hlo.sort"(%a) {dimension = 1 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @sort_descending_not_bool(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: error: 'hlo.sort' op attribute 'descending' must be true or false, got "yes"
  %0 = "hlo.sort"(%a) {dimension = 0 : i64, descending = "yes"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @argsort_float_result(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: error: 'hlo.argsort' op result element type must be an integer index type, got f32
  %0 = "hlo.argsort"(%a) {dimension = 0 : i64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @argsort_limit_too_large(%a: tensor<4x5xf32>) -> tensor<4x6xi32> {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: 'hlo.argsort' op limit 6 is out of range for dimension 1 of size 5
  %0 = "hlo.argsort"(%a) {dimension = 1 : i64, limit = 6 : i64} : (tensor<4x5xf32>) -> tensor<4x6xi32>
  return %0 : tensor<4x6xi32>
}

// -----

func.func @argsort_limit_wrong_result(%a: tensor<4x5xf32>) -> tensor<4x5xi32> {
  // CHECK: error: 'hlo.argsort' op
  // CHECK-SAME: tensor<4x2xi32>
  %0 = "hlo.argsort"(%a) {dimension = 1 : i64, limit = 2 : i64} : (tensor<4x5xf32>) -> tensor<4x5xi32>
  return %0 : tensor<4x5xi32>
}

// -----

func.func @not_an_hlo_op(%a: tensor<2xf32>) -> tensor<2xf32> {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: custom op 'hlo.frobnicate' is unknown
  %0 = hlo.frobnicate %a : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A gather whose batching dims pair sizes 4 and 3 would read outside the operand.
func.func @gather_batching_size_mismatch(%x: tensor<4x5xf32>, %i: tensor<3x1xi32>) -> tensor<3xf32> {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: 'hlo.gather' op operand_batching_dims dim 0 (size 4) and start_indices_batching_dims dim 0 (size 3) must have the same size
  %0 = "hlo.gather"(%x, %i) {offset_dims = array<i64>, collapsed_slice_dims = array<i64: 1>, operand_batching_dims = array<i64: 0>, start_indices_batching_dims = array<i64: 0>, start_index_map = array<i64: 1>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 1>} : (tensor<4x5xf32>, tensor<3x1xi32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// A batching dim of the indices cannot be the index vector dim.
func.func @gather_batching_is_index_vector_dim(%x: tensor<4x5xf32>, %i: tensor<4x1xi32>) -> tensor<4xf32> {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: 'hlo.gather' op start_indices_batching_dims must not contain index_vector_dim 1
  %0 = "hlo.gather"(%x, %i) {offset_dims = array<i64>, collapsed_slice_dims = array<i64: 1>, operand_batching_dims = array<i64: 0>, start_indices_batching_dims = array<i64: 1>, start_index_map = array<i64: 1>, index_vector_dim = 1 : i64, slice_sizes = array<i64: 1, 1>} : (tensor<4x5xf32>, tensor<4x1xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A scatter's batching dims must pair equal sizes too.
func.func @scatter_batching_size_mismatch(%x: tensor<4x5xf32>, %i: tensor<3x1xi32>, %u: tensor<3xf32>) -> tensor<4x5xf32> {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: 'hlo.scatter' op input_batching_dims dim 0 (size 4) and scatter_indices_batching_dims dim 0 (size 3) must have the same size
  %0 = "hlo.scatter"(%x, %i, %u) {update_window_dims = array<i64>, inserted_window_dims = array<i64: 1>, input_batching_dims = array<i64: 0>, scatter_indices_batching_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 1>, index_vector_dim = 1 : i64, kind = "set"} : (tensor<4x5xf32>, tensor<3x1xi32>, tensor<3xf32>) -> tensor<4x5xf32>
  return %0 : tensor<4x5xf32>
}

// -----

// Dimension lists are array<i64: ...>; another element type is rejected, not a crash.
func.func @ui32_dimension_list(%x: tensor<4x3xf32>) -> tensor<3x4xf32> {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: 'hlo.transpose' op attribute 'permutation' has a type the hlo dialect does not use
  %0 = "hlo.transpose"(%x) {permutation = array<ui32: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// Paddings past 2^62 overflow 64-bit size arithmetic.
func.func @pad_past_int64(%x: tensor<4xf32>, %p: tensor<f32>) -> tensor<4xf32> {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: 'hlo.pad' op attribute 'edge_padding_low' value 9223372036854775807 is out of range (|v| < 2^62)
  %0 = "hlo.pad"(%x, %p) {edge_padding_low = array<i64: 9223372036854775807>, edge_padding_high = array<i64: -9223372036854775807>, interior_padding = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Paddings that cancel out still build the padded tensor first: it must fit in memory.
func.func @pad_huge_before_cropping(%x: tensor<4xf32>, %p: tensor<f32>) -> tensor<4xf32> {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: 'hlo.pad' op the padded operand (before negative padding) is too large
  %0 = "hlo.pad"(%x, %p) {edge_padding_low = array<i64: 4611686018427387000>, edge_padding_high = array<i64: -4611686018427387000>, interior_padding = array<i64: 0>} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// f8, tf32 and i128 are element types MLC does not compute with; the signature is named too.
// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: 'func.func' op argument #0 has unsupported element type f8E4M3FN
func.func @f8_elements(%x: tensor<4xf8E4M3FN>) -> tensor<4xi128> {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: 'hlo.convert' op operand #0 has unsupported element type f8E4M3FN
  %0 = "hlo.convert"(%x) : (tensor<4xf8E4M3FN>) -> tensor<4xi128>
  return %0 : tensor<4xi128>
}

// -----

// 2^64 elements: sizes and strides would overflow i64 (bufferization asserted on it).
// CHECK: invalid.mlir:[[# @LINE + 1]]:1: error: 'func.func' op argument #0 is too large: tensor<4294967296x4294967296xf32>
func.func @too_large(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: 'hlo.negate' op operand #0 is too large
  %0 = "hlo.negate"(%x) : (tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32>
  return %0 : tensor<4294967296x4294967296xf32>
}

// -----

func.func @all_reduce_bad_kind(%a: tensor<4xf32>) -> tensor<4xf32> {
  // CHECK: error: 'hlo.all_reduce' op kind must be one of add, mul, max, min, got "xor"
  %0 = "hlo.all_reduce"(%a) {kind = "xor"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @all_reduce_on_i1(%a: tensor<4xi1>) -> tensor<4xi1> {
  // CHECK: error: 'hlo.all_reduce' op operands must have integer or float elements, got i1
  %0 = "hlo.all_reduce"(%a) {kind = "add"} : (tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @all_reduce_result_shape(%a: tensor<4xf32>) -> tensor<2xf32> {
  // CHECK: invalid.mlir:[[# @LINE + 1]]:8: error: expected 'tensor<4xf32>' but got 'tensor<2xf32>'
  %0 = "hlo.all_reduce"(%a) {kind = "add"} : (tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @collective_broadcast_on_i1(%a: tensor<4xi1>) -> tensor<4xi1> {
  // CHECK: error: 'hlo.collective_broadcast' op operands must have integer or float elements, got i1
  %0 = "hlo.collective_broadcast"(%a) : (tensor<4xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @all_gather_not_a_multiple(%a: tensor<2x3xf32>) -> tensor<2x5xf32> {
  // CHECK: error: 'hlo.all_gather' op result dim 1 (5) must be the operand's (3) times the number of processes
  %0 = "hlo.all_gather"(%a) {all_gather_dim = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

func.func @all_gather_dim_out_of_range(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: error: 'hlo.all_gather' op all_gather_dim 2 is out of range for rank 2
  %0 = "hlo.all_gather"(%a) {all_gather_dim = 2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reduce_scatter_not_a_block(%a: tensor<6xf32>) -> tensor<4xf32> {
  // CHECK: error: 'hlo.reduce_scatter' op operand dim 0 (6) must be the result's (4) times the number of processes
  %0 = "hlo.reduce_scatter"(%a) {scatter_dimension = 0 : i64, kind = "add"} : (tensor<6xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
