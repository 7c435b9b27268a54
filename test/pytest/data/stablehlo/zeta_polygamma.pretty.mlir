module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xi32>, %arg3: tensor<8xf32>) -> (tensor<8xf32> {jax.result_info = "result[0]"}, tensor<8xf32> {jax.result_info = "result[1]"}) {
    %0 = chlo.zeta %arg0, %arg1 : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
    %1 = stablehlo.convert %arg2 : (tensor<8xi32>) -> tensor<8xf32>
    %2 = chlo.polygamma %1, %arg3 : tensor<8xf32>, tensor<8xf32> -> tensor<8xf32>
    return %0, %2 : tensor<8xf32>, tensor<8xf32>
  }
}
