"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4xui32>) -> (tensor<4xui32>, tensor<5x3xui32>, tensor<4xui32>, tensor<3xui8>), res_attrs = [{jax.result_info = "result[0][0]"}, {jax.result_info = "result[0][1]"}, {jax.result_info = "result[1][0]"}, {jax.result_info = "result[1][1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4xui32>):
    %0 = "stablehlo.reshape"(%arg0) : (tensor<4xui32>) -> tensor<2x2xui32>
    %1 = "stablehlo.bitcast_convert"(%0) : (tensor<2x2xui32>) -> tensor<2xui64>
    %2:2 = "stablehlo.rng_bit_generator"(%1) <{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5x3xui32>)
    %3 = "stablehlo.bitcast_convert"(%2#0) : (tensor<2xui64>) -> tensor<2x2xui32>
    %4 = "stablehlo.reshape"(%3) : (tensor<2x2xui32>) -> tensor<4xui32>
    %5 = "stablehlo.reshape"(%arg0) : (tensor<4xui32>) -> tensor<2x2xui32>
    %6 = "stablehlo.bitcast_convert"(%5) : (tensor<2x2xui32>) -> tensor<2xui64>
    %7:2 = "stablehlo.rng_bit_generator"(%6) <{rng_algorithm = #stablehlo<rng_algorithm THREE_FRY>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3xui8>)
    %8 = "stablehlo.bitcast_convert"(%7#0) : (tensor<2xui64>) -> tensor<2x2xui32>
    %9 = "stablehlo.reshape"(%8) : (tensor<2x2xui32>) -> tensor<4xui32>
    "func.return"(%4, %2#1, %9, %7#1) : (tensor<4xui32>, tensor<5x3xui32>, tensor<4xui32>, tensor<3xui8>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
