// RUN: mlc-opt %s --split-input-file --mlc-buffers-to-llvm | FileCheck %s

// Bufferized linalg becomes a loop and then the LLVM dialect only; tanh was not
// approximated (no codegen stage ran): LLVM's intrinsic computes it.
// CHECK-LABEL: llvm.func @loops
// CHECK: llvm.cond_br
// CHECK: llvm.intr.tanh
// CHECK: llvm.return
// CHECK-NOT: linalg.
// CHECK-NOT: memref.
// CHECK-NOT: scf.
func.func @loops(%a: memref<8xf32>, %b: memref<8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<8xf32>) outs(%b : memref<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %2 = math.tanh %in : f32
    linalg.yield %2 : f32
  }
  return
}
