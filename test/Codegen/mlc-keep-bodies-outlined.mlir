// RUN: mlc-opt %s --split-input-file --mlc-keep-bodies-outlined | FileCheck %s

// The loop bodies async-parallel-for outlined are marked noinline; other functions are not.
// CHECK-LABEL: func.func private @parallel_compute_fn
// CHECK-SAME: passthrough = ["noinline"]
// CHECK-LABEL: func.func private @helper
// CHECK-NOT: passthrough
func.func private @parallel_compute_fn(%x: memref<64xf32>, %i: index) {
  %c1 = arith.constant 1.0 : f32
  memref.store %c1, %x[%i] : memref<64xf32>
  return
}
func.func private @helper(%x: memref<64xf32>, %i: index) {
  return
}
