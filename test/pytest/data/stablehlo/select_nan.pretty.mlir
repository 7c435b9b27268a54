module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5xf32>) -> (tensor<5xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.is_finite %arg0 : (tensor<5xf32>) -> tensor<5xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %1 = call @_where(%0, %arg0, %cst) : (tensor<5xi1>, tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
    return %1 : tensor<5xf32>
  }
  func.func private @_where(%arg0: tensor<5xi1>, %arg1: tensor<5xf32>, %arg2: tensor<f32>) -> tensor<5xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<5xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<5xi1>, tensor<5xf32>
    return %2 : tensor<5xf32>
  }
}
