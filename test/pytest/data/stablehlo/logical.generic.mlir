"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<7xf32>, tensor<7xf32>) -> tensor<7xi1>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<7xf32>, %arg1: tensor<7xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<7xf32>
    %2 = "stablehlo.compare"(%arg0, %1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xi1>
    %3 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<7xf32>
    %5 = "stablehlo.compare"(%arg1, %4) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xi1>
    %6 = "stablehlo.and"(%2, %5) : (tensor<7xi1>, tensor<7xi1>) -> tensor<7xi1>
    %7 = "stablehlo.compare"(%arg0, %arg1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<7xf32>, tensor<7xf32>) -> tensor<7xi1>
    %8 = "stablehlo.or"(%6, %7) : (tensor<7xi1>, tensor<7xi1>) -> tensor<7xi1>
    "func.return"(%8) : (tensor<7xi1>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
