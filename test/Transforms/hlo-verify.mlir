// RUN: not mlc-opt %s --split-input-file --hlo-verify 2>/dev/null | FileCheck %s
// RUN: not mlc-opt %s --split-input-file --hlo-verify 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR

// Valid IR passes through unchanged.
// CHECK-LABEL: func @valid
// CHECK-NEXT: "hlo.add"
// CHECK-NEXT: return
func.func @valid(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "hlo.add"(%a, %a) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Every broken op of a function is reported, in order, nested regions included.
// ERR: hlo-verify.mlir:[[# @LINE + 5]]:8: error: 'hlo.transpose' op permutation [1] is not a permutation of 0..0
// ERR: hlo-verify.mlir:[[# @LINE + 6]]:10: error: 'hlo.reduce' op kind must be one of add, mul, max, min, and, or, xor, got "avg"
// ERR-NOT: error
func.func @two_errors(%a: tensor<2xf32>, %z: tensor<f32>, %p: i1) -> tensor<2xf32> {
  %ok = "hlo.negate"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %0 = "hlo.transpose"(%ok) {permutation = array<i64: 1>} : (tensor<2xf32>) -> tensor<2xf32>
  scf.if %p {
    %1 = "hlo.reduce"(%a, %z) {dimensions = array<i64: 0>, kind = "avg"} : (tensor<2xf32>, tensor<f32>) -> tensor<f32>
  }
  return %0 : tensor<2xf32>
}
