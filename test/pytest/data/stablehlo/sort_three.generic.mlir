"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2x9xi32>, tensor<2x9xf32>, tensor<2x9xi32>) -> (tensor<2x9xi32>, tensor<2x9xf32>, tensor<2x9xi32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2x9xi32>, %arg1: tensor<2x9xf32>, %arg2: tensor<2x9xi32>):
    %0:3 = "stablehlo.sort"(%arg0, %arg1, %arg2) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>, %arg5: tensor<f32>, %arg6: tensor<f32>, %arg7: tensor<i32>, %arg8: tensor<i32>):
      %1 = "stablehlo.compare"(%arg3, %arg4) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %2 = "stablehlo.compare"(%arg3, %arg4) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %3 = "stablehlo.compare"(%arg5, %arg6) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = "stablehlo.and"(%2, %3) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %5 = "stablehlo.or"(%1, %4) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%5) : (tensor<i1>) -> ()
    }) : (tensor<2x9xi32>, tensor<2x9xf32>, tensor<2x9xi32>) -> (tensor<2x9xi32>, tensor<2x9xf32>, tensor<2x9xi32>)
    "func.return"(%0#0, %0#1, %0#2) : (tensor<2x9xi32>, tensor<2x9xf32>, tensor<2x9xi32>) -> ()
  }) : () -> ()
}) : () -> ()
