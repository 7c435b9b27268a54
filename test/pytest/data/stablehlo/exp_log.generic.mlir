"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<6xf32>) -> tensor<6xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<6xf32>):
    %0 = "stablehlo.exponential"(%arg0) : (tensor<6xf32>) -> tensor<6xf32>
    %1 = "stablehlo.abs"(%arg0) : (tensor<6xf32>) -> tensor<6xf32>
    %2 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<6xf32>
    %4 = "stablehlo.add"(%1, %3) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    %5 = "stablehlo.log"(%4) : (tensor<6xf32>) -> tensor<6xf32>
    %6 = "stablehlo.add"(%0, %5) : (tensor<6xf32>, tensor<6xf32>) -> tensor<6xf32>
    "func.return"(%6) : (tensor<6xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
