"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<5xf32>) -> tensor<5xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<5xf32>):
    %0 = "stablehlo.sqrt"(%arg0) : (tensor<5xf32>) -> tensor<5xf32>
    %1 = "stablehlo.rsqrt"(%arg0) : (tensor<5xf32>) -> tensor<5xf32>
    %2 = "stablehlo.add"(%0, %1) : (tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
    "func.return"(%2) : (tensor<5xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
