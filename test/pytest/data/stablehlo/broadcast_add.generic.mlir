"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<4x1xf32>, tensor<1x3xf32>) -> tensor<4x3xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x1xf32>, %arg1: tensor<1x3xf32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x1xf32>) -> tensor<4x3xf32>
    %1 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x3xf32>) -> tensor<4x3xf32>
    %2 = "stablehlo.add"(%0, %1) : (tensor<4x3xf32>, tensor<4x3xf32>) -> tensor<4x3xf32>
    "func.return"(%2) : (tensor<4x3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
