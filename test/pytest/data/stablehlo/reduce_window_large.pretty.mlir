module {
  func.func @main(%arg0: tensor<20x19xf32>) -> tensor<2x3xf32> {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = "stablehlo.reduce_window"(%arg0, %cst) <{window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 17, 17>, window_strides = array<i64: 3, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %1 = stablehlo.abs %arg2 : tensor<f32>
      %2 = stablehlo.maximum %arg1, %1 : tensor<f32>
      stablehlo.return %2 : tensor<f32>
    }) : (tensor<20x19xf32>, tensor<f32>) -> tensor<2x3xf32>
    return %0 : tensor<2x3xf32>
  }
}
