"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<6xf32>, %arg1: tensor<6xf32>):
    %0 = "stablehlo.maximum"(%arg0, %arg1) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %1 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6xf32>
    %3 = "stablehlo.minimum"(%arg0, %2) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %4 = "stablehlo.subtract"(%0, %3) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    "func.return"(%4) : (tensor<6xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
