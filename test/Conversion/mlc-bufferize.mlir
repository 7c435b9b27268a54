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
