module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<f32>) -> (tensor<i32> {jax.result_info = "result[0]"}, tensor<f32> {jax.result_info = "result[1]"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0:2 = stablehlo.while(%iterArg = %c, %iterArg_0 = %arg0) : tensor<i32>, tensor<f32>
    cond {
      %cst = stablehlo.constant dense<1.000000e+02> : tensor<f32>
      %1 = stablehlo.compare LT, %iterArg_0, %cst, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      stablehlo.return %1 : tensor<i1>
    } do {
      %c_1 = stablehlo.constant dense<1> : tensor<i32>
      %1 = stablehlo.add %iterArg, %c_1 : tensor<i32>
      %cst = stablehlo.constant dense<2.000000e+00> : tensor<f32>
      %2 = stablehlo.multiply %iterArg_0, %cst : tensor<f32>
      stablehlo.return %1, %2 : tensor<i32>, tensor<f32>
    }
    return %0#0, %0#1 : tensor<i32>, tensor<f32>
  }
}
