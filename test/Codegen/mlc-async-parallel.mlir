// RUN: mlc-opt %s --split-input-file --mlc-async-parallel="threads=2" | FileCheck %s

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

// -----

// A function that calls BLAS keeps its loops on one thread: OpenBLAS's threads are still
// spinning on the cores after the call.
// CHECK-LABEL: func @after_blas
// CHECK-NOT: async.
// CHECK: call @scipy_cblas_sgemm64_
// CHECK: scf.for %[[I:.*]] = %c0{{.*}} to %c64{{.*}} step %c1
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]]]
func.func private @scipy_cblas_sgemm64_()
func.func @after_blas(%x: memref<64xf32>) {
  func.call @scipy_cblas_sgemm64_() : () -> ()
  %c1 = arith.constant 1.0 : f32
  scf.forall (%i) in (64) {
    memref.store %c1, %x[%i] : memref<64xf32>
  }
  return
}
