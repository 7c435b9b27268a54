"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<12xf32>) -> tensor<2x6xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<12xf32>):
    %0 = "stablehlo.reshape"(%arg0) : (tensor<12xf32>) -> tensor<3x4xf32>
    %1 = "stablehlo.transpose"(%0) <{permutation = array<i64: 1, 0>}> : (tensor<3x4xf32>) -> tensor<4x3xf32>
    %2 = "stablehlo.reshape"(%1) : (tensor<4x3xf32>) -> tensor<2x6xf32>
    "func.return"(%2) : (tensor<2x6xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
