// RUN: mlc-opt %s --split-input-file --mlc-reshaped-results | FileCheck %s

// A collapsed buffer copied into an out-param: the buffer becomes the out-param expanded
// back (a view), so the kernel writes the caller's memory and the copy is gone.
// CHECK-LABEL: func @collapsed
// CHECK-SAME: (%[[X:.*]]: memref<4x3xf32>, %[[OUT:.*]]: memref<8x3xf32>)
// CHECK: %[[VIEW:.*]] = memref.expand_shape %[[OUT]] {{\[\[}}0, 1], [2]] output_shape [4, 2, 3] : memref<8x3xf32> into memref<4x2x3xf32>
// CHECK: linalg.generic {{.*}} outs(%[[VIEW]] : memref<4x2x3xf32>)
// CHECK-NOT: memref.alloc
// CHECK-NOT: memref.copy
// CHECK: return
func.func @collapsed(%x: memref<4x3xf32>, %out: memref<8x3xf32>) {
  %a = memref.alloc() : memref<4x2x3xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<4x3xf32>) outs(%a : memref<4x2x3xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  }
  %r = memref.collapse_shape %a [[0, 1], [2]] : memref<4x2x3xf32> into memref<8x3xf32>
  memref.copy %r, %out : memref<8x3xf32> to memref<8x3xf32>
  return
}

// -----

// An expanded buffer: the out-param is collapsed back.
// CHECK-LABEL: func @expanded
// CHECK: %[[VIEW:.*]] = memref.collapse_shape %{{.*}} {{\[\[}}0, 1]] : memref<2x6xf32> into memref<12xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[VIEW]] : memref<12xf32>)
// CHECK-NOT: memref.copy
func.func @expanded(%out: memref<2x6xf32>) {
  %c = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<12xf32>
  linalg.fill ins(%c : f32) outs(%a : memref<12xf32>)
  %r = memref.expand_shape %a [[0, 1]] output_shape [2, 6] : memref<12xf32> into memref<2x6xf32>
  memref.copy %r, %out : memref<2x6xf32> to memref<2x6xf32>
  return
}

// -----

// The buffer is read after the copy (here copied again, into a second out-param that must
// not see writes to the first): left alone. Nor is a copy into a buffer that is not an
// argument.
// CHECK-LABEL: func @used_after
// CHECK: memref.alloc() : memref<12xf32>
// CHECK: memref.copy
// CHECK: memref.copy
// CHECK-LABEL: func @not_an_out_param
// CHECK: memref.alloc() : memref<12xf32>
// CHECK: memref.copy
func.func @used_after(%out: memref<2x6xf32>, %out2: memref<12xf32>) {
  %c = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<12xf32>
  linalg.fill ins(%c : f32) outs(%a : memref<12xf32>)
  %r = memref.expand_shape %a [[0, 1]] output_shape [2, 6] : memref<12xf32> into memref<2x6xf32>
  memref.copy %r, %out : memref<2x6xf32> to memref<2x6xf32>
  memref.copy %a, %out2 : memref<12xf32> to memref<12xf32>
  return
}
func.func @not_an_out_param(%out: memref<2x6xf32>) {
  %c = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<12xf32>
  %b = memref.alloc() : memref<2x6xf32>
  linalg.fill ins(%c : f32) outs(%a : memref<12xf32>)
  %r = memref.expand_shape %a [[0, 1]] output_shape [2, 6] : memref<12xf32> into memref<2x6xf32>
  memref.copy %r, %b : memref<2x6xf32> to memref<2x6xf32>
  memref.copy %b, %out : memref<2x6xf32> to memref<2x6xf32>
  return
}

// -----

// A chain of reshapes ((7, 30) -> 210 -> (5, 42)): the out-param is reshaped back through
// each, last first.
// CHECK-LABEL: func @chain
// CHECK-SAME: (%[[OUT:.*]]: memref<5x42xf32>)
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[OUT]] {{\[\[}}0, 1]] : memref<5x42xf32> into memref<210xf32>
// CHECK: %[[VIEW:.*]] = memref.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [7, 30] : memref<210xf32> into memref<7x30xf32>
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[VIEW]] : memref<7x30xf32>)
// CHECK-NOT: memref.copy
func.func @chain(%out: memref<5x42xf32>) {
  %c = arith.constant 1.0 : f32
  %a = memref.alloc() : memref<7x30xf32>
  linalg.fill ins(%c : f32) outs(%a : memref<7x30xf32>)
  %f = memref.collapse_shape %a [[0, 1]] : memref<7x30xf32> into memref<210xf32>
  %r = memref.expand_shape %f [[0, 1]] output_shape [5, 42] : memref<210xf32> into memref<5x42xf32>
  memref.copy %r, %out : memref<5x42xf32> to memref<5x42xf32>
  return
}
