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
