// RUN: mlc-opt %s --split-input-file --hlo-dce | FileCheck %s

// Unused hlo ops go, chains of them too; used ones and upstream ops stay.
// CHECK-LABEL: func @dead_chain
// CHECK-NOT: hlo.tanh
// CHECK-NOT: hlo.exponential
// CHECK: %[[N:.*]] = "hlo.negate"(%arg0)
// CHECK: return %[[N]]
func.func @dead_chain(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "hlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = "hlo.exponential"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %n = "hlo.negate"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %n : tensor<4xf32>
}

// -----

// Inside regions as well.
// CHECK-LABEL: func @dead_in_region
// CHECK: scf.if
// CHECK-NOT: hlo.sqrt
// CHECK: scf.yield %arg1
func.func @dead_in_region(%p: i1, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.if %p -> tensor<4xf32> {
    %s = "hlo.sqrt"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %x : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// An op whose result feeds a use stays.
// CHECK-LABEL: func @live
// CHECK: hlo.abs
func.func @live(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "hlo.abs"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}
