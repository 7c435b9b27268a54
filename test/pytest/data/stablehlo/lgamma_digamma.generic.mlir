"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<18xf32>) -> (tensor<18xf32>, tensor<18xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<18xf32>):
    %0 = "chlo.lgamma"(%arg0) : (tensor<18xf32>) -> tensor<18xf32>
    %1 = "chlo.digamma"(%arg0) : (tensor<18xf32>) -> tensor<18xf32>
    "func.return"(%0, %1) : (tensor<18xf32>, tensor<18xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
