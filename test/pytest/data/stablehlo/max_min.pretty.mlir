module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>, %arg1: tensor<6xf32>) -> (tensor<6xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.maximum %arg0, %arg1 : tensor<6xf32>
    %cst = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %2 = stablehlo.minimum %arg0, %1 : tensor<6xf32>
    %3 = stablehlo.subtract %0, %2 : tensor<6xf32>
    return %3 : tensor<6xf32>
  }
}
