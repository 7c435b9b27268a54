// RUN: mlc-opt %s --split-input-file --mlc-merge-functions | FileCheck %s

// Two private kernels with the same body: the second goes, its call and its address name
// the first.
// CHECK-LABEL: llvm.func @kernel_0
// CHECK-NOT: llvm.func @kernel_1
// CHECK-LABEL: llvm.func @main
// CHECK: llvm.call @kernel_0
// CHECK: llvm.call @kernel_0
// CHECK: llvm.mlir.addressof @kernel_0
llvm.func @kernel_0(%p: !llvm.ptr, %n: i64) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %c = llvm.mlir.constant(2.0 : f32) : f32
  %x = llvm.load %p : !llvm.ptr -> f32
  %y = llvm.fmul %x, %c : f32
  llvm.store %y, %p : f32, !llvm.ptr
  llvm.return
}
llvm.func @kernel_1(%p: !llvm.ptr, %n: i64) attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  %c = llvm.mlir.constant(2.0 : f32) : f32
  %x = llvm.load %p : !llvm.ptr -> f32
  %y = llvm.fmul %x, %c : f32
  llvm.store %y, %p : f32, !llvm.ptr
  llvm.return
}
llvm.func @main(%a: !llvm.ptr, %b: !llvm.ptr, %n: i64) -> !llvm.ptr attributes {llvm.emit_c_interface} {
  llvm.call @kernel_0(%a, %n) : (!llvm.ptr, i64) -> ()
  llvm.call @kernel_1(%b, %n) : (!llvm.ptr, i64) -> ()
  %f = llvm.mlir.addressof @kernel_1 : !llvm.ptr
  llvm.return %f : !llvm.ptr
}

// -----

// Merging the leaves makes their callers equal: they merge too, on the next round.
// CHECK-LABEL: llvm.func @leaf_0
// CHECK-NOT: @leaf_1
// CHECK-LABEL: llvm.func @caller_0
// CHECK-NOT: @caller_1
// CHECK-LABEL: llvm.func @main
// CHECK-COUNT-2: llvm.call @caller_0(
llvm.func @leaf_0(%p: !llvm.ptr) attributes {sym_visibility = "private"} {
  %x = llvm.load %p : !llvm.ptr -> f32
  %y = llvm.fadd %x, %x : f32
  llvm.store %y, %p : f32, !llvm.ptr
  llvm.return
}
llvm.func @leaf_1(%p: !llvm.ptr) attributes {sym_visibility = "private"} {
  %x = llvm.load %p : !llvm.ptr -> f32
  %y = llvm.fadd %x, %x : f32
  llvm.store %y, %p : f32, !llvm.ptr
  llvm.return
}
llvm.func @caller_0(%p: !llvm.ptr) attributes {sym_visibility = "private"} {
  llvm.call @leaf_0(%p) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @caller_1(%p: !llvm.ptr) attributes {sym_visibility = "private"} {
  llvm.call @leaf_1(%p) : (!llvm.ptr) -> ()
  llvm.return
}
llvm.func @main(%a: !llvm.ptr, %b: !llvm.ptr) attributes {llvm.emit_c_interface} {
  llvm.call @caller_0(%a) : (!llvm.ptr) -> ()
  llvm.call @caller_1(%b) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// Not merged: bodies that differ in one constant, or in their attributes; public functions
// (entries keep their names) even with equal bodies.
// CHECK-LABEL: llvm.func @scale_2
// CHECK-LABEL: llvm.func @scale_3
// CHECK-LABEL: llvm.func @scale_3_inline
// CHECK-LABEL: llvm.func @public_0
// CHECK-LABEL: llvm.func @public_1
llvm.func @scale_2(%x: f32) -> f32 attributes {sym_visibility = "private"} {
  %c = llvm.mlir.constant(2.0 : f32) : f32
  %y = llvm.fmul %x, %c : f32
  llvm.return %y : f32
}
llvm.func @scale_3(%x: f32) -> f32 attributes {sym_visibility = "private"} {
  %c = llvm.mlir.constant(3.0 : f32) : f32
  %y = llvm.fmul %x, %c : f32
  llvm.return %y : f32
}
llvm.func @scale_3_inline(%x: f32) -> f32 attributes {passthrough = ["alwaysinline"], sym_visibility = "private"} {
  %c = llvm.mlir.constant(3.0 : f32) : f32
  %y = llvm.fmul %x, %c : f32
  llvm.return %y : f32
}
llvm.func @public_0(%x: f32) -> f32 {
  %y = llvm.call @scale_2(%x) : (f32) -> f32
  %z = llvm.call @scale_3(%y) : (f32) -> f32
  %w = llvm.call @scale_3_inline(%z) : (f32) -> f32
  llvm.return %w : f32
}
llvm.func @public_1(%x: f32) -> f32 {
  %y = llvm.call @scale_2(%x) : (f32) -> f32
  %z = llvm.call @scale_3(%y) : (f32) -> f32
  %w = llvm.call @scale_3_inline(%z) : (f32) -> f32
  llvm.return %w : f32
}

// -----

// func.func works the same (before the LLVM lowering: mlc-split-functions' parts).
// CHECK-LABEL: func.func private @part_0
// CHECK-NOT: func.func private @part_1
// CHECK: call @part_0
// CHECK: call @part_0
func.func private @part_0(%m: memref<4xf32>) attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%c0] : memref<4xf32>
  %y = arith.mulf %x, %x : f32
  memref.store %y, %m[%c0] : memref<4xf32>
  return
}
func.func private @part_1(%m: memref<4xf32>) attributes {passthrough = ["noinline"]} {
  %c0 = arith.constant 0 : index
  %x = memref.load %m[%c0] : memref<4xf32>
  %y = arith.mulf %x, %x : f32
  memref.store %y, %m[%c0] : memref<4xf32>
  return
}
func.func @main(%a: memref<4xf32>, %b: memref<4xf32>) {
  call @part_0(%a) : (memref<4xf32>) -> ()
  call @part_1(%b) : (memref<4xf32>) -> ()
  return
}

