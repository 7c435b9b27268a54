"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<6xf32>) -> tensor<6xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<6xf32>):
    %0 = "stablehlo.abs"(%arg0) : (tensor<6xf32>) -> tensor<6xf32>
    %1 = "stablehlo.log_plus_one"(%0) : (tensor<6xf32>) -> tensor<6xf32>
    %2 = "stablehlo.exponential_minus_one"(%arg0) : (tensor<6xf32>) -> tensor<6xf32>
    %3 = "stablehlo.add"(%1, %2) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    "func.return"(%3) : (tensor<6xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
