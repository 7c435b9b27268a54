// RUN: mlc-opt %s --split-input-file --mlc-llvm-linkage | FileCheck %s

// A private helper gets internal linkage (no JIT wrapper keeps a copy of it); the entry
// with a C interface stays called from its wrappers; the wrapper, which only forwards its
// arguments, is compiled without optimization (optnone needs noinline).
// CHECK-LABEL: llvm.func internal @helper
// CHECK-SAME: passthrough = ["alwaysinline"]
// CHECK-LABEL: llvm.func @main
// CHECK-SAME: passthrough = ["noinline"]
// CHECK-LABEL: llvm.func @_mlir_ciface_main
// CHECK-SAME: passthrough = ["noinline", "optnone"]
// CHECK: llvm.call @main
llvm.func @helper(%x: f32) -> f32 attributes {passthrough = ["alwaysinline"], sym_visibility = "private"} {
  %0 = llvm.fmul %x, %x : f32
  llvm.return %0 : f32
}
llvm.func @main(%x: f32) -> f32 attributes {llvm.emit_c_interface} {
  %0 = llvm.call @helper(%x) : (f32) -> f32
  llvm.return %0 : f32
}
llvm.func @_mlir_ciface_main(%x: f32) -> f32 attributes {llvm.emit_c_interface} {
  %0 = llvm.call @main(%x) : (f32) -> f32
  llvm.return %0 : f32
}

// -----

// Declarations (external symbols) keep their linkage, and so does a private function
// LLVM does not inline (internal, -O2's interprocedural passes would work on it); a public
// function without a C interface is left to LLVM's inliner; a function already marked
// keeps its marks.
// CHECK-LABEL: llvm.func @expf
// CHECK-NOT: internal
// CHECK-LABEL: llvm.func @main_part_0
// CHECK-NOT: internal
// CHECK-LABEL: llvm.func @plain
// CHECK-NOT: passthrough
// CHECK-LABEL: llvm.func @marked
// CHECK-SAME: passthrough = ["noinline"]
llvm.func @expf(f32) -> f32 attributes {sym_visibility = "private"}
llvm.func @main_part_0(%x: f32) -> f32 attributes {passthrough = ["noinline"], sym_visibility = "private"} {
  llvm.return %x : f32
}
llvm.func @plain(%x: f32) -> f32 {
  %0 = llvm.call @expf(%x) : (f32) -> f32
  llvm.return %0 : f32
}
llvm.func @marked(%x: f32) -> f32 attributes {llvm.emit_c_interface, passthrough = ["noinline"]} {
  llvm.return %x : f32
}
