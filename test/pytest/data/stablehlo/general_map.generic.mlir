"builtin.module"() ({
  "func.func"() <{function_type = (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<3x4xf32>, %arg1: tensor<3x4xf32>):
    %0 = "stablehlo.map"(%arg0, %arg1) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %1 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
      %2 = "stablehlo.compare"(%arg2, %arg3) <{comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %3 = "stablehlo.multiply"(%arg2, %1) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %4 = "stablehlo.exponential"(%arg3) : (tensor<f32>) -> tensor<f32>
      %5 = "stablehlo.select"(%2, %3, %4) : (tensor<i1>, tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
    "func.return"(%0) : (tensor<3x4xf32>) -> ()
  }) : () -> ()
}) : () -> ()
