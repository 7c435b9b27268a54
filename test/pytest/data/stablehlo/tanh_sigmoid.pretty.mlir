module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5xf32>) -> (tensor<2x5xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.tanh %arg0 : tensor<2x5xf32>
    %1 = stablehlo.negate %arg0 : tensor<2x5xf32>
    %2 = stablehlo.exponential %1 : tensor<2x5xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x5xf32>
    %4 = stablehlo.add %3, %2 : tensor<2x5xf32>
    %cst_0 = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x5xf32>
    %6 = stablehlo.divide %5, %4 : tensor<2x5xf32>
    %7 = stablehlo.multiply %0, %6 : tensor<2x5xf32>
    return %7 : tensor<2x5xf32>
  }
}
