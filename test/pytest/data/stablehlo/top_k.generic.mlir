"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x6xf32>):
    %0:2 = "chlo.top_k"(%arg0) <{k = 3 : i64}> : (tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xi32>)
    "func.return"(%0#0, %0#1) : (tensor<2x3xf32>, tensor<2x3xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
