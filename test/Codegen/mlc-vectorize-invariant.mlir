// RUN: mlc-opt %s --split-input-file --mlc-vectorize="register-bits=256 threads=1" | FileCheck %s

// Left scalar: a reduction combining a loop-invariant value (here a scalar from outside,
// what folding a linalg.fill input into the body leaves). Upstream's vectorizer would
// combine it once instead of once per element (x * 3^4 became x * 3).
// CHECK-LABEL: func @invariant_combined
// CHECK: linalg.generic
// CHECK: arith.muli
// CHECK-NOT: vector.
func.func @invariant_combined(%x: memref<4xi32>, %acc: memref<i32>, %s: i32) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : memref<4xi32>) outs(%acc : memref<i32>) {
  ^bb0(%in: i32, %out: i32):
    %r = arith.muli %s, %out : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// Left scalar: the same with a constant made inside the body.
// CHECK-LABEL: func @constant_combined
// CHECK: linalg.generic
// CHECK-NOT: vector.
func.func @constant_combined(%x: memref<4xf32>, %acc: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : memref<4xf32>) outs(%acc : memref<f32>) {
  ^bb0(%in: f32, %out: f32):
    %c = arith.constant 2.0 : f32
    %r = arith.addf %c, %out : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Vectorized: a combined value computed from an input (even one broadcast along the
// reduced loop) or from a loop index varies per element.
// CHECK-LABEL: func @index_combined
// CHECK-NOT: linalg.generic
// CHECK: vector.step
func.func @index_combined(%x: memref<4xi32>, %acc: memref<i32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> ()>], iterator_types = ["reduction"]}
      ins(%x : memref<4xi32>) outs(%acc : memref<i32>) {
  ^bb0(%in: i32, %out: i32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %r = arith.addi %c, %out : i32
    linalg.yield %r : i32
  }
  return
}
