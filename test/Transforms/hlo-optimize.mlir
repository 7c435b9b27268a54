// The default graph pipeline: simplify, fold, cse and dce to a fixed point.
// RUN: mlc-opt %s --hlo-optimize | FileCheck %s
// RUN: mlc-opt %s --emit=hlo-optimized | FileCheck %s
// RUN: mlc-opt %s --emit=hlo-optimized -O0 | FileCheck %s --check-prefix=O0
// RUN: not mlc-opt %s --hlo-optimize=max-iterations=0 2>&1 | FileCheck %s --check-prefix=BADOPT
// RUN: not mlc-opt %S/Inputs/invalid-hlo.mlir --hlo-optimize 2>&1 | FileCheck %s --check-prefix=INVALID

// BADOPT: option max-iterations must be >= 1, got 0
// INVALID: invalid-hlo.mlir:3:8: error: 'hlo.transpose' op permutation [1] is not a permutation of 0..0

// CHECK-LABEL: func @main
// CHECK-NEXT: %[[E:.*]] = "hlo.exponential"(%arg0)
// CHECK-NEXT: %[[S:.*]] = "hlo.add"(%[[E]], %[[E]])
// CHECK-NEXT: %[[H:.*]] = "hlo.constant"() {value = dense<5.000000e-01> : tensor<4xf32>}
// CHECK-NEXT: %[[D:.*]] = "hlo.multiply"(%[[S]], %[[H]])
// CHECK-NEXT: %[[Z:.*]] = "hlo.constant"() {value = dense<0> : tensor<4xi32>}
// CHECK-NEXT: %[[F:.*]] = "hlo.constant"() {value = dense<[1.000000e+00, 4.000000e+00, 9.000000e+00, 1.600000e+01]>
// CHECK-NEXT: return %[[D]], %[[Z]], %[[F]]
// O0-LABEL: func @main
// O0: hlo.tanh
func.func @main(%x: tensor<4xf32>, %i: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xf32>) {
  %one = "hlo.constant"() {value = dense<1.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %two = "hlo.constant"() {value = dense<2.0> : tensor<f32>} : () -> tensor<f32>
  %b = "hlo.broadcast_in_dim"(%two) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<4xf32>
  %m = "hlo.multiply"(%x, %one) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %e1 = "hlo.exponential"(%m) : (tensor<4xf32>) -> tensor<4xf32>
  %e2 = "hlo.exponential"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %s = "hlo.add"(%e1, %e2) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %d = "hlo.divide"(%s, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %z = "hlo.subtract"(%i, %i) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %dead = "hlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %c3 = "hlo.constant"() {value = dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %f = "hlo.multiply"(%c3, %c3) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %d, %z, %f : tensor<4xf32>, tensor<4xi32>, tensor<4xf32>
}
