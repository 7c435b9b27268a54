module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xf32>) -> (tensor<5xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<5xf32>
    %1 = stablehlo.multiply %0, %arg0 : tensor<5xf32>
    %2 = stablehlo.multiply %arg0, %arg0 : tensor<5xf32>
    %3 = stablehlo.add %1, %2 : tensor<5xf32>
    return %3 : tensor<5xf32>
  }
}
