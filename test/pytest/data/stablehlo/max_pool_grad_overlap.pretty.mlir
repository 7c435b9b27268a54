module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x5xf32>) -> (tensor<5x5xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %cst_0 = stablehlo.constant dense<1.500000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<3x4xf32>
    %2 = stablehlo.multiply %0, %1 : tensor<3x4xf32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %3 = stablehlo.pad %arg0, %cst_1, low = [1, 0], high = [1, 1], interior = [0, 0] : (tensor<5x5xf32>, tensor<f32>) -> tensor<7x6xf32>
    %cst_2 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %4 = "stablehlo.select_and_scatter"(%3, %2, %cst_2) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %6 = stablehlo.compare GE, %arg1, %arg2, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %6 : tensor<i1>
    }, {
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %6 = stablehlo.add %arg1, %arg2 : tensor<f32>
      stablehlo.return %6 : tensor<f32>
    }) : (tensor<7x6xf32>, tensor<3x4xf32>, tensor<f32>) -> tensor<7x6xf32>
    %5 = stablehlo.slice %4 [1:6, 0:5] : (tensor<7x6xf32>) -> tensor<5x5xf32>
    return %5 : tensor<5x5xf32>
  }
}
