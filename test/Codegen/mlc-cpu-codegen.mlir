// RUN: mlc-opt %s --mlc-cpu-codegen | FileCheck %s

// The strategies in order: the kernel is vectorized, then its vector exp is expanded into
// arith ops, so no scalar libm call is left inside the loop.
// CHECK-LABEL: func @sigmoid_like
// CHECK: scf.for
// CHECK: vector.transfer_read
// CHECK-NOT: math.exp
// CHECK: arith.bitcast {{.*}} to vector<{{[0-9]+}}xf32>
// CHECK: vector.transfer_write
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
