"builtin.module"() ({
  "func.func"() <{function_type = (tensor<18x20xf32>, tensor<2x3xf32>, tensor<2x2xf32>) -> (tensor<18x20xf32>, tensor<18x20xf32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<18x20xf32>, %arg1: tensor<2x3xf32>, %arg2: tensor<2x2xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.select_and_scatter"(%arg0, %arg1, %0) <{padding = dense<[[1, 0], [0, 1]]> : tensor<2x2xi64>, window_dimensions = array<i64: 17, 17>, window_strides = array<i64: 2, 2>}> ({
    ^bb0(%arg9: tensor<f32>, %arg10: tensor<f32>):
      %8 = "stablehlo.compare"(%arg9, %arg10) <{comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%8) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg7: tensor<f32>, %arg8: tensor<f32>):
      %7 = "stablehlo.add"(%arg7, %arg8) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%7) : (tensor<f32>) -> ()
    }) : (tensor<18x20xf32>, tensor<2x3xf32>, tensor<f32>) -> tensor<18x20xf32>
    %2 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.select_and_scatter"(%arg0, %arg2, %2) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 17, 17>, window_strides = array<i64: 1, 3>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %6 = "stablehlo.compare"(%arg5, %arg6) <{comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%6) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %4 = "stablehlo.maximum"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %5 = "stablehlo.maximum"(%4, %arg3) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%5) : (tensor<f32>) -> ()
    }) : (tensor<18x20xf32>, tensor<2x2xf32>, tensor<f32>) -> tensor<18x20xf32>
    "func.return"(%1, %3) : (tensor<18x20xf32>, tensor<18x20xf32>) -> ()
  }) : () -> ()
}) : () -> ()
