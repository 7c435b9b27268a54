module @jit__lambda attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<2x1xf32>) -> (tensor<3x9xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.concatenate %arg0, %arg1, %arg0, dim = 1 : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x7xf32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = call @_pad(%0, %c) : (tensor<2x7xf32>, tensor<i32>) -> tensor<3x9xf32>
    return %1 : tensor<3x9xf32>
  }
  func.func private @_pad(%arg0: tensor<2x7xf32>, %arg1: tensor<i32>) -> tensor<3x9xf32> {
    %0 = stablehlo.convert %arg1 : (tensor<i32>) -> tensor<f32>
    %1 = stablehlo.pad %arg0, %0, low = [1, 0], high = [0, 2], interior = [0, 0] : (tensor<2x7xf32>, tensor<f32>) -> tensor<3x9xf32>
    return %1 : tensor<3x9xf32>
  }
}
