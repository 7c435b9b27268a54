module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<6xf32>) -> (tensor<6xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<3.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<6xf32>
    %1 = stablehlo.multiply %arg0, %0 : tensor<6xf32>
    %2 = stablehlo.convert %1 : (tensor<6xf32>) -> tensor<6xi32>
    %3 = stablehlo.convert %2 : (tensor<6xi32>) -> tensor<6xf32>
    %4 = stablehlo.add %3, %arg0 : tensor<6xf32>
    return %4 : tensor<6xf32>
  }
}
