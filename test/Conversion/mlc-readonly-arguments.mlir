// RUN: mlc-opt %s --mlc-readonly-arguments | FileCheck %s

// Public functions' tensor arguments become read-only for bufferization; other argument
// attributes are kept; private functions and scalars are left alone.
// CHECK-LABEL: func @public
// CHECK-SAME: (%{{.*}}: tensor<4xf32> {bufferization.writable = false, my.attr = 1 : i64}, %{{.*}}: i32)
func.func @public(%a: tensor<4xf32> {my.attr = 1}, %b: i32) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// CHECK-LABEL: func private @helper
// CHECK-SAME: (%{{.*}}: tensor<4xf32>) -> tensor<4xf32>
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}

// A result donated to an argument (mlc.result_aliases) makes that argument writable and is
// materialized in it; the function returns an unwritten tensor in its place, and the kernel
// computing the result takes the argument as its destination (eliminate-empty-tensors).
// CHECK-LABEL: func @donated
// CHECK-SAME: (%[[P:.*]]: tensor<4xf32> {bufferization.writable = true}, %[[G:.*]]: tensor<4xf32> {bufferization.writable = false})
// CHECK: %[[R:.*]] = linalg.generic {{.*}} ins(%[[P]], %[[G]] : tensor<4xf32>, tensor<4xf32>) outs(%[[P]] : tensor<4xf32>)
// CHECK: bufferization.materialize_in_destination %[[R]] in %[[P]]
// CHECK-NEXT: %[[DUMMY:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: return %[[DUMMY]], %[[R]]
func.func @donated(%p: tensor<4xf32>, %g: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) attributes {mlc.result_aliases = array<i64: 0, -1>} {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%p, %g : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r, %r : tensor<4xf32>, tensor<4xf32>
}

// A loop whose carried result starts empty keeps a buffer of its own when a result is
// donated (the empty becomes an alloc_tensor, which eliminate-empty-tensors leaves alone):
// this scan reads %x[k] and writes %out[k], and with %x as its destination it could not be
// bufferized. The result is then copied into %x.
// CHECK-LABEL: func @donated_scan
// CHECK: %[[OUT:.*]] = bufferization.alloc_tensor() : tensor<8xf32>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[OUT]]) -> (tensor<8xf32>)
// CHECK: bufferization.materialize_in_destination %[[R]] in %{{.*}}
func.func @donated_scan(%x: tensor<8xf32>) -> tensor<8xf32> attributes {mlc.result_aliases = array<i64: 0>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %e = tensor.empty() : tensor<8xf32>
  %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%out = %e) -> (tensor<8xf32>) {
    %v = tensor.extract %x[%k] : tensor<8xf32>
    %w = arith.addf %v, %v : f32
    %n = tensor.insert %w into %out[%k] : tensor<8xf32>
    scf.yield %n : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// One tensor.empty starting two loops becomes one alloc_tensor, used by both.
// CHECK-LABEL: func @two_loops_one_empty
// CHECK: %[[OUT:.*]] = bufferization.alloc_tensor() : tensor<8xf32>
// CHECK-NOT: bufferization.alloc_tensor
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[OUT]])
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[OUT]])
func.func @two_loops_one_empty(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {mlc.result_aliases = array<i64: 0, -1>} {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %e = tensor.empty() : tensor<8xf32>
  %r = scf.for %k = %c0 to %c8 step %c1 iter_args(%out = %e) -> (tensor<8xf32>) {
    %v = tensor.extract %x[%k] : tensor<8xf32>
    %n = tensor.insert %v into %out[%k] : tensor<8xf32>
    scf.yield %n : tensor<8xf32>
  }
  %s = scf.for %k = %c0 to %c8 step %c1 iter_args(%out = %e) -> (tensor<8xf32>) {
    %v = tensor.extract %x[%k] : tensor<8xf32>
    %w = arith.addf %v, %v : f32
    %n = tensor.insert %w into %out[%k] : tensor<8xf32>
    scf.yield %n : tensor<8xf32>
  }
  return %r, %s : tensor<8xf32>, tensor<8xf32>
}
