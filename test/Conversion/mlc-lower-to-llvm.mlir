// RUN: mlc-opt %s --split-input-file --mlc-lower-to-llvm | FileCheck %s

// Results become caller-allocated out-params; the C interface wrapper is emitted; nothing
// but the llvm dialect remains. The CPU strategies ran: tanh is a call of the vector
// approximation (no libm tanhf), an alwaysinline function of vector arithmetic, internal
// to the module; the entry's body stays called from its wrappers (mlc-llvm-linkage).
// CHECK-LABEL: llvm.func @dps_result
// CHECK-SAME: attributes {llvm.emit_c_interface, passthrough = ["noinline"]}
// CHECK-NOT: llvm.call @malloc
// CHECK-NOT: tanhf
// CHECK: llvm.call @__mlc_tanh_v8f32({{.*}}) : (vector<8xf32>) -> vector<8xf32>
// CHECK: llvm.return
// CHECK-LABEL: llvm.func @_mlir_ciface_dps_result
// CHECK-NOT: linalg.
// CHECK-NOT: memref.
// CHECK-LABEL: llvm.func internal @__mlc_tanh_v8f32
// CHECK-SAME: passthrough = ["alwaysinline"]
// CHECK: llvm.intr.fabs({{.*}}) : (vector<8xf32>) -> vector<8xf32>
func.func @dps_result(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tensor.empty() : tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%0 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %2 = math.tanh %in : f32
    linalg.yield %2 : f32
  } -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// A temporary buffer lives in the caller's scratch argument: no malloc, no free.
// CHECK-LABEL: llvm.func @temporary_in_scratch
// CHECK-SAME: mlc.scratch_bytes = 32 : i64
// CHECK-NOT: llvm.call @malloc
// CHECK-NOT: llvm.call @free
// CHECK: llvm.return
func.func @temporary_in_scratch(%a: tensor<8xf32>) -> tensor<f32> {
  %cst = arith.constant 0.0 : f32
  %0 = tensor.empty() : tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%0 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %e = math.exp %in : f32
    linalg.yield %e : f32
  } -> tensor<8xf32>
  %t = linalg.transpose ins(%1 : tensor<8xf32>) outs(%0 : tensor<8xf32>) permutation = [0]
  %init = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%cst : f32) outs(%init : tensor<f32>) -> tensor<f32>
  %r = linalg.reduce ins(%t : tensor<8xf32>) outs(%f : tensor<f32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<f32>
}

// -----

// Without the CPU strategies (codegen=false) math stays scalar (LLVM makes it a libm call).
// RUN: mlc-opt %s --split-input-file --mlc-lower-to-llvm="codegen=false" | FileCheck %s --check-prefix=SCALAR
// SCALAR-LABEL: llvm.func @scalar_tanh
// SCALAR: llvm.intr.tanh({{.*}}) : (f32) -> f32
func.func @scalar_tanh(%a: tensor<8xf32>) -> tensor<8xf32> {
  %0 = tensor.empty() : tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%0 : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %2 = math.tanh %in : f32
    linalg.yield %2 : f32
  } -> tensor<8xf32>
  return %1 : tensor<8xf32>
}
