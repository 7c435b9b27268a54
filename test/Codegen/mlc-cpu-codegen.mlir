// RUN: mlc-opt %s --mlc-cpu-codegen | FileCheck %s

// The strategies in order: the kernel is vectorized, then its vector exp becomes a call
// of the module's one arith-op expansion for that vector type (inlined by LLVM), so no
// scalar libm call is left inside the loop.
// CHECK-LABEL: func @sigmoid_like
// CHECK: scf.for
// CHECK: vector.transfer_read
// CHECK-NOT: math.exp
// CHECK: call @__mlc_exp_v[[W:[0-9]+]]f32
// CHECK: vector.transfer_write
// CHECK: func private @__mlc_exp_v[[W]]f32({{.*}}) -> vector<[[W]]xf32> attributes {passthrough = ["alwaysinline"]}
// CHECK-NOT: math.exp
// CHECK: arith.bitcast {{.*}} to vector<[[W]]xf32>
#id = affine_map<(d0) -> (d0)>
func.func @sigmoid_like(%x: memref<1024xf32>, %y: memref<1024xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<1024xf32>) outs(%y : memref<1024xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}
