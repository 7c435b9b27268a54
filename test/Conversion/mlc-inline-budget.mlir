// RUN: mlc-opt %s --split-input-file --mlc-inline-budget="budget=8" | FileCheck %s
// RUN: mlc-opt %s --split-input-file --mlc-inline-budget | FileCheck %s --check-prefix=DEFAULT

// Inlining @big (3 ops) at its 4 calls would add 3 * 3 = 9 ops (> 8): it stays called
// (noinline). @small (1 op) at 2 calls adds 1, which fits once @big is out.
// CHECK-LABEL: llvm.func @big
// CHECK-SAME: passthrough = ["noinline"]
// CHECK-LABEL: llvm.func @small
// CHECK-SAME: passthrough = ["alwaysinline"]
// The default budget (4096 ops) leaves a module this small to LLVM's inliner.
// DEFAULT-NOT: noinline
llvm.func @big(%x: f32) -> f32 attributes {passthrough = ["alwaysinline"]} {
  %0 = llvm.fmul %x, %x : f32
  %1 = llvm.fadd %0, %x : f32
  llvm.return %1 : f32
}
llvm.func @small(%x: f32) -> f32 attributes {passthrough = ["alwaysinline"]} {
  llvm.return %x : f32
}
llvm.func @main(%x: f32) -> f32 {
  %0 = llvm.call @big(%x) : (f32) -> f32
  %1 = llvm.call @big(%0) : (f32) -> f32
  %2 = llvm.call @big(%1) : (f32) -> f32
  %3 = llvm.call @big(%2) : (f32) -> f32
  %4 = llvm.call @small(%3) : (f32) -> f32
  %5 = llvm.call @small(%4) : (f32) -> f32
  llvm.return %5 : f32
}

// -----

// A helper called once adds nothing: it is inlined whatever the budget.
// CHECK-LABEL: llvm.func @once
// CHECK-SAME: passthrough = ["alwaysinline"]
llvm.func @once(%x: f32) -> f32 attributes {passthrough = ["alwaysinline"]} {
  %0 = llvm.fmul %x, %x : f32
  %1 = llvm.fadd %0, %x : f32
  %2 = llvm.fadd %1, %x : f32
  llvm.return %2 : f32
}
llvm.func @caller(%x: f32) -> f32 {
  %0 = llvm.call @once(%x) : (f32) -> f32
  llvm.return %0 : f32
}
