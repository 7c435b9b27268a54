"builtin.module"() ({
  "func.func"() <{function_type = (tensor<3xui64>, tensor<2xui64>) -> (tensor<3xui64>, tensor<4x3xui32>, tensor<2xui64>, tensor<5xi32>, tensor<2xui64>, tensor<2x2xf32>, tensor<3xui64>, tensor<3xi64>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<3xui64>, %arg1: tensor<2xui64>):
    %0:2 = "stablehlo.rng_bit_generator"(%arg0) <{rng_algorithm = #stablehlo<rng_algorithm PHILOX>}> : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4x3xui32>)
    %1:2 = "stablehlo.rng_bit_generator"(%arg1) <{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xi32>)
    %2:2 = "stablehlo.rng_bit_generator"(%arg1) <{rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xf32>)
    %3:2 = "stablehlo.rng_bit_generator"(%arg0) <{rng_algorithm = #stablehlo<rng_algorithm PHILOX>}> : (tensor<3xui64>) -> (tensor<3xui64>, tensor<3xi64>)
    "func.return"(%0#0, %0#1, %1#0, %1#1, %2#0, %2#1, %3#0, %3#1) : (tensor<3xui64>, tensor<4x3xui32>, tensor<2xui64>, tensor<5xi32>, tensor<2xui64>, tensor<2x2xf32>, tensor<3xui64>, tensor<3xi64>) -> ()
  }) : () -> ()
}) : () -> ()
