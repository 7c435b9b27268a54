// RUN: mlc-opt %s --split-input-file --mlc-vector-math="register-bits=256" | FileCheck %s

// A 16-lane f32 sin is two calls to glibc's 8-lane AVX2 variant, one per register half.
// CHECK: func.func private @_ZGVdN8v_sinf(vector<8xf32>) -> vector<8xf32>
// CHECK-LABEL: func @sin16
// CHECK-NOT: math.sin
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [0], sizes = [8], strides = [1]}
// CHECK: call @_ZGVdN8v_sinf
// CHECK: vector.insert_strided_slice
// CHECK: vector.extract_strided_slice %{{.*}} {offsets = [8], sizes = [8], strides = [1]}
// CHECK: call @_ZGVdN8v_sinf
func.func @sin16(%x: vector<16xf32>) -> vector<16xf32> {
  %y = math.sin %x : vector<16xf32>
  return %y : vector<16xf32>
}

// -----

// f64 exp: four lanes per AVX2 register.
// CHECK: func.func private @_ZGVdN4v_exp(vector<4xf64>) -> vector<4xf64>
// CHECK-LABEL: func @exp8
// CHECK-COUNT-2: call @_ZGVdN4v_exp
func.func @exp8(%x: vector<8xf64>) -> vector<8xf64> {
  %y = math.exp %x : vector<8xf64>
  return %y : vector<8xf64>
}

// -----

// A binary function (f32 pow, in glibc since 2.22): both operands' halves, one call each.
// CHECK: func.func private @_ZGVdN8vv_powf(vector<8xf32>, vector<8xf32>) -> vector<8xf32>
// CHECK-LABEL: func @pow16
// CHECK-NOT: math.powf
// CHECK: %[[X0:.*]] = vector.extract_strided_slice %arg0 {offsets = [0], sizes = [8], strides = [1]}
// CHECK: %[[Y0:.*]] = vector.extract_strided_slice %arg1 {offsets = [0], sizes = [8], strides = [1]}
// CHECK: call @_ZGVdN8vv_powf(%[[X0]], %[[Y0]])
// CHECK: %[[X1:.*]] = vector.extract_strided_slice %arg0 {offsets = [8], sizes = [8], strides = [1]}
// CHECK: %[[Y1:.*]] = vector.extract_strided_slice %arg1 {offsets = [8], sizes = [8], strides = [1]}
// CHECK: call @_ZGVdN8vv_powf(%[[X1]], %[[Y1]])
func.func @pow16(%x: vector<16xf32>, %y: vector<16xf32>) -> vector<16xf32> {
  %z = math.powf %x, %y : vector<16xf32>
  return %z : vector<16xf32>
}

// -----

// Left alone: scalars (libm), f32 exp (mlc-math-approx's polynomial), odd widths.
// CHECK-LABEL: func @untouched
// CHECK: math.sin %{{.*}} : f32
// CHECK: math.exp %{{.*}} : vector<8xf32>
// CHECK: math.cos %{{.*}} : vector<3xf32>
func.func @untouched(%a: f32, %b: vector<8xf32>, %c: vector<3xf32>) -> (f32, vector<8xf32>, vector<3xf32>) {
  %0 = math.sin %a : f32
  %1 = math.exp %b : vector<8xf32>
  %2 = math.cos %c : vector<3xf32>
  return %0, %1, %2 : f32, vector<8xf32>, vector<3xf32>
}
