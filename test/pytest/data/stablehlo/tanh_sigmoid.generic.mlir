"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<2x5xf32>) -> tensor<2x5xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<2x5xf32>):
    %0 = "stablehlo.tanh"(%arg0) : (tensor<2x5xf32>) -> tensor<2x5xf32>
    %1 = "stablehlo.negate"(%arg0) : (tensor<2x5xf32>) -> tensor<2x5xf32>
    %2 = "stablehlo.exponential"(%1) : (tensor<2x5xf32>) -> tensor<2x5xf32>
    %3 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x5xf32>
    %5 = "stablehlo.add"(%4, %2) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
    %6 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2x5xf32>
    %8 = "stablehlo.divide"(%7, %5) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
    %9 = "stablehlo.multiply"(%0, %8) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
    "func.return"(%9) : (tensor<2x5xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
