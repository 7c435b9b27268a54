"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4x3xf32>) -> (tensor<f32>, tensor<3xf32>, tensor<4xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x3xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %10 = "stablehlo.add"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%10) : (tensor<f32>) -> ()
    }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<f32>
    %2 = "stablehlo.constant"() <{value = dense<1.200000e+01> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.divide"(%1, %2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %4 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.reduce"(%arg0, %4) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %9 = "stablehlo.maximum"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%9) : (tensor<f32>) -> ()
    }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<3xf32>
    %6 = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.reduce"(%arg0, %6) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %8 = "stablehlo.minimum"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%8) : (tensor<f32>) -> ()
    }) : (tensor<4x3xf32>, tensor<f32>) -> tensor<4xf32>
    "func.return"(%3, %5, %7) : (tensor<f32>, tensor<3xf32>, tensor<4xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
