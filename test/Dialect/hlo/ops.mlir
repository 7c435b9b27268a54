// Round trip: every hlo op parses, verifies, prints and re-parses unchanged; upstream
// mlir-opt loads the same dialect from the checked-in IRDL file.
// RUN: mlc-opt %s --hlo-verify | mlc-opt --hlo-verify | FileCheck %s
// RUN: %mlir_opt --irdl-file=%hlo_irdl %s | FileCheck %s

// CHECK-LABEL: func @constants
func.func @constants() -> (tensor<2xf32>, tensor<2x3xi32>, tensor<i1>) {
  // CHECK: "hlo.constant"() {value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "hlo.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  // CHECK: "hlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x3xi32>
  %1 = "hlo.iota"() {iota_dimension = 1 : i64} : () -> tensor<2x3xi32>
  // CHECK: "hlo.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %2 = "hlo.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  return %0, %1, %2 : tensor<2xf32>, tensor<2x3xi32>, tensor<i1>
}

// CHECK-LABEL: func @binary
func.func @binary(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // CHECK: "hlo.add"(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = "hlo.add"(%a, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "hlo.subtract"
  %1 = "hlo.subtract"(%0, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "hlo.multiply"
  %2 = "hlo.multiply"(%1, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "hlo.divide"
  %3 = "hlo.divide"(%2, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "hlo.maximum"
  %4 = "hlo.maximum"(%3, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "hlo.minimum"
  %5 = "hlo.minimum"(%4, %b) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %5 : tensor<2x3xf32>
}

// CHECK-LABEL: func @unary
func.func @unary(%a: tensor<4xf64>, %i: tensor<4xi64>) -> (tensor<4xf64>, tensor<4xi64>) {
  // CHECK: "hlo.negate"
  %0 = "hlo.negate"(%a) : (tensor<4xf64>) -> tensor<4xf64>
  // CHECK: "hlo.abs"
  %1 = "hlo.abs"(%0) : (tensor<4xf64>) -> tensor<4xf64>
  // CHECK: "hlo.exponential"
  %2 = "hlo.exponential"(%1) : (tensor<4xf64>) -> tensor<4xf64>
  // CHECK: "hlo.log"
  %3 = "hlo.log"(%2) : (tensor<4xf64>) -> tensor<4xf64>
  // CHECK: "hlo.tanh"
  %4 = "hlo.tanh"(%3) : (tensor<4xf64>) -> tensor<4xf64>
  // CHECK: "hlo.sqrt"
  %5 = "hlo.sqrt"(%4) : (tensor<4xf64>) -> tensor<4xf64>
  // CHECK: "hlo.rsqrt"
  %6 = "hlo.rsqrt"(%5) : (tensor<4xf64>) -> tensor<4xf64>
  // CHECK: "hlo.abs"(%{{.*}}) : (tensor<4xi64>) -> tensor<4xi64>
  %7 = "hlo.abs"(%i) : (tensor<4xi64>) -> tensor<4xi64>
  return %6, %7 : tensor<4xf64>, tensor<4xi64>
}

// CHECK-LABEL: func @compare_select_convert
func.func @compare_select_convert(%a: tensor<3xi32>, %b: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xf32>) {
  // CHECK: "hlo.compare"(%{{.*}}, %{{.*}}) {compare_type = "UNSIGNED", comparison_direction = "LT"} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  %0 = "hlo.compare"(%a, %b) {comparison_direction = "LT", compare_type = "UNSIGNED"} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
  // CHECK: "hlo.select"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<3xi1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  %1 = "hlo.select"(%0, %a, %b) : (tensor<3xi1>, tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // CHECK: "hlo.convert"(%{{.*}}) : (tensor<3xi32>) -> tensor<3xf32>
  %2 = "hlo.convert"(%1) : (tensor<3xi32>) -> tensor<3xf32>
  return %1, %2 : tensor<3xi32>, tensor<3xf32>
}

// CHECK-LABEL: func @shapes
func.func @shapes(%a: tensor<3xf32>) -> tensor<3x2xf32> {
  // CHECK: "hlo.broadcast_in_dim"(%{{.*}}) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
  %0 = "hlo.broadcast_in_dim"(%a) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: "hlo.reshape"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<6xf32>
  %1 = "hlo.reshape"(%0) : (tensor<2x3xf32>) -> tensor<6xf32>
  %2 = "hlo.reshape"(%1) : (tensor<6xf32>) -> tensor<2x3xf32>
  // CHECK: "hlo.transpose"(%{{.*}}) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = "hlo.transpose"(%2) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %3 : tensor<3x2xf32>
}

// CHECK-LABEL: func @reduce_and_dot
func.func @reduce_and_dot(%a: tensor<2x3x4xf32>, %b: tensor<2x4x5xf32>, %z: tensor<f32>) -> (tensor<2x4xf32>, tensor<2x3x5xf32>) {
  // CHECK: "hlo.reduce"(%{{.*}}, %{{.*}}) {dimensions = array<i64: 1>, kind = "max"} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  %0 = "hlo.reduce"(%a, %z) {dimensions = array<i64: 1>, kind = "max"} : (tensor<2x3x4xf32>, tensor<f32>) -> tensor<2x4xf32>
  // CHECK: "hlo.dot_general"(%{{.*}}, %{{.*}}) {lhs_batching_dimensions = array<i64: 0>, lhs_contracting_dimensions = array<i64: 2>, rhs_batching_dimensions = array<i64: 0>, rhs_contracting_dimensions = array<i64: 1>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  %1 = "hlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64: 0>, rhs_batching_dimensions = array<i64: 0>, lhs_contracting_dimensions = array<i64: 2>, rhs_contracting_dimensions = array<i64: 1>} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0, %1 : tensor<2x4xf32>, tensor<2x3x5xf32>
}

// hlo ops verify and lower inside upstream control flow.
// CHECK-LABEL: func @in_scf_if
func.func @in_scf_if(%p: tensor<i1>, %a: tensor<3xf32>) -> tensor<3xf32> {
  %c = tensor.extract %p[] : tensor<i1>
  // CHECK: scf.if
  %r = scf.if %c -> tensor<3xf32> {
    // CHECK: "hlo.exponential"
    %e = "hlo.exponential"(%a) : (tensor<3xf32>) -> tensor<3xf32>
    scf.yield %e : tensor<3xf32>
  } else {
    scf.yield %a : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}

// CHECK-LABEL: func @more_elementwise
func.func @more_elementwise(%a: tensor<3xf32>, %i: tensor<3xi32>) -> (tensor<3xf32>, tensor<3xi32>, tensor<3xi1>) {
  // CHECK: "hlo.sign"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
  %f0 = "hlo.sign"(%a) : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.floor"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
  %f1 = "hlo.floor"(%f0) : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.ceil"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
  %f2 = "hlo.ceil"(%f1) : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.round_nearest_even"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
  %f3 = "hlo.round_nearest_even"(%f2) : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.round_nearest_afz"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
  %f4 = "hlo.round_nearest_afz"(%f3) : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.exponential_minus_one"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
  %f5 = "hlo.exponential_minus_one"(%f4) : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.log_plus_one"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
  %f6 = "hlo.log_plus_one"(%f5) : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.logistic"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
  %f7 = "hlo.logistic"(%f6) : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.cbrt"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
  %f8 = "hlo.cbrt"(%f7) : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.sine"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
  %f9 = "hlo.sine"(%f8) : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.cosine"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
  %f10 = "hlo.cosine"(%f9) : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.tan"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xf32>
  %f11 = "hlo.tan"(%f10) : (tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.remainder"
  %g0 = "hlo.remainder"(%f11, %a) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.power"
  %g1 = "hlo.power"(%g0, %a) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.atan2"
  %g2 = "hlo.atan2"(%g1, %a) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.not"
  %u0 = "hlo.not"(%i) : (tensor<3xi32>) -> tensor<3xi32>
  // CHECK: "hlo.popcnt"
  %u1 = "hlo.popcnt"(%u0) : (tensor<3xi32>) -> tensor<3xi32>
  // CHECK: "hlo.count_leading_zeros"
  %u2 = "hlo.count_leading_zeros"(%u1) : (tensor<3xi32>) -> tensor<3xi32>
  // CHECK: "hlo.and"
  %b0 = "hlo.and"(%u2, %i) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // CHECK: "hlo.or"
  %b1 = "hlo.or"(%b0, %i) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // CHECK: "hlo.xor"
  %b2 = "hlo.xor"(%b1, %i) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // CHECK: "hlo.shift_left"
  %b3 = "hlo.shift_left"(%b2, %i) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // CHECK: "hlo.shift_right_arithmetic"
  %b4 = "hlo.shift_right_arithmetic"(%b3, %i) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // CHECK: "hlo.shift_right_logical"
  %b5 = "hlo.shift_right_logical"(%b4, %i) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  // CHECK: "hlo.is_finite"(%{{.*}}) : (tensor<3xf32>) -> tensor<3xi1>
  %fin = "hlo.is_finite"(%g2) : (tensor<3xf32>) -> tensor<3xi1>
  %lo = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  // CHECK: "hlo.clamp"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<f32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %cl = "hlo.clamp"(%lo, %g2, %a) : (tensor<f32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  // CHECK: "hlo.compare"(%{{.*}}, %{{.*}}) {compare_type = "TOTALORDER", comparison_direction = "GE"}
  %to = "hlo.compare"(%cl, %a) {comparison_direction = "GE", compare_type = "TOTALORDER"} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  return %cl, %b5, %fin : tensor<3xf32>, tensor<3xi32>, tensor<3xi1>
}

// CHECK-LABEL: func @slicing
func.func @slicing(%a: tensor<4x5xf32>, %i: tensor<i32>, %z: tensor<f32>) -> (tensor<4x5xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<4x5xf32>, tensor<5x12xf32>, tensor<4x5xi32>) {
  // CHECK: "hlo.reverse"(%{{.*}}) {dimensions = array<i64: 1>}
  %0 = "hlo.reverse"(%a) {dimensions = array<i64: 1>} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  // CHECK: "hlo.slice"(%{{.*}}) {limit_indices = array<i64: 4, 4>, start_indices = array<i64: 1, 0>, strides = array<i64: 2, 3>}
  %1 = "hlo.slice"(%a) {start_indices = array<i64: 1, 0>, limit_indices = array<i64: 4, 4>, strides = array<i64: 2, 3>} : (tensor<4x5xf32>) -> tensor<2x2xf32>
  // CHECK: "hlo.dynamic_slice"(%{{.*}}, %{{.*}}, %{{.*}}) {slice_sizes = array<i64: 2, 3>}
  %2 = "hlo.dynamic_slice"(%a, %i, %i) {slice_sizes = array<i64: 2, 3>} : (tensor<4x5xf32>, tensor<i32>, tensor<i32>) -> tensor<2x3xf32>
  // CHECK: "hlo.dynamic_update_slice"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}})
  %3 = "hlo.dynamic_update_slice"(%a, %2, %i, %i) : (tensor<4x5xf32>, tensor<2x3xf32>, tensor<i32>, tensor<i32>) -> tensor<4x5xf32>
  // CHECK: "hlo.pad"(%{{.*}}, %{{.*}}) {edge_padding_high = array<i64: -1, 0>, edge_padding_low = array<i64: 2, -1>, interior_padding = array<i64: 0, 2>}
  %4 = "hlo.pad"(%a, %z) {edge_padding_low = array<i64: 2, -1>, edge_padding_high = array<i64: -1, 0>, interior_padding = array<i64: 0, 2>} : (tensor<4x5xf32>, tensor<f32>) -> tensor<5x12xf32>
  // CHECK: "hlo.bitcast_convert"(%{{.*}}) : (tensor<4x5xf32>) -> tensor<4x5xi32>
  %5 = "hlo.bitcast_convert"(%a) : (tensor<4x5xf32>) -> tensor<4x5xi32>
  return %0, %1, %2, %3, %4, %5 : tensor<4x5xf32>, tensor<2x2xf32>, tensor<2x3xf32>, tensor<4x5xf32>, tensor<5x12xf32>, tensor<4x5xi32>
}

// CHECK-LABEL: func @windows
func.func @windows(%a: tensor<4x5xf32>, %z: tensor<f32>) -> (tensor<4xi64>, tensor<5xi32>, tensor<2x3xf32>) {
  // CHECK: "hlo.argmax"(%{{.*}}) {dimension = 1 : i64} : (tensor<4x5xf32>) -> tensor<4xi64>
  %0 = "hlo.argmax"(%a) {dimension = 1 : i64} : (tensor<4x5xf32>) -> tensor<4xi64>
  // CHECK: "hlo.argmin"(%{{.*}}) {dimension = 0 : i64} : (tensor<4x5xf32>) -> tensor<5xi32>
  %1 = "hlo.argmin"(%a) {dimension = 0 : i64} : (tensor<4x5xf32>) -> tensor<5xi32>
  // CHECK: "hlo.reduce_window"(%{{.*}}, %{{.*}}) {kind = "max", padding = dense<{{\[\[}}0, 1], [1, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}
  %2 = "hlo.reduce_window"(%a, %z) {window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>, padding = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>, kind = "max"} : (tensor<4x5xf32>, tensor<f32>) -> tensor<2x3xf32>
  return %0, %1, %2 : tensor<4xi64>, tensor<5xi32>, tensor<2x3xf32>
}

// CHECK-LABEL: func @convolution_nhwc
func.func @convolution_nhwc(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32> {
  // CHECK: "hlo.convolution"(%{{.*}}, %{{.*}}) {batch_group_count = 1 : i64, feature_group_count = 1 : i64, input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>
  %0 = "hlo.convolution"(%x, %w) {input_batch_dimension = 0 : i64, input_feature_dimension = 3 : i64, input_spatial_dimensions = array<i64: 1, 2>, kernel_input_feature_dimension = 2 : i64, kernel_output_feature_dimension = 3 : i64, kernel_spatial_dimensions = array<i64: 0, 1>, output_batch_dimension = 0 : i64, output_feature_dimension = 3 : i64, output_spatial_dimensions = array<i64: 1, 2>, window_strides = array<i64: 2, 2>, padding = dense<[[1, 1], [1, 1]]> : tensor<2x2xi64>, feature_group_count = 1 : i64, batch_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x16xf32>) -> tensor<1x4x4x16xf32>
  return %0 : tensor<1x4x4x16xf32>
}

// CHECK-LABEL: func @gather_scatter
func.func @gather_scatter(%t: tensor<5x4xf32>, %i: tensor<2x3xi32>, %r: tensor<6xi32>, %u: tensor<6x4xf32>) -> (tensor<2x3x4xf32>, tensor<5x4xf32>) {
  // CHECK: "hlo.gather"(%{{.*}}, %{{.*}}) {collapsed_slice_dims = array<i64: 0>, index_vector_dim = 2 : i64, indices_are_sorted = false, offset_dims = array<i64: 2>, slice_sizes = array<i64: 1, 4>, start_index_map = array<i64: 0>}
  %0 = "hlo.gather"(%t, %i) {offset_dims = array<i64: 2>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 2 : i64, slice_sizes = array<i64: 1, 4>, indices_are_sorted = false} : (tensor<5x4xf32>, tensor<2x3xi32>) -> tensor<2x3x4xf32>
  // CHECK: "hlo.scatter"(%{{.*}}, %{{.*}}, %{{.*}}) {index_vector_dim = 1 : i64, inserted_window_dims = array<i64: 0>, kind = "add", scatter_dims_to_operand_dims = array<i64: 0>, update_window_dims = array<i64: 1>}
  %1 = "hlo.scatter"(%t, %r, %u) {update_window_dims = array<i64: 1>, inserted_window_dims = array<i64: 0>, scatter_dims_to_operand_dims = array<i64: 0>, index_vector_dim = 1 : i64, kind = "add"} : (tensor<5x4xf32>, tensor<6xi32>, tensor<6x4xf32>) -> tensor<5x4xf32>
  return %0, %1 : tensor<2x3x4xf32>, tensor<5x4xf32>
}

// CHECK-LABEL: func @sorting
func.func @sorting(%a: tensor<4x5xf32>) -> (tensor<4x5xf32>, tensor<4x5xi32>) {
  // CHECK: "hlo.sort"(%{{.*}}) {descending = true, dimension = 1 : i64, is_stable = true} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  %0 = "hlo.sort"(%a) {dimension = 1 : i64, is_stable = true, descending = true} : (tensor<4x5xf32>) -> tensor<4x5xf32>
  // CHECK: "hlo.argsort"(%{{.*}}) {dimension = 0 : i64} : (tensor<4x5xf32>) -> tensor<4x5xi32>
  %1 = "hlo.argsort"(%a) {dimension = 0 : i64} : (tensor<4x5xf32>) -> tensor<4x5xi32>
  // CHECK: "hlo.argsort"(%{{.*}}) {descending = true, dimension = 1 : i64, limit = 2 : i64} : (tensor<4x5xf32>) -> tensor<4x2xi32>
  %2 = "hlo.argsort"(%a) {dimension = 1 : i64, descending = true, limit = 2 : i64} : (tensor<4x5xf32>) -> tensor<4x2xi32>
  return %0, %1 : tensor<4x5xf32>, tensor<4x5xi32>
}

// Unsigned and bf16 element types.
// CHECK-LABEL: func @other_element_types
func.func @other_element_types(%a: tensor<4xui32>, %b: tensor<4xbf16>) -> (tensor<4xui32>, tensor<4xf32>) {
  // CHECK: "hlo.add"(%{{.*}}, %{{.*}}) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  %0 = "hlo.add"(%a, %a) : (tensor<4xui32>, tensor<4xui32>) -> tensor<4xui32>
  // CHECK: "hlo.convert"(%{{.*}}) : (tensor<4xbf16>) -> tensor<4xf32>
  %1 = "hlo.convert"(%b) : (tensor<4xbf16>) -> tensor<4xf32>
  return %0, %1 : tensor<4xui32>, tensor<4xf32>
}

// CHECK-LABEL: func @collectives
func.func @collectives(%a: tensor<2x3xf32>, %b: tensor<4xi32>) -> (tensor<2x3xf32>, tensor<4xi32>) {
  // CHECK: "hlo.all_reduce"(%{{.*}}) {kind = "add"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = "hlo.all_reduce"(%a) {kind = "add"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "hlo.all_reduce"(%{{.*}}) {kind = "max"} : (tensor<4xi32>) -> tensor<4xi32>
  %1 = "hlo.all_reduce"(%b) {kind = "max"} : (tensor<4xi32>) -> tensor<4xi32>
  // The result type carries the number of processes (2 here).
  // CHECK: "hlo.all_gather"(%{{.*}}) {all_gather_dim = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x6xf32>
  %2 = "hlo.all_gather"(%a) {all_gather_dim = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x6xf32>
  // CHECK: "hlo.reduce_scatter"(%{{.*}}) {kind = "add", scatter_dimension = 0 : i64} : (tensor<4xi32>) -> tensor<2xi32>
  %3 = "hlo.reduce_scatter"(%b) {scatter_dimension = 0 : i64, kind = "add"} : (tensor<4xi32>) -> tensor<2xi32>
  // CHECK: "hlo.collective_broadcast"(%{{.*}}) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %4 = "hlo.collective_broadcast"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0, %1 : tensor<2x3xf32>, tensor<4xi32>
}
