// RUN: mlc-opt %s --split-input-file --mlc-math-approx | FileCheck %s

// f32 exp: the clamps are compare + select (one vminps/vmaxps each, NaN kept); adding a
// shifter rounds x / ln 2 to n and leaves n in the low bits, whose halves become the two
// powers of two (exponent-field shifts). The use becomes a call of one private
// alwaysinline definition per type.
// CHECK-LABEL: func @exp_f32
// CHECK-NOT: math.exp
// CHECK: call @__mlc_exp_f32(%{{.*}}) : (f32) -> f32
// CHECK: func private @__mlc_exp_f32(%{{.*}}: f32) -> f32 attributes {passthrough = ["alwaysinline"]}
// CHECK-NOT: math.exp
// CHECK: arith.cmpf ogt
// CHECK: arith.select
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: arith.constant 0x4B4000FE : f32
// CHECK-NOT: math.roundeven
// CHECK-NOT: arith.fptosi
// CHECK: arith.shrsi
// CHECK: arith.shli
// CHECK: arith.subi
// CHECK: arith.shli
// CHECK-NOT: arith.cmpf uno
// CHECK: return
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

// tanh: on t = min(|x|, 9.5), a small-t polynomial and 1 - 2e/(1 + e) with e = e^-2t
// (one division), chosen per element; the sign of x goes back on with an and + or.
// CHECK-LABEL: func @tanh_f32
// CHECK-NOT: math.tanh
// CHECK: call @__mlc_tanh_f32
// CHECK: func private @__mlc_tanh_f32
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp
// CHECK: math.absf
// CHECK: arith.constant 9.500000e+00
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK-COUNT-1: arith.divf
// CHECK-NOT: arith.divf
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK: arith.andi
// CHECK: arith.ori
// CHECK-NOT: math.copysign
// CHECK: return
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

// -----

// hlo.logistic as hlo-to-linalg writes it, 1 / (1 + exp(-x)), here with the splat 1.0 a
// vector.broadcast as the vectorizer makes it: one helper from e = e^-|x| (no overflow),
// e / (1 + e) or 1 / (1 + e) by the sign of x; the exp and negation are gone.
// CHECK-LABEL: func @logistic
// CHECK-NOT: math.exp
// CHECK-NOT: arith.negf
// CHECK: %[[Y:.*]] = call @__mlc_logistic_v16f32(%arg0) : (vector<16xf32>) -> vector<16xf32>
// CHECK-NOT: arith.divf
// CHECK: return %[[Y]]
// CHECK: func private @__mlc_logistic_v16f32
// CHECK: math.absf
// CHECK: arith.constant dense<8.800000e+01>
// CHECK: arith.cmpf olt
// CHECK: arith.select
// CHECK-COUNT-1: arith.divf
// CHECK-NOT: math.exp
func.func @logistic(%x: vector<16xf32>) -> vector<16xf32> {
  %c = arith.constant 1.0 : f32
  %one = vector.broadcast %c : f32 to vector<16xf32>
  %n = arith.negf %x : vector<16xf32>
  %e = math.exp %n : vector<16xf32>
  %d = arith.addf %one, %e : vector<16xf32>
  %y = arith.divf %one, %d : vector<16xf32>
  return %y : vector<16xf32>
}

// -----

// Not a logistic (2 / (1 + exp(-x))): the exp gets its own helper, the division stays.
// CHECK-LABEL: func @not_logistic
// CHECK: call @__mlc_exp_f32
// CHECK: arith.divf
// CHECK-NOT: __mlc_logistic
func.func @not_logistic(%x: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %n = arith.negf %x : f32
  %e = math.exp %n : f32
  %d = arith.addf %e, %one : f32
  %y = arith.divf %two, %d : f32
  return %y : f32
}

// -----

// f16 is computed in f32 (every value converts exactly) and rounded once; bf16 is left
// alone (no bf16 in MLC's frontend; its truncation is a libgcc call per element on AVX2).
// CHECK-LABEL: func @narrow
// CHECK: %[[W:.*]] = arith.extf %arg0 : vector<8xf16> to vector<8xf32>
// CHECK: %[[T:.*]] = call @__mlc_tanh_v8f32(%[[W]])
// CHECK: arith.truncf %[[T]] : vector<8xf32> to vector<8xf16>
// CHECK: math.exp %arg1 : bf16
// CHECK: %[[H:.*]] = arith.extf %arg2 : f16 to f32
// CHECK: %[[E:.*]] = call @__mlc_exp_f32(%[[H]])
// CHECK: arith.truncf %[[E]] : f32 to f16
// CHECK-NOT: math.tanh
// CHECK-NOT: math.exp
func.func @narrow(%x: vector<8xf16>, %y: bf16, %s: f16) -> (vector<8xf16>, bf16, f16) {
  %a = math.tanh %x : vector<8xf16>
  %b = math.exp %y : bf16
  %c = math.exp %s : f16
  return %a, %b, %c : vector<8xf16>, bf16, f16
}

// -----

// pow: two operands, computed in f64 (the extensions, one division for log2's atanh
// series, 2^n from a shifter's bits) and rounded to f32 once; C99's cases are selects on
// the f32 operands (a finite negative x to a non-integer y is NaN; y = 0 or x = 1 give 1).
// CHECK-LABEL: func @pow_vector
// CHECK-NOT: math.powf
// CHECK: call @__mlc_powf_v8f32(%{{.*}}, %{{.*}}) : (vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// CHECK: func private @__mlc_powf_v8f32(%{{.*}}: vector<8xf32>, %{{.*}}: vector<8xf32>) -> vector<8xf32> attributes {passthrough = ["alwaysinline"]}
// CHECK: arith.extf {{.*}} : vector<8xf32> to vector<8xf64>
// CHECK: arith.extf {{.*}} : vector<8xf32> to vector<8xf64>
// CHECK: arith.divf {{.*}} : vector<8xf64>
// CHECK: arith.constant dense<0x4338000000000000> : vector<8xf64>
// CHECK: arith.shli {{.*}} : vector<8xi64>
// CHECK: arith.truncf {{.*}} : vector<8xf64> to vector<8xf32>
// CHECK: math.floor {{.*}} : vector<8xf32>
// CHECK: arith.cmpf uno
// CHECK-NOT: math.powf
// CHECK: return
func.func @pow_vector(%x: vector<8xf32>, %y: vector<8xf32>) -> vector<8xf32> {
  %z = math.powf %x, %y : vector<8xf32>
  return %z : vector<8xf32>
}

// -----

// f64 pow is left to mlc-vector-math (libmvec).
// CHECK-LABEL: func @pow_f64_untouched
// CHECK: math.powf
// CHECK-NOT: __mlc_powf
func.func @pow_f64_untouched(%x: vector<4xf64>, %y: vector<4xf64>) -> vector<4xf64> {
  %z = math.powf %x, %y : vector<4xf64>
  return %z : vector<4xf64>
}
