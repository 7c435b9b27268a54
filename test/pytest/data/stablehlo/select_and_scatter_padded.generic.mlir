"builtin.module"() ({
  "func.func"() <{function_type = (tensor<5x6xf32>, tensor<3x3xf32>) -> (tensor<5x6xf32>, tensor<5x6xf32>, tensor<5x6xf32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<5x6xf32>, %arg1: tensor<3x3xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.select_and_scatter"(%arg0, %arg1, %0) <{padding = dense<[[1, 1], [0, 0]]> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 2>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%arg12: tensor<f32>, %arg13: tensor<f32>):
      %12 = "stablehlo.compare"(%arg12, %arg13) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%12) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg10: tensor<f32>, %arg11: tensor<f32>):
      %11 = "stablehlo.add"(%arg10, %arg11) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%11) : (tensor<f32>) -> ()
    }) : (tensor<5x6xf32>, tensor<3x3xf32>, tensor<f32>) -> tensor<5x6xf32>
    %2 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.select_and_scatter"(%arg0, %arg1, %2) <{padding = dense<[[0, 1], [1, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %10 = "stablehlo.compare"(%arg8, %arg9) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%10) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %8 = "stablehlo.maximum"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %9 = "stablehlo.maximum"(%8, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%9) : (tensor<f32>) -> ()
    }) : (tensor<5x6xf32>, tensor<3x3xf32>, tensor<f32>) -> tensor<5x6xf32>
    %4 = "stablehlo.slice"(%arg1) <{limit_indices = array<i64: 2, 3>, start_indices = array<i64: 0, 0>, strides = array<i64: 1, 1>}> : (tensor<3x3xf32>) -> tensor<2x3xf32>
    %5 = "stablehlo.select_and_scatter"(%arg0, %4, %0) <{padding = dense<[[-1, 1], [1, -1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 2, 2>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%arg4: tensor<f32>, %arg5: tensor<f32>):
      %7 = "stablehlo.compare"(%arg4, %arg5) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%7) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg2: tensor<f32>, %arg3: tensor<f32>):
      %6 = "stablehlo.add"(%arg2, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%6) : (tensor<f32>) -> ()
    }) : (tensor<5x6xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<5x6xf32>
    "func.return"(%1, %3, %5) : (tensor<5x6xf32>, tensor<5x6xf32>, tensor<5x6xf32>) -> ()
  }) : () -> ()
}) : () -> ()
