module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<300x2xi32>) -> (tensor<2xi32> {jax.result_info = "result"}) {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.reduce(%arg0 init: %c) across dimensions = [0] : (tensor<300x2xi32>, tensor<i32>) -> tensor<2xi32>
     reducer(%arg1: tensor<i32>, %arg2: tensor<i32>)  {
      %1 = stablehlo.xor %arg1, %arg2 : tensor<i32>
      %2 = stablehlo.and %arg1, %arg2 : tensor<i32>
      %c_0 = stablehlo.constant dense<2> : tensor<i32>
      %3 = stablehlo.multiply %c_0, %2 : tensor<i32>
      %4 = stablehlo.add %1, %3 : tensor<i32>
      stablehlo.return %4 : tensor<i32>
    }
    return %0 : tensor<2xi32>
  }
}
