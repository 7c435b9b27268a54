module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x3xf32>) -> (tensor<f32> {jax.result_info = "result[0]"}, tensor<3xf32> {jax.result_info = "result[1]"}, tensor<4xf32> {jax.result_info = "result[2]"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0, 1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<f32>
    %cst_0 = stablehlo.constant dense<1.200000e+01> : tensor<f32>
    %1 = stablehlo.divide %0, %cst_0 : tensor<f32>
    %cst_1 = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %2 = stablehlo.reduce(%arg0 init: %cst_1) applies stablehlo.maximum across dimensions = [0] : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
    %cst_2 = stablehlo.constant dense<0x7F800000> : tensor<f32>
    %3 = stablehlo.reduce(%arg0 init: %cst_2) applies stablehlo.minimum across dimensions = [1] : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
    return %1, %2, %3 : tensor<f32>, tensor<3xf32>, tensor<4xf32>
  }
}
