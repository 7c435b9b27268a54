// RUN: mlc-opt %s --split-input-file --mlc-math-approx | FileCheck %s

// f32 exp: round(x / ln 2) splits off a power of two, applied as two exponent-field halves.
// The use becomes a call of one private alwaysinline definition per type.
// CHECK-LABEL: func @exp_f32
// CHECK-NOT: math.exp
// CHECK: call @__mlc_exp_f32(%{{.*}}) : (f32) -> f32
// CHECK: func private @__mlc_exp_f32(%{{.*}}: f32) -> f32 attributes {passthrough = ["alwaysinline"]}
// CHECK-NOT: math.exp
// CHECK: math.roundeven
// CHECK: arith.fptosi
// CHECK: arith.shli
// CHECK: arith.cmpf uno
func.func @exp_f32(%x: f32) -> f32 {
  %y = math.exp %x : f32
  return %y : f32
}

// -----

// Vectors get splat constants and vector ops throughout.
// CHECK-LABEL: func @log_vector
// CHECK-NOT: math.log
// CHECK: call @__mlc_log_v8f32
// CHECK: func private @__mlc_log_v8f32
// CHECK: arith.constant dense<{{.*}}> : vector<8xf32>
// CHECK: arith.bitcast {{.*}} : vector<8xf32> to vector<8xi32>
// CHECK: arith.select {{.*}} : vector<8xi1>, vector<8xf32>
func.func @log_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %y = math.log %x : vector<8xf32>
  return %y : vector<8xf32>
}

// -----

// tanh: a small-|x| polynomial and an exp-based formula, chosen per element.
// CHECK-LABEL: func @tanh_f32
// CHECK-NOT: math.tanh
// CHECK: call @__mlc_tanh_f32
// CHECK: func private @__mlc_tanh_f32
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp
// CHECK: math.absf
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: math.copysign
func.func @tanh_f32(%x: f32) -> f32 {
  %y = math.tanh %x : f32
  return %y : f32
}

// -----

// f64 stays a math op (libm later); other math ops are not touched.
// CHECK-LABEL: func @untouched
// CHECK: math.exp %{{.*}} : f64
// CHECK: math.sin %{{.*}} : f32
func.func @untouched(%x: f64, %y: f32) -> (f64, f32) {
  %a = math.exp %x : f64
  %b = math.sin %y : f32
  return %a, %b : f64, f32
}

// -----

// Many uses of one function on one type share one definition; another type gets its own.
// CHECK-LABEL: func @shared
// CHECK-COUNT-2: call @__mlc_tanh_v8f32
// CHECK: call @__mlc_tanh_f32
// CHECK-COUNT-1: func private @__mlc_tanh_
// CHECK-COUNT-1: func private @__mlc_tanh_
// CHECK-NOT: func private
func.func @shared(%x: vector<8xf32>, %s: f32) -> (vector<8xf32>, f32) {
  %a = math.tanh %x : vector<8xf32>
  %b = math.tanh %a : vector<8xf32>
  %c = math.tanh %s : f32
  return %b, %c : vector<8xf32>, f32
}
