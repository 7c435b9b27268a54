"builtin.module"() ({
  "func.func"() <{function_type = (tensor<3x2xf32>, tensor<3xf64>) -> (tensor<3xf64>, tensor<3x2xui32>, tensor<3x4xi16>, tensor<3x2xf32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<3x2xf32>, %arg1: tensor<3xf64>):
    %0 = "stablehlo.bitcast_convert"(%arg0) : (tensor<3x2xf32>) -> tensor<3xf64>
    %1 = "stablehlo.bitcast_convert"(%arg1) : (tensor<3xf64>) -> tensor<3x2xui32>
    %2 = "stablehlo.bitcast_convert"(%arg1) : (tensor<3xf64>) -> tensor<3x4xi16>
    %3 = "stablehlo.bitcast_convert"(%0) : (tensor<3xf64>) -> tensor<3x2xf32>
    "func.return"(%0, %1, %2, %3) : (tensor<3xf64>, tensor<3x2xui32>, tensor<3x4xi16>, tensor<3x2xf32>) -> ()
  }) : () -> ()
}) : () -> ()
