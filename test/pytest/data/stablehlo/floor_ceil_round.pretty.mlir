module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<9xf32>) -> (tensor<9xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.floor %arg0 : tensor<9xf32>
    %1 = stablehlo.ceil %arg0 : tensor<9xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %3 = stablehlo.multiply %1, %2 : tensor<9xf32>
    %4 = stablehlo.add %0, %3 : tensor<9xf32>
    %5 = call @round(%arg0) : (tensor<9xf32>) -> tensor<9xf32>
    %cst_0 = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %6 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<9xf32>
    %7 = stablehlo.multiply %5, %6 : tensor<9xf32>
    %8 = stablehlo.add %4, %7 : tensor<9xf32>
    return %8 : tensor<9xf32>
  }
  func.func private @round(%arg0: tensor<9xf32>) -> tensor<9xf32> {
    %0 = stablehlo.round_nearest_even %arg0 : tensor<9xf32>
    return %0 : tensor<9xf32>
  }
}
