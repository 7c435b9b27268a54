module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>) -> (tensor<6xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.exponential %arg0 : tensor<6xf32>
    %1 = stablehlo.abs %arg0 : tensor<6xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %3 = stablehlo.add %1, %2 : tensor<6xf32>
    %4 = stablehlo.log %3 : tensor<6xf32>
    %5 = stablehlo.add %0, %4 : tensor<6xf32>
    return %5 : tensor<6xf32>
  }
}
