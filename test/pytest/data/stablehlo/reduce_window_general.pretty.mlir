module {
  func.func @main(%arg0: tensor<4x5xf32>, %arg1: tensor<4x5xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>) {
    %cst = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0:2 = "stablehlo.reduce_window"(%arg0, %arg1, %cst, %cst_0) <{base_dilations = array<i64: 2, 1>, padding = dense<[[0, -1], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<f32>, %arg5: tensor<f32>):
      %1 = stablehlo.maximum %arg2, %arg4 : tensor<f32>
      %2 = stablehlo.add %arg3, %arg5 : tensor<f32>
      stablehlo.return %1, %2 : tensor<f32>, tensor<f32>
    }) : (tensor<4x5xf32>, tensor<4x5xf32>, tensor<f32>, tensor<f32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
    return %0#0, %0#1 : tensor<3x3xf32>, tensor<3x3xf32>
  }
}
