"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x5xf32>, tensor<4x5xf32>) -> (tensor<3x3xf32>, tensor<3x3xf32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4x5xf32>, %arg1: tensor<4x5xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2:2 = "stablehlo.reduce_window"(%arg0, %arg1, %0, %1) <{base_dilations = array<i64: 2, 1>, padding = dense<[[0, -1], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>, %arg4: tensor<f32>, %arg5: tensor<f32>):
      %3 = "stablehlo.maximum"(%arg2, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %4 = "stablehlo.add"(%arg3, %arg5) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%3, %4) : (tensor<f32>, tensor<f32>) -> ()
    }) : (tensor<4x5xf32>, tensor<4x5xf32>, tensor<f32>, tensor<f32>) -> (tensor<3x3xf32>, tensor<3x3xf32>)
    "func.return"(%2#0, %2#1) : (tensor<3x3xf32>, tensor<3x3xf32>) -> ()
  }) : () -> ()
}) : () -> ()
