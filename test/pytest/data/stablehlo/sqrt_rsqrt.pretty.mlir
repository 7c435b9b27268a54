module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xf32>) -> (tensor<5xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.sqrt %arg0 : tensor<5xf32>
    %1 = stablehlo.rsqrt %arg0 : tensor<5xf32>
    %2 = stablehlo.add %0, %1 : tensor<5xf32>
    return %2 : tensor<5xf32>
  }
}