// -----

// Every kind of use is renamed in one walk of the module: calls nested in loops, and the
// address of a parallel body (func.constant, what mlc-parallel-outline passes the pool).
// CHECK-LABEL: func.func private @body_0
// CHECK-NOT: func.func private @body_1
// CHECK-LABEL: func.func @main
// CHECK: constant @body_0
// CHECK: constant @body_0
// CHECK: scf.for
// CHECK:   call @body_0
// CHECK-NOT: @body_1
func.func private @body_0(%p: i64) attributes {passthrough = ["noinline"]} {
  %x = arith.addi %p, %p : i64
  return
}
func.func private @body_1(%p: i64) attributes {passthrough = ["noinline"]} {
  %x = arith.addi %p, %p : i64
  return
}
func.func @main(%n: i64) {
  %f = constant @body_0 : (i64) -> ()
  %g = constant @body_1 : (i64) -> ()
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %i = %c0 to %c4 step %c1 {
    func.call @body_1(%n) : (i64) -> ()
  }
  return
}

// -----

// Functions an earlier run left unique (mlc.unique_body) are not compared again until
// something merges; survivors are marked.
// CHECK-LABEL: llvm.func @seen_0
// CHECK-SAME: mlc.unique_body
// CHECK-LABEL: llvm.func @seen_1
// CHECK-LABEL: llvm.func @main
// CHECK: llvm.call @seen_0
// CHECK: llvm.call @seen_1
llvm.func @seen_0(%p: !llvm.ptr) attributes {mlc.unique_body, sym_visibility = "private"} {
  llvm.return
}
llvm.func @seen_1(%p: !llvm.ptr) attributes {mlc.unique_body, sym_visibility = "private"} {
  llvm.return
}
llvm.func @main(%a: !llvm.ptr) attributes {llvm.emit_c_interface} {
  llvm.call @seen_0(%a) : (!llvm.ptr) -> ()
  llvm.call @seen_1(%a) : (!llvm.ptr) -> ()
  llvm.return
}

// -----

// Once new functions merged, every function is compared: the marked pair merges too.
// CHECK-LABEL: llvm.func @old_0
// CHECK-NOT: llvm.func @old_1
// CHECK-LABEL: llvm.func @new_0
// CHECK-NOT: llvm.func @new_1
// CHECK-LABEL: llvm.func @main
// CHECK-COUNT-2: llvm.call @old_0(
// CHECK-COUNT-2: llvm.call @new_0(
llvm.func @old_0(%p: !llvm.ptr) attributes {mlc.unique_body, sym_visibility = "private"} {
  llvm.return
}
llvm.func @old_1(%p: !llvm.ptr) attributes {mlc.unique_body, sym_visibility = "private"} {
  llvm.return
}
llvm.func @new_0(%p: !llvm.ptr, %q: !llvm.ptr) attributes {sym_visibility = "private"} {
  llvm.return
}
llvm.func @new_1(%p: !llvm.ptr, %q: !llvm.ptr) attributes {sym_visibility = "private"} {
  llvm.return
}
llvm.func @main(%a: !llvm.ptr) attributes {llvm.emit_c_interface} {
  llvm.call @old_0(%a) : (!llvm.ptr) -> ()
  llvm.call @old_1(%a) : (!llvm.ptr) -> ()
  llvm.call @new_0(%a, %a) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.call @new_1(%a, %a) : (!llvm.ptr, !llvm.ptr) -> ()
  llvm.return
}
