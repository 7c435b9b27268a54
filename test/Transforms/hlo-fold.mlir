// RUN: mlc-opt %s --split-input-file --hlo-fold | FileCheck %s
// RUN: mlc-opt %s --split-input-file --hlo-fold=size-limit=3 | FileCheck %s --check-prefix=LIMIT
// RUN: not mlc-opt %s --hlo-fold=size-limit=-3 2>&1 | FileCheck %s --check-prefix=BADOPT

// BADOPT: mlc-opt: error: pass 'hlo-fold': option size-limit must be >= 0, got -3

// Elementwise chains on constants fold to one constant.
// CHECK-LABEL: func @elementwise_chain
// CHECK: %[[C:.*]] = "hlo.constant"() {value = dense<[2.000000e+00, 5.000000e+00, 1.000000e+01, 1.700000e+01]> : tensor<4xf32>}
// CHECK-NOT: hlo.multiply
// CHECK: return %[[C]]
// LIMIT-LABEL: func @elementwise_chain
// LIMIT: hlo.multiply
func.func @elementwise_chain() -> tensor<4xf32> {
  %a = "hlo.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %one = "hlo.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.multiply"(%a, %a) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.add"(%0, %one) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Integer division folds with XLA's rules (x/0 = -1), like the compiled code.
// CHECK-LABEL: func @integer_divide
// CHECK: dense<[3, -1, -3]> : tensor<3xi32>
func.func @integer_divide() -> tensor<3xi32> {
  %a = "hlo.constant"() {value = dense<[7, 5, -7]> : tensor<3xi32>} : () -> tensor<3xi32>
  %b = "hlo.constant"() {value = dense<[2, 0, 2]> : tensor<3xi32>} : () -> tensor<3xi32>
  %0 = "hlo.divide"(%a, %b) : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// Shape ops, a reduction and a dot on constants fold.
// CHECK-LABEL: func @shapes_reduce_dot
// CHECK-DAG: dense<{{\[\[}}0.000000e+00, 2.000000e+00], [1.000000e+00, 3.000000e+00]]> : tensor<2x2xf32>
// CHECK-DAG: dense<6.000000e+00> : tensor<f32>
// CHECK-DAG: dense<{{\[\[}}1.000000e+00, 3.000000e+00], [3.000000e+00, 1.300000e+01]]> : tensor<2x2xf32>
// CHECK-NOT: "hlo.transpose"
// CHECK-NOT: "hlo.reduce"
// CHECK-NOT: "hlo.dot_general"
func.func @shapes_reduce_dot() -> (tensor<2x2xf32>, tensor<f32>, tensor<2x2xf32>) {
  %a = "hlo.constant"() {value = dense<[0.0, 1.0, 2.0, 3.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %z = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %m = "hlo.reshape"(%a) : (tensor<4xf32>) -> tensor<2x2xf32>
  %t = "hlo.transpose"(%m) {permutation = array<i64: 1, 0>} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %s = "hlo.reduce"(%a, %z) {dimensions = array<i64: 0>, kind = "add"} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %d = "hlo.dot_general"(%m, %t) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  return %t, %s, %d : tensor<2x2xf32>, tensor<f32>, tensor<2x2xf32>
}

// -----

// An op with a non-constant operand does not fold.
// CHECK-LABEL: func @not_constant
// CHECK: hlo.add
func.func @not_constant(%x: tensor<4xf32>) -> tensor<4xf32> {
  %one = "hlo.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.add"(%x, %one) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A broadcast bigger than the size limit stays a broadcast (size-limit=3 < 8 elements).
// LIMIT-LABEL: func @over_the_limit
// LIMIT: hlo.broadcast_in_dim
// CHECK-LABEL: func @over_the_limit
// CHECK-NOT: hlo.broadcast_in_dim
func.func @over_the_limit() -> tensor<8xf32> {
  %c = "hlo.constant"() {value = dense<[1.0, 2.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %0 = "hlo.broadcast_in_dim"(%c) {broadcast_dimensions = array<i64: 1>} : (tensor<2xf32>) -> tensor<4x2xf32>
  %1 = "hlo.reshape"(%0) : (tensor<4x2xf32>) -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Folding works inside regions too, and on comparisons and selects.
// CHECK-LABEL: func @in_region
// CHECK: scf.if
// CHECK: dense<[true, false]> : tensor<2xi1>
// CHECK-NOT: hlo.compare
func.func @in_region(%p: i1) -> tensor<2xi1> {
  %r = scf.if %p -> tensor<2xi1> {
    %a = "hlo.constant"() {value = dense<[1, 5]> : tensor<2xi64>} : () -> tensor<2xi64>
    %b = "hlo.constant"() {value = dense<3> : tensor<2xi64>} : () -> tensor<2xi64>
    %c = "hlo.compare"(%a, %b) {comparison_direction = "LT"} : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi1>
    scf.yield %c : tensor<2xi1>
  } else {
    %f = "hlo.constant"() {value = dense<false> : tensor<2xi1>} : () -> tensor<2xi1>
    scf.yield %f : tensor<2xi1>
  }
  return %r : tensor<2xi1>
}

// -----

// The folded op's constant operand is left unused and erased: one constant remains.
// CHECK-LABEL: func @folded_operands_are_erased
// CHECK-NEXT: %[[C:.*]] = "hlo.constant"() {value = dense<-1.000000e+00> : tensor<4xf32>}
// CHECK-NEXT: return %[[C]]
func.func @folded_operands_are_erased() -> tensor<4xf32> {
  %0 = "hlo.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %1 = "hlo.negate"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}


// -----

// atan2 of two zeros folds to 0 as in C (upstream's math.atan2 folder would say NaN).
// CHECK-LABEL: func @atan2_of_zeros
// CHECK-NEXT: %[[C:.*]] = "hlo.constant"() {value = dense<0.000000e+00> : tensor<2xf32>}
// CHECK-NEXT: return %[[C]]
func.func @atan2_of_zeros() -> tensor<2xf32> {
  %0 = "hlo.constant"() {value = dense<0.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "hlo.atan2"(%0, %0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}
