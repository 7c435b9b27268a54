module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8x3xf32>) -> (tensor<3x3xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.slice %arg0 [1:7:2, 0:3] : (tensor<8x3xf32>) -> tensor<3x3xf32>
    %1 = stablehlo.reverse %0, dims = [1] : tensor<3x3xf32>
    return %1 : tensor<3x3xf32>
  }
}
