// RUN: mlc-opt %s --split-input-file --mlc-parallel-outline="threads=2 beside=1" | FileCheck %s
// RUN: mlc-opt %s --split-input-file --mlc-parallel-outline="threads=2 beside=0" | FileCheck %s --check-prefix=POOL
// RUN: mlc-opt %s --split-input-file --mlc-parallel-outline="threads=1" | FileCheck %s --check-prefix=ONE

// An scf.forall becomes a call into MLC's thread pool (mlc-outline-parallel-loops has the
// details); threads=1 makes a sequential loop.
// CHECK-LABEL: func @rows
// CHECK-NOT: scf.forall
// CHECK: call @mlc_parallel_for
// CHECK: func private @rows_parallel_0
// CHECK: scf.for
// CHECK: memref.store
// ONE-LABEL: func @rows
// ONE-NOT: mlc_parallel_for
// ONE: scf.for
// ONE: memref.store
func.func @rows(%x: memref<64xf32>, %v: f32) {
  scf.forall (%i) in (64) {
    memref.store %v, %x[%i] : memref<64xf32>
  }
  return
}

// -----

// Only the outermost loop is shared: a nested scf.forall runs sequentially in the body.
// Fewer iterations than blocks: one block per iteration.
// CHECK-LABEL: func @nested
// CHECK-DAG: %[[BLOCKS:.*]] = arith.constant 3 : i64
// CHECK: call @mlc_parallel_for(%{{.*}}, %{{.*}}, %[[BLOCKS]], %{{.*}})
// CHECK: func private @nested_parallel_0
// CHECK-NOT: scf.forall
// CHECK: scf.for
// CHECK-NOT: scf.forall
// CHECK: memref.store
func.func @nested(%x: memref<3x16xf32>, %v: f32) {
  scf.forall (%i) in (3) {
    scf.forall (%j) in (16) {
      memref.store %v, %x[%i, %j] : memref<3x16xf32>
    }
  }
  return
}

// -----

// A function that calls BLAS keeps its loops on one thread: OpenBLAS's threads are still
// spinning on the cores after the call. Not where OpenBLAS's jobs run on MLC's pool (POOL).
// POOL-LABEL: func @after_blas
// POOL: call @scipy_cblas_sgemm64_
// POOL: call @mlc_parallel_for
// CHECK-LABEL: func @after_blas
// CHECK-NOT: mlc_parallel_for
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
