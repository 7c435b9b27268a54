// The seed function: reduce_sum(x * y + z), run on .npy inputs and checked against numpy.
// REQUIRES: host-supports-jit
// RUN: %PYTHON -c "import numpy as np; r = np.random.default_rng(0); \
// RUN:   x, y, z = (r.standard_normal(1000).astype(np.float32) for _ in range(3)); \
// RUN:   [np.save(f'%t.{n}.npy', a) for n, a in zip('xyz', (x, y, z))]; \
// RUN:   np.savez('%t.ref.npz', np.sum(x.astype(np.float64) * y + z).astype(np.float32))"
// RUN: mlc-run %s --input %t.x.npy --input %t.y.npy --input %t.z.npy --check-against %t.ref.npz | FileCheck %s
// RUN: not mlc-run %s --input %t.x.npy 2>&1 | FileCheck %s --check-prefix=ARITY
// RUN: not mlc-run %s --input %t.x.npy --input %t.y.npy --input %t.ref.npz 2>&1 | FileCheck %s --check-prefix=BADFILE

// CHECK: array({{.*}}, dtype=float32)
// CHECK: mlc-run: all 1 results match
// ARITY: mlc-run: error: main(float32[1000], float32[1000], float32[1000]) -> (float32[]) takes 3 arguments, got 1
// BADFILE: mlc-run: error:
func.func @main(%x: tensor<1000xf32>, %y: tensor<1000xf32>, %z: tensor<1000xf32>) -> tensor<f32> {
  %0 = "hlo.multiply"(%x, %y) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
  %1 = "hlo.add"(%0, %z) : (tensor<1000xf32>, tensor<1000xf32>) -> tensor<1000xf32>
  %init = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %2 = "hlo.reduce"(%1, %init) {dimensions = array<i64: 0>, kind = "add"} : (tensor<1000xf32>, tensor<f32>) -> tensor<f32>
  return %2 : tensor<f32>
}
