module {
  func.func @main(%arg0: tensor<12xf64>, %arg1: tensor<12xf64>, %arg2: tensor<4x4xf64>, %arg3: tensor<4x2xf64>) -> (tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<4x4xf64>, tensor<4x2xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>) {
    %0 = chlo.lgamma %arg0 : tensor<12xf64> -> tensor<12xf64>
    %1 = chlo.digamma %arg0 : tensor<12xf64> -> tensor<12xf64>
    %2 = chlo.asin %arg1 : tensor<12xf64> -> tensor<12xf64>
    %3 = chlo.acos %arg1 : tensor<12xf64> -> tensor<12xf64>
    %4 = chlo.atanh %arg1 : tensor<12xf64> -> tensor<12xf64>
    %5 = chlo.asinh %arg0 : tensor<12xf64> -> tensor<12xf64>
    %6 = stablehlo.abs %arg0 : tensor<12xf64>
    %cst = stablehlo.constant dense<1.000000e+00> : tensor<12xf64>
    %7 = stablehlo.add %6, %cst : tensor<12xf64>
    %8 = chlo.acosh %7 : tensor<12xf64> -> tensor<12xf64>
    %9 = chlo.bessel_i1e %arg0 : tensor<12xf64> -> tensor<12xf64>
    %cst_0 = stablehlo.constant dense<2.500000e+00> : tensor<12xf64>
    %10 = chlo.zeta %cst_0, %7 : tensor<12xf64>, tensor<12xf64> -> tensor<12xf64>
    %11 = chlo.erf %arg0 : tensor<12xf64> -> tensor<12xf64>
    %12 = chlo.erfc %arg0 : tensor<12xf64> -> tensor<12xf64>
    %13 = chlo.erf_inv %arg1 : tensor<12xf64> -> tensor<12xf64>
    %14 = stablehlo.cholesky %arg2, lower = true : tensor<4x4xf64>
    %15 = "stablehlo.triangular_solve"(%14, %arg3) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<4x4xf64>, tensor<4x2xf64>) -> tensor<4x2xf64>
    return %0, %1, %2, %3, %4, %5, %8, %9, %10, %14, %15, %11, %12, %13 : tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<4x4xf64>, tensor<4x2xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>
  }
}
