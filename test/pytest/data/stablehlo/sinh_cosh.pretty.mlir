module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>) -> (tensor<6xf32> {jax.result_info = "result"}) {
    %0 = chlo.sinh %arg0 : tensor<6xf32> -> tensor<6xf32>
    %1 = chlo.cosh %arg0 : tensor<6xf32> -> tensor<6xf32>
    %2 = stablehlo.add %0, %1 : tensor<6xf32>
    return %2 : tensor<6xf32>
  }
}
