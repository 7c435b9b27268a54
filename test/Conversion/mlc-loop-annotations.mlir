// RUN: mlc-opt %s --mlc-loop-annotations | FileCheck %s

// The mark scf-to-cf and cf-to-llvm leave as a discardable attribute becomes the branch's
// own loop_annotation (printed inside the op's property dictionary), which LLVM
// translation turns into !llvm.loop metadata.
// CHECK-LABEL: llvm.func @loop
// CHECK: llvm.br ^bb1(%{{.*}} : i64) {loop_annotation = #{{.*}}}
// CHECK-NOT: llvm.loop_annotation =
#u = #llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>
llvm.func @loop(%n: i64) {
  %0 = llvm.mlir.constant(0 : i64) : i64
  %1 = llvm.mlir.constant(1 : i64) : i64
  llvm.br ^bb1(%0 : i64)
^bb1(%i: i64):
  %c = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %c, ^bb2, ^bb3
^bb2:
  %next = llvm.add %i, %1 : i64
  llvm.br ^bb1(%next : i64) {llvm.loop_annotation = #u}
^bb3:
  llvm.return
}
