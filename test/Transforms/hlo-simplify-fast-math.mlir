// The fast-math patterns of hlo-simplify: they fire only with fast-math.
// RUN: mlc-opt %s --split-input-file --hlo-simplify=fast-math | FileCheck %s

// fast-math: x + 0.0 is x.
// CHECK-LABEL: func @add_positive_zero
// CHECK-NOT: hlo.add
// CHECK: return %arg0
func.func @add_positive_zero(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = "hlo.constant"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.add"(%z, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// fast-math: x * 0.0 is 0.0.
// CHECK-LABEL: func @multiply_zero_float
// CHECK-NOT: hlo.multiply
// CHECK: dense<0.000000e+00>
func.func @multiply_zero_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  %z = "hlo.constant"() {value = dense<0.0> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.multiply"(%x, %z) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// fast-math: x - x is 0.0.
// CHECK-LABEL: func @subtract_self_float
// CHECK-NOT: hlo.subtract
// CHECK: dense<0.000000e+00>
func.func @subtract_self_float(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.subtract"(%x, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// fast-math: x ^ 0.5 is sqrt(x).
// CHECK-LABEL: func @power_half
// CHECK-NOT: hlo.power
// CHECK: "hlo.sqrt"(%arg0)
func.func @power_half(%x: tensor<4xf32>) -> tensor<4xf32> {
  %half = "hlo.constant"() {value = dense<0.5> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "hlo.power"(%x, %half) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// fast-math: exp(x) * exp(y) is exp(x + y).
// CHECK-LABEL: func @exp_times_exp
// CHECK: %[[S:.*]] = "hlo.add"(%arg0, %arg1)
// CHECK: "hlo.exponential"(%[[S]])
// CHECK-NOT: hlo.multiply
func.func @exp_times_exp(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = "hlo.exponential"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = "hlo.exponential"(%y) : (tensor<4xf32>) -> tensor<4xf32>
  %0 = "hlo.multiply"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
