// RUN: mlc-opt %s --mlc-split-functions="budget=8 min-function-ops=10" | FileCheck %s
// RUN: mlc-opt %s --mlc-split-functions | FileCheck %s --check-prefix=SMALL
// RUN: mlc-opt %s --mlc-split-functions="budget=64 min-function-ops=10 kernel-ops=6" --mlc-merge-functions | FileCheck %s --check-prefix=KERNEL

// Two loops of 6 nested ops each are over a budget of 8: each becomes a private noinline
// function called in its place; the buffers it reads are its arguments, the constant it
// uses is cloned into it, and the ops that have results (the alloc) stay in the caller.
// CHECK-LABEL: func.func @two_loops
// CHECK:   %[[T:.*]] = memref.alloc()
// CHECK:   call @two_loops_part_0(%arg0, %[[T]])
// CHECK:   call @two_loops_part_1(%[[T]], %arg1)
// CHECK:   memref.dealloc %[[T]]
// CHECK:   return
// CHECK: func.func private @two_loops_part_1(%{{.*}}: memref<64xf32>, %{{.*}}: memref<64xf32>) attributes {passthrough = ["noinline"]}
// CHECK:   arith.constant 2.0
// CHECK:   scf.for
// CHECK:     arith.mulf
// CHECK: func.func private @two_loops_part_0(
// CHECK:   scf.for
// CHECK:     arith.addf
// The defaults leave a function this small whole.
// SMALL-LABEL: func.func @two_loops
// SMALL-NOT: call
// SMALL: scf.for
// SMALL: scf.for
// SMALL-NOT: func.func private
func.func @two_loops(%x: memref<64xf32>, %y: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %two = arith.constant 2.0 : f32
  %t = memref.alloc() : memref<64xf32>
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x[%i] : memref<64xf32>
    %b = arith.addf %a, %a : f32
    %c = arith.addf %b, %a : f32
    memref.store %c, %t[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %t[%i] : memref<64xf32>
    %b = arith.mulf %a, %two : f32
    %c = arith.mulf %b, %a : f32
    memref.store %c, %y[%i] : memref<64xf32>
  }
  memref.dealloc %t : memref<64xf32>
  return
}

// Loop nests of at least kernel-ops nested ops are runs alone even under a bigger budget:
// runs start and end with kernels, so two equal loops over different buffers become two
// equal functions, which mlc-merge-functions makes one.
// KERNEL-LABEL: func.func @repeated
// KERNEL:   call @[[PART:repeated_part_[0-9]]](%arg0, %arg1)
// KERNEL:   call @[[PART]](%arg1, %arg2)
// KERNEL-NOT: call
// KERNEL-COUNT-1: func.func private @repeated_part_
// KERNEL-NOT: func.func private @repeated_part_
// CHECK-LABEL: func.func @repeated
// CHECK:   call @repeated_part_0(%arg0, %arg1)
// CHECK:   call @repeated_part_1(%arg1, %arg2)
func.func @repeated(%x: memref<64xf32>, %y: memref<64xf32>, %z: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x[%i] : memref<64xf32>
    %b = arith.subf %a, %a : f32
    %c = arith.subf %b, %a : f32
    memref.store %c, %y[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %y[%i] : memref<64xf32>
    %b = arith.subf %a, %a : f32
    %c = arith.subf %b, %a : f32
    memref.store %c, %z[%i] : memref<64xf32>
  }
  return
}

// Kernels without a twin (here: different constants) share runs as before: a function
// per distinct small kernel made LLVM slower (200 outputs x * i + 1: +25% compile).
// KERNEL-LABEL: func.func @distinct
// KERNEL:   call @[[ONE:distinct_part_[0-9]]](%arg0, %arg1, %arg2)
// KERNEL-NOT: call
// KERNEL: func.func private @[[ONE]](
// KERNEL: arith.constant 2.0
// KERNEL: arith.constant 3.0
func.func @distinct(%x: memref<64xf32>, %y: memref<64xf32>, %z: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  scf.for %i = %c0 to %c64 step %c1 {
    %two = arith.constant 2.0 : f32
    %a = memref.load %x[%i] : memref<64xf32>
    %b = arith.mulf %a, %two : f32
    %c = arith.mulf %b, %a : f32
    memref.store %c, %y[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %three = arith.constant 3.0 : f32
    %a = memref.load %y[%i] : memref<64xf32>
    %b = arith.mulf %a, %three : f32
    %c = arith.mulf %b, %a : f32
    memref.store %c, %z[%i] : memref<64xf32>
  }
  return
}


// At the bound (loop bounds are arguments: no other op than the loops and the return): loops
// of 5 and 6 nested ops (their yields counted) are 11 > min-function-ops = 10, so they are
// cut; loops of 5 and 5 are 10, and that function stays whole.
// CHECK-LABEL: func.func @just_over
// CHECK:   call @just_over_part_0(%arg2, %arg4, %arg3, %arg0, %arg1)
// CHECK:   call @just_over_part_1(%arg2, %arg4, %arg3, %arg1)
// CHECK-LABEL: func.func @at_the_bound
// CHECK-NOT: call
// CHECK:   scf.for
// CHECK:   scf.for
// CHECK:   return
func.func @just_over(%x: memref<64xf32>, %y: memref<64xf32>, %c0: index, %c1: index, %c64: index) {
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x[%i] : memref<64xf32>
    %b = arith.addf %a, %a : f32
    memref.store %b, %y[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %y[%i] : memref<64xf32>
    %b = arith.mulf %a, %a : f32
    %c = arith.mulf %b, %a : f32
    memref.store %c, %y[%i] : memref<64xf32>
  }
  return
}

func.func @at_the_bound(%x: memref<64xf32>, %y: memref<64xf32>, %c0: index, %c1: index, %c64: index) {
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %x[%i] : memref<64xf32>
    %b = arith.addf %a, %a : f32
    memref.store %b, %y[%i] : memref<64xf32>
  }
  scf.for %i = %c0 to %c64 step %c1 {
    %a = memref.load %y[%i] : memref<64xf32>
    %b = arith.mulf %a, %a : f32
    memref.store %b, %y[%i] : memref<64xf32>
  }
  return
}
