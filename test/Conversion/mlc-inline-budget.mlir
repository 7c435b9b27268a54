// RUN: mlc-opt %s --split-input-file --mlc-inline-budget="budget=8" | FileCheck %s
// RUN: mlc-opt %s --split-input-file --mlc-inline-budget | FileCheck %s --check-prefix=DEFAULT

// Inlining @big (3 ops) at its 4 calls would add 3 * 3 = 9 ops (> 8): it stays called
// (noinline). @small (1 op) at 2 calls adds 1, which fits once @big is out.
// CHECK-LABEL: llvm.func @big
// CHECK-SAME: passthrough = ["noinline"]
// CHECK-LABEL: llvm.func @small
// CHECK-SAME: passthrough = ["alwaysinline"]
// The default budget (256 ops) leaves a module this small to LLVM's inliner.
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

// -----

// The default budget: a 31-op helper (its return counted) at 10 calls would add 31 * 9 = 279 ops (> 256, ~8 ms of
// LLVM's time), as a chain of 10 tanh does: it stays called.
// DEFAULT-LABEL: llvm.func @poly
// DEFAULT-SAME: passthrough = ["noinline"]
// DEFAULT-LABEL: llvm.func @chain
// DEFAULT-COUNT-10: llvm.call @poly
llvm.func @poly(%x: f32) -> f32 attributes {passthrough = ["alwaysinline"]} {
  %0 = llvm.fadd %x, %x : f32
  %1 = llvm.fadd %0, %x : f32
  %2 = llvm.fadd %1, %x : f32
  %3 = llvm.fadd %2, %x : f32
  %4 = llvm.fadd %3, %x : f32
  %5 = llvm.fadd %4, %x : f32
  %6 = llvm.fadd %5, %x : f32
  %7 = llvm.fadd %6, %x : f32
  %8 = llvm.fadd %7, %x : f32
  %9 = llvm.fadd %8, %x : f32
  %10 = llvm.fadd %9, %x : f32
  %11 = llvm.fadd %10, %x : f32
  %12 = llvm.fadd %11, %x : f32
  %13 = llvm.fadd %12, %x : f32
  %14 = llvm.fadd %13, %x : f32
  %15 = llvm.fadd %14, %x : f32
  %16 = llvm.fadd %15, %x : f32
  %17 = llvm.fadd %16, %x : f32
  %18 = llvm.fadd %17, %x : f32
  %19 = llvm.fadd %18, %x : f32
  %20 = llvm.fadd %19, %x : f32
  %21 = llvm.fadd %20, %x : f32
  %22 = llvm.fadd %21, %x : f32
  %23 = llvm.fadd %22, %x : f32
  %24 = llvm.fadd %23, %x : f32
  %25 = llvm.fadd %24, %x : f32
  %26 = llvm.fadd %25, %x : f32
  %27 = llvm.fadd %26, %x : f32
  %28 = llvm.fadd %27, %x : f32
  %r = llvm.fmul %28, %x : f32
  llvm.return %r : f32
}
llvm.func @chain(%x: f32) -> f32 {
  %0 = llvm.call @poly(%x) : (f32) -> f32
  %1 = llvm.call @poly(%0) : (f32) -> f32
  %2 = llvm.call @poly(%1) : (f32) -> f32
  %3 = llvm.call @poly(%2) : (f32) -> f32
  %4 = llvm.call @poly(%3) : (f32) -> f32
  %5 = llvm.call @poly(%4) : (f32) -> f32
  %6 = llvm.call @poly(%5) : (f32) -> f32
  %7 = llvm.call @poly(%6) : (f32) -> f32
  %8 = llvm.call @poly(%7) : (f32) -> f32
  %9 = llvm.call @poly(%8) : (f32) -> f32
  llvm.return %9 : f32
}
