// RUN: mlc-opt %s --split-input-file --mlc-fma="force=true" | FileCheck %s

// A contract multiply feeding an add (either operand order) becomes one math.fma.
// CHECK-LABEL: func @fused
// CHECK-NEXT: %[[F:.*]] = math.fma %arg0, %arg1, %arg2 : vector<4x8xf32>
// CHECK-NEXT: return %[[F]]
func.func @fused(%a: vector<4x8xf32>, %b: vector<4x8xf32>, %acc: vector<4x8xf32>) -> vector<4x8xf32> {
  %p = arith.mulf %a, %b fastmath<contract> : vector<4x8xf32>
  %s = arith.addf %acc, %p : vector<4x8xf32>
  return %s : vector<4x8xf32>
}

// -----

// Not fused: no contract flag (the source wanted two roundings), a product with a second
// user, and scalars.
// CHECK-LABEL: func @kept
// CHECK-NOT: math.fma
// CHECK: arith.addf
// CHECK: arith.addf
// CHECK: arith.addf
func.func @kept(%a: vector<8xf32>, %b: vector<8xf32>, %c: f32, %d: f32) -> (vector<8xf32>, vector<8xf32>, f32) {
  %p = arith.mulf %a, %b : vector<8xf32>
  %s = arith.addf %p, %a : vector<8xf32>
  %q = arith.mulf %a, %b fastmath<contract> : vector<8xf32>
  %t = arith.addf %q, %q : vector<8xf32>
  %r = arith.mulf %c, %d fastmath<contract> : f32
  %u = arith.addf %r, %c : f32
  return %s, %t, %u : vector<8xf32>, vector<8xf32>, f32
}
