// RUN: mlc-opt %s --split-input-file --mlc-bool-to-byte | FileCheck %s

// Boolean tensors in signatures and constants become bytes; scalar code keeps i1, with a
// trunci where a byte is read and an extui where a bool is written.
// CHECK-LABEL: func @generic_on_bools
// CHECK-SAME: (%{{.*}}: tensor<4xi8>) -> tensor<4xi8>
// CHECK: arith.constant dense<[1, 0, 1, 0]> : tensor<4xi8>
// CHECK: ^bb0(%[[A:.*]]: i8, %[[B:.*]]: i8, %{{.*}}: i8):
// CHECK-DAG: %[[TA:.*]] = arith.trunci %[[A]] : i8 to i1
// CHECK-DAG: %[[TB:.*]] = arith.trunci %[[B]] : i8 to i1
// CHECK: %[[X:.*]] = arith.xori %[[TA]], %[[TB]] : i1
// CHECK: %[[E:.*]] = arith.extui %[[X]] : i1 to i8
// CHECK: linalg.yield %[[E]] : i8
// CHECK-NOT: i1>
func.func @generic_on_bools(%a: tensor<4xi1>) -> tensor<4xi1> {
  %c = arith.constant dense<[true, false, true, false]> : tensor<4xi1>
  %e = tensor.empty() : tensor<4xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a, %c : tensor<4xi1>, tensor<4xi1>) outs(%e : tensor<4xi1>) {
  ^bb0(%x: i1, %y: i1, %o: i1):
    %z = arith.xori %x, %y : i1
    linalg.yield %z : i1
  } -> tensor<4xi1>
  return %r : tensor<4xi1>
}

// -----

// A boolean reduction (any along rows) combines the output's bytes themselves: the compare
// is extended to a byte and or'ed with the accumulator byte, no trunci / extui around it.
// CHECK-LABEL: func @any_rows
// CHECK: ^bb0(%[[X:.*]]: f32, %[[ACC:.*]]: i8):
// CHECK:   %[[C:.*]] = arith.cmpf ogt, %[[X]], %{{.*}} : f32
// CHECK:   %[[E:.*]] = arith.extui %[[C]] : i1 to i8
// CHECK:   %[[OR:.*]] = arith.ori %[[E]], %[[ACC]] : i8
// CHECK:   linalg.yield %[[OR]] : i8
func.func @any_rows(%x: tensor<4x9xf32>) -> tensor<4xi1> {
  %false = arith.constant false
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xi1>
  %init = linalg.fill ins(%false : i1) outs(%e : tensor<4xi1>) -> tensor<4xi1>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x9xf32>) outs(%init : tensor<4xi1>) {
  ^bb0(%v: f32, %acc: i1):
    %c = arith.cmpf ogt, %v, %zero : f32
    %o = arith.ori %c, %acc : i1
    linalg.yield %o : i1
  } -> tensor<4xi1>
  return %r : tensor<4xi1>
}

// -----

// A bool read out of a tensor for control flow is truncated back to i1.// A bool read out of a tensor for control flow is truncated back to i1.
// CHECK-LABEL: func @extract_for_branch
// CHECK: %[[V:.*]] = tensor.extract %{{.*}}[] : tensor<i8>
// CHECK: %[[P:.*]] = arith.trunci %[[V]] : i8 to i1
// CHECK: scf.if %[[P]]
func.func @extract_for_branch(%p: tensor<i1>, %a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %c = tensor.extract %p[] : tensor<i1>
  %r = scf.if %c -> tensor<f32> {
    scf.yield %a : tensor<f32>
  } else {
    scf.yield %b : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// Memrefs too: a store of a bool extends it, a load truncates.
// CHECK-LABEL: func @memref_bools
// CHECK: %[[M:.*]] = memref.alloc() : memref<2xi8>
// CHECK: %[[E:.*]] = arith.extui %{{.*}} : i1 to i8
// CHECK: memref.store %[[E]], %[[M]]
// CHECK: %[[L:.*]] = memref.load %[[M]]
// CHECK: arith.trunci %[[L]] : i8 to i1
func.func @memref_bools(%b: i1) -> i1 {
  %c0 = arith.constant 0 : index
  %m = memref.alloc() : memref<2xi1>
  memref.store %b, %m[%c0] : memref<2xi1>
  %v = memref.load %m[%c0] : memref<2xi1>
  memref.dealloc %m : memref<2xi1>
  return %v : i1
}
