module @jit_mlp attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<4x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8x2xf32>, %arg3: tensor<2xf32>, %arg4: tensor<5x4xf32>) -> (tensor<5x2xf32> {jax.result_info = "result"}) {
    %0 = stablehlo.dot_general %arg4, %arg0, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x4xf32>, tensor<4x8xf32>) -> tensor<5x8xf32>
    %1 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<8xf32>) -> tensor<1x8xf32>
    %2 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<1x8xf32>) -> tensor<5x8xf32>
    %3 = stablehlo.add %0, %2 : tensor<5x8xf32>
    %4 = stablehlo.tanh %3 : tensor<5x8xf32>
    %5 = stablehlo.dot_general %4, %arg2, contracting_dims = [1] x [0], precision = [DEFAULT, DEFAULT] : (tensor<5x8xf32>, tensor<8x2xf32>) -> tensor<5x2xf32>
    %6 = stablehlo.broadcast_in_dim %arg3, dims = [1] : (tensor<2xf32>) -> tensor<1x2xf32>
    %7 = stablehlo.broadcast_in_dim %6, dims = [0, 1] : (tensor<1x2xf32>) -> tensor<5x2xf32>
    %8 = stablehlo.add %5, %7 : tensor<5x2xf32>
    return %8 : tensor<5x2xf32>
  }
}
