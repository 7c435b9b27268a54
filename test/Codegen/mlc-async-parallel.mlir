// RUN: mlc-opt %s --mlc-async-parallel="threads=2" | FileCheck %s

// An scf.forall becomes async tasks: the loop body is outlined into a compute function
// and dispatched over blocks of iterations, and the caller waits for the group.
// CHECK-LABEL: func @rows
// CHECK-NOT: scf.forall
// CHECK: async.create_group
// CHECK: async.await_all
// CHECK: func private @parallel_compute_fn
// CHECK: memref.store
func.func @rows(%x: memref<64xf32>) {
  %c1 = arith.constant 1.0 : f32
  scf.forall (%i) in (64) {
    memref.store %c1, %x[%i] : memref<64xf32>
  }
  return
}
