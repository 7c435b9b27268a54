"builtin.module"() ({
  "func.func"() <{function_type = (tensor<5xf32>, tensor<5xf32>, tensor<f32>) -> (tensor<5xi1>, tensor<5xi1>, tensor<5xi1>, tensor<5xf32>, tensor<5xf32>, tensor<5xi1>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<5xf32>, %arg1: tensor<5xf32>, %arg2: tensor<f32>):
    %0 = "chlo.is_inf"(%arg0) : (tensor<5xf32>) -> tensor<5xi1>
    %1 = "chlo.is_pos_inf"(%arg0) : (tensor<5xf32>) -> tensor<5xi1>
    %2 = "chlo.is_neg_inf"(%arg0) : (tensor<5xf32>) -> tensor<5xi1>
    %3 = "chlo.broadcast_add"(%arg1, %arg2) : (tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
    %4 = "chlo.constant_like"(%arg1) <{value = 3.000000e+00 : f32}> : (tensor<5xf32>) -> tensor<5xf32>
    %5 = "chlo.broadcast_multiply"(%3, %4) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
    %6 = "chlo.broadcast_compare"(%arg1, %arg2) <{comparison_direction = #chlo<comparison_direction GT>}> : (tensor<5xf32>, tensor<f32>) -> tensor<5xi1>
    "func.return"(%0, %1, %2, %3, %5, %6) : (tensor<5xi1>, tensor<5xi1>, tensor<5xi1>, tensor<5xf32>, tensor<5xf32>, tensor<5xi1>) -> ()
  }) : () -> ()
}) : () -> ()
