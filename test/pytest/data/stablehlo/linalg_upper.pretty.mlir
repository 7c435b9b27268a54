module {
  func.func @main(%arg0: tensor<3x3xf32>, %arg1: tensor<3x2xf32>) -> (tensor<3x3xf32>, tensor<3x2xf32>) {
    %0 = stablehlo.cholesky %arg0 : tensor<3x3xf32>
    %1 = "stablehlo.triangular_solve"(%0, %arg1) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<3x3xf32>
    %2 = stablehlo.iota dim = 0 : tensor<3x3xi32>
    %3 = stablehlo.iota dim = 1 : tensor<3x3xi32>
    %4 = stablehlo.compare LE, %2, %3 : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
    %5 = stablehlo.select %4, %0, %cst : tensor<3x3xi1>, tensor<3x3xf32>
    return %5, %1 : tensor<3x3xf32>, tensor<3x2xf32>
  }
}
