"builtin.module"() ({
  "func.func"() <{function_type = (tensor<12xf64>, tensor<12xf64>, tensor<4x4xf64>, tensor<4x2xf64>) -> (tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<4x4xf64>, tensor<4x2xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<12xf64>, %arg1: tensor<12xf64>, %arg2: tensor<4x4xf64>, %arg3: tensor<4x2xf64>):
    %0 = "chlo.lgamma"(%arg0) : (tensor<12xf64>) -> tensor<12xf64>
    %1 = "chlo.digamma"(%arg0) : (tensor<12xf64>) -> tensor<12xf64>
    %2 = "chlo.asin"(%arg1) : (tensor<12xf64>) -> tensor<12xf64>
    %3 = "chlo.acos"(%arg1) : (tensor<12xf64>) -> tensor<12xf64>
    %4 = "chlo.atanh"(%arg1) : (tensor<12xf64>) -> tensor<12xf64>
    %5 = "chlo.asinh"(%arg0) : (tensor<12xf64>) -> tensor<12xf64>
    %6 = "stablehlo.abs"(%arg0) : (tensor<12xf64>) -> tensor<12xf64>
    %7 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<12xf64>}> : () -> tensor<12xf64>
    %8 = "stablehlo.add"(%6, %7) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %9 = "chlo.acosh"(%8) : (tensor<12xf64>) -> tensor<12xf64>
    %10 = "chlo.bessel_i1e"(%arg0) : (tensor<12xf64>) -> tensor<12xf64>
    %11 = "stablehlo.constant"() <{value = dense<2.500000e+00> : tensor<12xf64>}> : () -> tensor<12xf64>
    %12 = "chlo.zeta"(%11, %8) : (tensor<12xf64>, tensor<12xf64>) -> tensor<12xf64>
    %13 = "chlo.erf"(%arg0) : (tensor<12xf64>) -> tensor<12xf64>
    %14 = "chlo.erfc"(%arg0) : (tensor<12xf64>) -> tensor<12xf64>
    %15 = "chlo.erf_inv"(%arg1) : (tensor<12xf64>) -> tensor<12xf64>
    %16 = "stablehlo.cholesky"(%arg2) <{lower = true}> : (tensor<4x4xf64>) -> tensor<4x4xf64>
    %17 = "stablehlo.triangular_solve"(%16, %arg3) <{left_side = true, lower = true, transpose_a = #stablehlo<transpose TRANSPOSE>, unit_diagonal = false}> : (tensor<4x4xf64>, tensor<4x2xf64>) -> tensor<4x2xf64>
    "func.return"(%0, %1, %2, %3, %4, %5, %9, %10, %12, %16, %17, %13, %14, %15) : (tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<4x4xf64>, tensor<4x2xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>) -> ()
  }) : () -> ()
}) : () -> ()
