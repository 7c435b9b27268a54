"builtin.module"() ({
  "func.func"() <{function_type = (tensor<20x19xf32>) -> tensor<2x3xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<20x19xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce_window"(%arg0, %0) <{window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 17, 17>, window_strides = array<i64: 3, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %2 = "stablehlo.abs"(%arg2) : (tensor<f32>) -> tensor<f32>
      %3 = "stablehlo.maximum"(%arg1, %2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%3) : (tensor<f32>) -> ()
    }) : (tensor<20x19xf32>, tensor<f32>) -> tensor<2x3xf32>
    "func.return"(%1) : (tensor<2x3xf32>) -> ()
  }) : () -> ()
}) : () -> ()
