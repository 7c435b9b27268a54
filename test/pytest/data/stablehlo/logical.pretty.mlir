module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<7xf32>, %arg1: tensor<7xf32>) -> (tensor<7xi1> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<7xf32>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xi1>
    %cst_0 = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<7xf32>
    %3 = stablehlo.compare LT, %arg1, %2, FLOAT : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xi1>
    %4 = stablehlo.and %1, %3 : tensor<7xi1>
    %5 = stablehlo.compare GT, %arg0, %arg1, FLOAT : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xi1>
    %6 = stablehlo.or %4, %5 : tensor<7xi1>
    return %6 : tensor<7xi1>
  }
}
