"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<3x6xf32>) -> tensor<3x6xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<3x6xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %15 = "stablehlo.maximum"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%15) : (tensor<f32>) -> ()
    }) : (tensor<3x6xf32>, tensor<f32>) -> tensor<3xf32>
    %2 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3xf32>
    %4 = "stablehlo.maximum"(%3, %1) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64: 0>}> : (tensor<3xf32>) -> tensor<3x1xf32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<3x1xf32>) -> tensor<3x6xf32>
    %7 = "stablehlo.subtract"(%arg0, %6) : (tensor<3x6xf32>, tensor<3x6xf32>) -> tensor<3x6xf32>
    %8 = "stablehlo.exponential"(%7) : (tensor<3x6xf32>) -> tensor<3x6xf32>
    %9 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %10 = "stablehlo.reduce"(%8, %9) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %14 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%14) : (tensor<f32>) -> ()
    }) : (tensor<3x6xf32>, tensor<f32>) -> tensor<3xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0>}> : (tensor<3xf32>) -> tensor<3x1xf32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<3x1xf32>) -> tensor<3x6xf32>
    %13 = "stablehlo.divide"(%8, %12) : (tensor<3x6xf32>, tensor<3x6xf32>) -> tensor<3x6xf32>
    "func.return"(%13) : (tensor<3x6xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
