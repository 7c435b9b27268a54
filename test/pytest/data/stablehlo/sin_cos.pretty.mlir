module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<7xf32>) -> (tensor<7xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.sine %arg0 : tensor<7xf32>
    %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<7xf32>
    %2 = stablehlo.multiply %1, %arg0 : tensor<7xf32>
    %3 = stablehlo.cosine %2 : tensor<7xf32>
    %4 = stablehlo.subtract %0, %3 : tensor<7xf32>
    return %4 : tensor<7xf32>
  }
}
