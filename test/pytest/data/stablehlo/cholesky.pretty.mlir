module @jit__lambda attributes {jax.uses_shape_polymorphism = false, mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<2x5x5xf32>) -> (tensor<2x5x5xf32> {jax.result_info = "result"}) {
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %cst_0 = stablehlo.constant dense<2.000000e+00> : tensor<f32>
    %0 = stablehlo.transpose %arg0, dims = [0, 2, 1] : (tensor<2x5x5xf32>) -> tensor<2x5x5xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<2x5x5xf32>
    %2 = stablehlo.broadcast_in_dim %cst_0, dims = [] : (tensor<f32>) -> tensor<2x5x5xf32>
    %3 = stablehlo.divide %1, %2 : tensor<2x5x5xf32>
    %4 = stablehlo.cholesky %3, lower = true : tensor<2x5x5xf32>
    %5 = stablehlo.iota dim = 0 : tensor<5x5xi32>
    %6 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x5xi32>
    %7 = stablehlo.add %5, %6 : tensor<5x5xi32>
    %8 = stablehlo.iota dim = 1 : tensor<5x5xi32>
    %9 = stablehlo.compare GE, %7, %8, SIGNED : (tensor<5x5xi32>, tensor<5x5xi32>) -> tensor<5x5xi1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [1, 2] : (tensor<5x5xi1>) -> tensor<2x5x5xi1>
    %11 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<2x5x5xf32>
    %12 = stablehlo.select %10, %4, %11 : tensor<2x5x5xi1>, tensor<2x5x5xf32>
    return %12 : tensor<2x5x5xf32>
  }
}
