"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8x3xf32>) -> tensor<3x3xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<8x3xf32>):
    %0 = "stablehlo.slice"(%arg0) <{limit_indices = array<i64: 7, 3>, start_indices = array<i64: 1, 0>, strides = array<i64: 2, 1>}> : (tensor<8x3xf32>) -> tensor<3x3xf32>
    %1 = "stablehlo.reverse"(%0) <{dimensions = array<i64: 1>}> : (tensor<3x3xf32>) -> tensor<3x3xf32>
    "func.return"(%1) : (tensor<3x3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
