// RUN: mlc-opt %s --split-input-file --mlc-distinct-results | FileCheck %s

// A value returned twice: the second result is a fresh copy (one buffer cannot be two
// out-params; buffer-results-to-out-params{hoist-static-allocs} crashes on it).
// CHECK-LABEL: func @twice
// CHECK: %[[T:.*]] = math.exp
// CHECK-NEXT: %[[C:.*]] = bufferization.alloc_tensor() copy(%[[T]])
// CHECK-NEXT: return %[[T]], %[[C]]
func.func @twice(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %t = math.exp %x : tensor<4xf32>
  return %t, %t : tensor<4xf32>, tensor<4xf32>
}

// -----

// Three times, around another result: two copies, the distinct result untouched.
// CHECK-LABEL: func @thrice
// CHECK: %[[C1:.*]] = bufferization.alloc_tensor() copy(%[[T:.*]])
// CHECK: %[[C2:.*]] = bufferization.alloc_tensor() copy(%[[T]])
// CHECK-NEXT: return %[[T]], %arg1, %[[C1]], %[[C2]]
func.func @thrice(%x: tensor<f32>, %y: tensor<f32>) -> (tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) {
  %t = math.exp %x : tensor<f32>
  return %t, %y, %t, %t : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>
}

// -----

// Arguments (out-params copy them already), scalars and private functions stay as they are.
// CHECK-LABEL: func @argument
// CHECK-NOT: alloc_tensor
// CHECK: return %arg0, %arg0, %arg1, %arg1
func.func @argument(%x: tensor<4xf32>, %i: i32) -> (tensor<4xf32>, tensor<4xf32>, i32, i32) {
  return %x, %x, %i, %i : tensor<4xf32>, tensor<4xf32>, i32, i32
}

// CHECK-LABEL: func private @helper
// CHECK-NOT: alloc_tensor
func.func private @helper(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %t = math.exp %x : tensor<4xf32>
  return %t, %t : tensor<4xf32>, tensor<4xf32>
}
