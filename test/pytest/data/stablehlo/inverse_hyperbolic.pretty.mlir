module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<14xf32>) -> (tensor<14xf32> {jax.result_info = "result[0]"}, tensor<14xf32> {jax.result_info = "result[1]"}) {
    %0 = chlo.asinh %arg0 : tensor<14xf32> -> tensor<14xf32>
    %1 = stablehlo.abs %arg0 : tensor<14xf32>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %2 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<14xf32>
    %3 = stablehlo.add %1, %2 : tensor<14xf32>
    %4 = call @arccosh(%3) : (tensor<14xf32>) -> tensor<14xf32>
    return %0, %4 : tensor<14xf32>, tensor<14xf32>
  }
  func.func private @arccosh(%arg0: tensor<14xf32>) -> tensor<14xf32> {
    %0 = chlo.acosh %arg0 : tensor<14xf32> -> tensor<14xf32>
    return %0 : tensor<14xf32>
  }
}
