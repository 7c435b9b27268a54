"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4x5xf32>) -> (tensor<4xi1>, tensor<4xi1>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x5xf32>):
    %0 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x5xf32>
    %2 = "stablehlo.compare"(%arg0, %1) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xi1>
    %3 = "stablehlo.constant"() <{value = dense<false> : tensor<i1>}> : () -> tensor<i1>
    %4 = "stablehlo.reduce"(%2, %3) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<i1>, %arg4: tensor<i1>):
      %11 = "stablehlo.or"(%arg3, %arg4) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%11) : (tensor<i1>) -> ()
    }) : (tensor<4x5xi1>, tensor<i1>) -> tensor<4xi1>
    %5 = "stablehlo.constant"() <{value = dense<-1.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x5xf32>
    %7 = "stablehlo.compare"(%arg0, %6) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xi1>
    %8 = "stablehlo.constant"() <{value = dense<true> : tensor<i1>}> : () -> tensor<i1>
    %9 = "stablehlo.reduce"(%7, %8) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<i1>, %arg2: tensor<i1>):
      %10 = "stablehlo.and"(%arg1, %arg2) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%10) : (tensor<i1>) -> ()
    }) : (tensor<4x5xi1>, tensor<i1>) -> tensor<4xi1>
    "func.return"(%4, %9) : (tensor<4xi1>, tensor<4xi1>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
