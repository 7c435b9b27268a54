"builtin.module"() ({
  "func.func"() <{function_type = (tensor<3x3xf32>, tensor<3x2xf32>) -> (tensor<3x3xf32>, tensor<3x2xf32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<3x3xf32>, %arg1: tensor<3x2xf32>):
    %0 = "stablehlo.cholesky"(%arg0) : (tensor<3x3xf32>) -> tensor<3x3xf32>
    %1 = "stablehlo.triangular_solve"(%0, %arg1) <{left_side = true, lower = false, transpose_a = #stablehlo<transpose ADJOINT>, unit_diagonal = false}> : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
    %2 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<3x3xf32>}> : () -> tensor<3x3xf32>
    %3 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<3x3xi32>
    %4 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<3x3xi32>
    %5 = "stablehlo.compare"(%3, %4) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<3x3xi32>, tensor<3x3xi32>) -> tensor<3x3xi1>
    %6 = "stablehlo.select"(%5, %0, %2) : (tensor<3x3xi1>, tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
    "func.return"(%6, %1) : (tensor<3x3xf32>, tensor<3x2xf32>) -> ()
  }) : () -> ()
}) : () -> ()
