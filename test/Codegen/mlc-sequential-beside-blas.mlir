// RUN: mlc-opt %s --split-input-file --mlc-sequential-beside-blas | FileCheck %s

// A function that calls BLAS runs its parallel loops on one thread: its scf.forall becomes
// an scf.for over the same bounds.
// CHECK-LABEL: func @after_blas
// CHECK-NOT: scf.forall
// CHECK: call @scipy_cblas_sgemm64_
// CHECK: scf.for %[[I:.*]] = %c0{{.*}} to %c64{{.*}} step %c1
// CHECK-NEXT: memref.store %{{.*}}, %{{.*}}[%[[I]]]
func.func private @scipy_cblas_sgemm64_()
func.func @after_blas(%x: memref<64xf32>) {
  func.call @scipy_cblas_sgemm64_() : () -> ()
  %c1 = arith.constant 1.0 : f32
  scf.forall (%i) in (64) {
    memref.store %c1, %x[%i] : memref<64xf32>
  }
  return
}

// -----

// Without a BLAS call the loop stays parallel.
// CHECK-LABEL: func @no_blas
// CHECK: scf.forall
func.func @no_blas(%x: memref<64xf32>) {
  %c1 = arith.constant 1.0 : f32
  scf.forall (%i) in (64) {
    memref.store %c1, %x[%i] : memref<64xf32>
  }
  return
}

// -----

// A call mlc-blas put on MLC's threads (OpenBLAS on the calling thread only, marked
// mlc.blas_one_thread) wakes none of OpenBLAS's workers: the loops stay parallel.
// CHECK-LABEL: func @beside_one_thread_blas
// CHECK: call @scipy_cblas_sgemm64_() {mlc.blas_one_thread}
// CHECK: scf.forall
func.func private @scipy_cblas_sgemm64_()
func.func @beside_one_thread_blas(%x: memref<64xf32>) {
  func.call @scipy_cblas_sgemm64_() {mlc.blas_one_thread} : () -> ()
  %c1 = arith.constant 1.0 : f32
  scf.forall (%i) in (64) {
    memref.store %c1, %x[%i] : memref<64xf32>
  }
  return
}
