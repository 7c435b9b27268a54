// RUN: mlc-opt %s --split-input-file --mlc-bufferize | FileCheck %s

// Tensors become memrefs; the result becomes a trailing out-param the caller allocates,
// computed in place (no allocation, no copy, nothing returned).
// CHECK-LABEL: func.func @dps_result
// CHECK-SAME: (%{{.*}}: memref<8xf32>, %[[OUT:.*]]: memref<8xf32>)
// CHECK-NOT: memref.alloc
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[OUT]] : memref<8xf32>)
// CHECK-NOT: memref.copy
// CHECK: return{{$}}
func.func @dps_result(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tensor.empty() : tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%0 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %2 = math.tanh %in : f32
    linalg.yield %2 : f32
  } -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// Zero borders inserted around a source (a padded convolution input): each border fill
// writes its slice of the result in place, and so does the source's producer; no
// temporary is filled and then copied.
// CHECK-LABEL: func.func @borders_in_place
// CHECK-SAME: %[[OUT:[a-z0-9]+]]: memref<6x10xf32>)
// CHECK-NOT: memref.copy
// CHECK-NOT: memref.alloc
// CHECK: %[[TOP:.*]] = memref.subview %[[OUT]][0, 0] [1, 10]
// CHECK: linalg.fill ins(%{{.*}} : f32) outs(%[[TOP]]
// CHECK-NOT: memref.copy
// CHECK: return
func.func @borders_in_place(%a: tensor<4x8xf32>) -> tensor<6x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %2 = math.tanh %in : f32
    linalg.yield %2 : f32
  } -> tensor<4x8xf32>
  %p = tensor.empty() : tensor<6x10xf32>
  %0 = tensor.insert_slice %t into %p[1, 1] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<6x10xf32>
  %r0 = tensor.empty() : tensor<1x10xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%r0 : tensor<1x10xf32>) -> tensor<1x10xf32>
  %1 = tensor.insert_slice %f0 into %0[0, 0] [1, 10] [1, 1] : tensor<1x10xf32> into tensor<6x10xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%r0 : tensor<1x10xf32>) -> tensor<1x10xf32>
  %2 = tensor.insert_slice %f1 into %1[5, 0] [1, 10] [1, 1] : tensor<1x10xf32> into tensor<6x10xf32>
  %c0 = tensor.empty() : tensor<4x1xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%c0 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %3 = tensor.insert_slice %f2 into %2[1, 0] [4, 1] [1, 1] : tensor<4x1xf32> into tensor<6x10xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%c0 : tensor<4x1xf32>) -> tensor<4x1xf32>
  %4 = tensor.insert_slice %f3 into %3[1, 9] [4, 1] [1, 1] : tensor<4x1xf32> into tensor<6x10xf32>
  return %4 : tensor<6x10xf32>
}
