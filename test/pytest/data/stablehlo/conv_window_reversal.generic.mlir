"builtin.module"() ({
  "func.func"() <{function_type = (tensor<1x5x4x2xf32>, tensor<3x2x2x3xf32>) -> tensor<1x4x4x3xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<1x5x4x2xf32>, %arg1: tensor<3x2x2x3xf32>):
    %0 = "stablehlo.convolution"(%arg0, %arg1) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, padding = dense<[[0, 1], [0, 1]]> : tensor<2x2xi64>, window_reversal = array<i1: true, false>, window_strides = array<i64: 1, 1>}> : (tensor<1x5x4x2xf32>, tensor<3x2x2x3xf32>) -> tensor<1x4x4x3xf32>
    "func.return"(%0) : (tensor<1x4x4x3xf32>) -> ()
  }) : () -> ()
}) : () -> ()
