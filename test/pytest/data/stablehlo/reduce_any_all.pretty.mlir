module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x5xf32>) -> (tensor<4xi1> {jax.result_info = "result[0]"}, tensor<4xi1> {jax.result_info = "result[1]"}) {
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<f32>
    %0 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %1 = stablehlo.compare GT, %arg0, %0, FLOAT : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xi1>
    %c = stablehlo.constant dense<false> : tensor<i1>
    %2 = stablehlo.reduce(%1 init: %c) applies stablehlo.or across dimensions = [1] : (tensor<4x5xi1>, tensor<i1>) -> tensor<4xi1>
    %cst_0 = stablehlo.constant dense<-1.500000e+00> : tensor<f32>
    %3 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<4x5xf32>
    %4 = stablehlo.compare GT, %arg0, %3, FLOAT : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xi1>
    %c_1 = stablehlo.constant dense<true> : tensor<i1>
    %5 = stablehlo.reduce(%4 init: %c_1) applies stablehlo.and across dimensions = [1] : (tensor<4x5xi1>, tensor<i1>) -> tensor<4xi1>
    return %2, %5 : tensor<4xi1>, tensor<4xi1>
  }
}
