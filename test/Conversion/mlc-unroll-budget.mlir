// RUN: mlc-opt %s --split-input-file --mlc-unroll-budget="budget=20" | FileCheck %s
// RUN: mlc-opt %s --split-input-file --mlc-unroll-budget | FileCheck %s --check-prefix=DEFAULT

// Two innermost loops of 16 trips and 2 body ops: full unrolling would add 2 * 15 ops
// each (60 > 20), so both are kept rolled; the outer loop is not marked.
// CHECK: #[[$U:.*]] = #llvm.loop_unroll<disable = true>
// CHECK: #[[$A:.*]] = #llvm.loop_annotation<unroll = #[[$U]]>
// CHECK-LABEL: func.func @over_budget
// CHECK: scf.for
// CHECK:   scf.for
// CHECK:   } {llvm.loop_annotation = #[[$A]]}
// CHECK-NEXT: }{{$}}
// CHECK: scf.for
// CHECK: } {llvm.loop_annotation = #[[$A]]}
// The default budget (8192 ops) leaves a module this small to LLVM.
// DEFAULT-LABEL: func.func @over_budget
// DEFAULT-NOT: loop_annotation
func.func @over_budget(%x: memref<4x16xf32>, %y: memref<16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c16 step %c1 {
      memref.store %two, %x[%i, %j] : memref<4x16xf32>
    }
  }
  scf.for %j = %c0 to %c16 step %c1 {
    memref.store %two, %y[%j] : memref<16xf32>
  }
  return
}

// -----

// Loops LLVM would not fully unroll (trips * body over its limit, or dynamic bounds) add
// nothing to the estimate: under budget, nothing is marked.
// CHECK-LABEL: func.func @not_unrolled
// CHECK-NOT: loop_annotation
func.func @not_unrolled(%x: memref<100000xf32>, %n: index, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100000 = arith.constant 100000 : index
  %two = arith.constant 2.0 : f32
  scf.for %j = %c0 to %c100000 step %c1 {
    memref.store %two, %x[%j] : memref<100000xf32>
  }
  scf.for %j = %c0 to %n step %c1 {
    memref.store %two, %y[%j] : memref<?xf32>
  }
  return
}
