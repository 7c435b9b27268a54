"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<6xf32>) -> tensor<6xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<6xf32>):
    %0 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6xf32>
    %2 = "stablehlo.multiply"(%arg0, %1) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %3 = "stablehlo.convert"(%2) : (tensor<6xf32>) -> tensor<6xi32>
    %4 = "stablehlo.convert"(%3) : (tensor<6xi32>) -> tensor<6xf32>
    %5 = "stablehlo.add"(%4, %arg0) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    "func.return"(%5) : (tensor<6xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
