"builtin.module"() ({
  "func.func"() <{function_type = (tensor<6xf64>) -> (tensor<6xf64>, tensor<6xf64>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<6xf64>):
    %0 = "stablehlo.reduce_precision"(%arg0) <{exponent_bits = 8 : i32, mantissa_bits = 23 : i32}> : (tensor<6xf64>) -> tensor<6xf64>
    %1 = "stablehlo.reduce_precision"(%arg0) <{exponent_bits = 11 : i32, mantissa_bits = 20 : i32}> : (tensor<6xf64>) -> tensor<6xf64>
    "func.return"(%0, %1) : (tensor<6xf64>, tensor<6xf64>) -> ()
  }) : () -> ()
}) : () -> ()
