"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}, {}], function_type = (tensor<8xf32>, tensor<8xf32>, tensor<8xi32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8xi32>, %arg3: tensor<8xf32>):
    %0 = "chlo.zeta"(%arg0, %arg1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %1 = "stablehlo.convert"(%arg2) : (tensor<8xi32>) -> tensor<8xf32>
    %2 = "chlo.polygamma"(%1, %arg3) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%0, %2) : (tensor<8xf32>, tensor<8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
