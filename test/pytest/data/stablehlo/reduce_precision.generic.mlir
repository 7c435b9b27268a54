"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<22xf32>) -> (tensor<22xf32>, tensor<22xf32>, tensor<22xf32>, tensor<22xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<22xf32>):
    %0 = "stablehlo.reduce_precision"(%arg0) <{exponent_bits = 5 : i32, mantissa_bits = 10 : i32}> : (tensor<22xf32>) -> tensor<22xf32>
    %1 = "stablehlo.reduce_precision"(%arg0) <{exponent_bits = 8 : i32, mantissa_bits = 7 : i32}> : (tensor<22xf32>) -> tensor<22xf32>
    %2 = "stablehlo.reduce_precision"(%arg0) <{exponent_bits = 2 : i32, mantissa_bits = 1 : i32}> : (tensor<22xf32>) -> tensor<22xf32>
    %3 = "stablehlo.reduce_precision"(%arg0) <{exponent_bits = 4 : i32, mantissa_bits = 0 : i32}> : (tensor<22xf32>) -> tensor<22xf32>
    "func.return"(%0, %1, %2, %3) : (tensor<22xf32>, tensor<22xf32>, tensor<22xf32>, tensor<22xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
