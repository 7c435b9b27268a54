module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>) -> (tensor<8xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.abs %arg0 : tensor<8xf32>
    %1 = stablehlo.subtract %0, %arg0 : tensor<8xf32>
    %2 = stablehlo.sign %arg0 : tensor<8xf32>
    %3 = stablehlo.add %1, %2 : tensor<8xf32>
    return %3 : tensor<8xf32>
  }
}
