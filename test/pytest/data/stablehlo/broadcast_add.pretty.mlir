module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x1xf32>, %arg1: tensor<1x3xf32>) -> (tensor<4x3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.broadcast_in_dim %arg0, dims = [0, 1] : (tensor<4x1xf32>) -> tensor<4x3xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [0, 1] : (tensor<1x3xf32>) -> tensor<4x3xf32>
    %2 = stablehlo.add %0, %1 : tensor<4x3xf32>
    return %2 : tensor<4x3xf32>
  }
}
