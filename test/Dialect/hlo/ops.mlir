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
