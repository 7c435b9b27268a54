module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>) -> (tensor<6xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.abs %arg0 : tensor<6xf32>
    %1 = stablehlo.log_plus_one %0 : tensor<6xf32>
    %2 = stablehlo.exponential_minus_one %arg0 : tensor<6xf32>
    %3 = stablehlo.add %1, %2 : tensor<6xf32>
    return %3 : tensor<6xf32>
  }
}
