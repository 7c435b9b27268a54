"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<13xf32>) -> (tensor<13xf32>, tensor<13xf32>, tensor<13xf32>, tensor<13xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<13xf32>):
    %0 = "chlo.asin"(%arg0) : (tensor<13xf32>) -> tensor<13xf32>
    %1 = "chlo.acos"(%arg0) : (tensor<13xf32>) -> tensor<13xf32>
    %2 = "stablehlo.constant"() <{value = dense<5.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<13xf32>
    %4 = "stablehlo.multiply"(%arg0, %3) : (tensor<13xf32>, tensor<13xf32>) -> tensor<13xf32>
    %5 = "chlo.atan"(%4) : (tensor<13xf32>) -> tensor<13xf32>
    %6 = "chlo.atanh"(%arg0) : (tensor<13xf32>) -> tensor<13xf32>
    "func.return"(%0, %1, %5, %6) : (tensor<13xf32>, tensor<13xf32>, tensor<13xf32>, tensor<13xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
