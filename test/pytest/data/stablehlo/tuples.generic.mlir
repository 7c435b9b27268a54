"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> (tensor<2xf32>, tensor<i32>), sym_name = "main"}> ({
  ^bb0(%arg1: tensor<2xf32>, %arg2: tensor<2xf32>, %arg3: tensor<i32>):
    %7 = "stablehlo.tuple"(%arg1, %arg2, %arg3) : (tensor<2xf32>, tensor<2xf32>, tensor<i32>) -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>
    %8 = "stablehlo.tuple"(%7, %arg3) : (tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>) -> tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>
    %9 = "func.call"(%8) <{callee = @combine}> : (tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>) -> tuple<tensor<2xf32>, tensor<i32>>
    %10 = "stablehlo.get_tuple_element"(%9) <{index = 0 : i32}> : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
    %11 = "stablehlo.get_tuple_element"(%9) <{index = 1 : i32}> : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
    "func.return"(%10, %11) : (tensor<2xf32>, tensor<i32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>) -> tuple<tensor<2xf32>, tensor<i32>>, sym_name = "combine", sym_visibility = "private"}> ({
  ^bb0(%arg0: tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>):
    %0 = "stablehlo.get_tuple_element"(%arg0) <{index = 0 : i32}> : (tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>) -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>
    %1 = "stablehlo.get_tuple_element"(%arg0) <{index = 1 : i32}> : (tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>) -> tensor<i32>
    %2 = "stablehlo.get_tuple_element"(%0) <{index = 0 : i32}> : (tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
    %3 = "stablehlo.get_tuple_element"(%0) <{index = 1 : i32}> : (tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
    %4 = "stablehlo.subtract"(%2, %3) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %5 = "stablehlo.multiply"(%1, %1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %6 = "stablehlo.tuple"(%4, %5) : (tensor<2xf32>, tensor<i32>) -> tuple<tensor<2xf32>, tensor<i32>>
    "func.return"(%6) : (tuple<tensor<2xf32>, tensor<i32>>) -> ()
  }) : () -> ()
}) : () -> ()
