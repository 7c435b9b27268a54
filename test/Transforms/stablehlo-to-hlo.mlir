// RUN: mlc-opt %s --stablehlo-to-hlo | FileCheck %s
// RUN: mlc-run %s --random-inputs 0 | FileCheck %s --check-prefix=OUT
// RUN: mlc-run %s --random-inputs 0 --reference | FileCheck %s --check-prefix=OUT

// StableHLO's pretty form as JAX prints it: mlc-opt imports it (custom ops read by MLC's
// reader, private functions inlined, JAX's argmax reducer recognised) and prints hlo.
// CHECK-LABEL: func.func @main
// CHECK-NOT: stablehlo
// CHECK-NOT: call
// CHECK: %[[ARGMAX:.*]] = "hlo.argmax"(%arg0) {dimension = 1 : i64} : (tensor<2x3xf32>) -> tensor<2xi32>
// CHECK: %[[SUM:.*]] = "hlo.reduce"(%arg0, %{{.*}}) {dimensions = array<i64: 1>, kind = "add"}
// CHECK: %[[GT:.*]] = "hlo.compare"(%[[SUM]], %{{.*}}) {compare_type = "FLOAT", comparison_direction = "GT"}
// CHECK: return %[[ARGMAX]], %[[GT]]

// mlc-run compiles and runs StableHLO input directly (through mlc.compile), and its
// --reference interpreter imports it too.
// OUT: array([{{[0-2]}}, {{[0-2]}}], dtype=int32)
// OUT-NEXT: array([{{ ?}}{{True|False}}, {{ ?}}{{True|False}}])
module @jit_f {
  func.func public @main(%arg0: tensor<2x3xf32>) -> (tensor<2xi32>, tensor<2xi1>) {
    %0 = call @argmax(%arg0) : (tensor<2x3xf32>) -> tensor<2xi32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] : (tensor<2x3xf32>, tensor<f32>) -> tensor<2xf32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2xf32>
    %3 = stablehlo.compare GT, %1, %2, FLOAT : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
    return %0, %3 : tensor<2xi32>, tensor<2xi1>
  }
  func.func private @argmax(%arg0: tensor<2x3xf32>) -> tensor<2xi32> {
    %0 = stablehlo.iota dim = 1 : tensor<2x3xi32>
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1:2 = stablehlo.reduce(%arg0 init: %cst), (%0 init: %c) across dimensions = [1] : (tensor<2x3xf32>, tensor<2x3xi32>, tensor<f32>, tensor<i32>) -> (tensor<2xf32>, tensor<2xi32>)
     reducer(%arg1: tensor<f32>, %arg3: tensor<f32>) (%arg2: tensor<i32>, %arg4: tensor<i32>)  {
      %2 = stablehlo.compare GT, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = stablehlo.compare NE, %arg1, %arg1, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.or %2, %3 : tensor<i1>
      %5 = stablehlo.compare EQ, %arg1, %arg3, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %6 = stablehlo.compare LT, %arg2, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %7 = stablehlo.and %5, %6 : tensor<i1>
      %8 = stablehlo.or %4, %7 : tensor<i1>
      %9 = stablehlo.select %4, %arg1, %arg3 : tensor<i1>, tensor<f32>
      %10 = stablehlo.select %8, %arg2, %arg4 : tensor<i1>, tensor<i32>
      stablehlo.return %9, %10 : tensor<f32>, tensor<i32>
    }
    return %1#1 : tensor<2xi32>
  }
}
