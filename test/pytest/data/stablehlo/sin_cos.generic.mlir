"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<7xf32>) -> tensor<7xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<7xf32>):
    %0 = "stablehlo.sine"(%arg0) : (tensor<7xf32>) -> tensor<7xf32>
    %1 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<7xf32>
    %3 = "stablehlo.multiply"(%2, %arg0) : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xf32>
    %4 = "stablehlo.cosine"(%3) : (tensor<7xf32>) -> tensor<7xf32>
    %5 = "stablehlo.subtract"(%0, %4) : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xf32>
    "func.return"(%5) : (tensor<7xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
