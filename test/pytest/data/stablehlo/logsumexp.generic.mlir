"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<3x5xf32>) -> tensor<3xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<3x5xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.reduce"(%arg0, %0) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %19 = "stablehlo.maximum"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%19) : (tensor<f32>) -> ()
    }) : (tensor<3x5xf32>, tensor<f32>) -> tensor<3xf32>
    %2 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3xf32>
    %4 = "stablehlo.maximum"(%3, %1) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %5 = "stablehlo.is_finite"(%4) : (tensor<3xf32>) -> tensor<3xi1>
    %6 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3xf32>
    %8 = "stablehlo.select"(%5, %4, %7) : (tensor<3xi1>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64: 0>}> : (tensor<3xf32>) -> tensor<3x1xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<3x1xf32>) -> tensor<3x5xf32>
    %11 = "stablehlo.subtract"(%arg0, %10) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %12 = "stablehlo.exponential"(%11) : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %13 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %14 = "stablehlo.reduce"(%12, %13) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %18 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%18) : (tensor<f32>) -> ()
    }) : (tensor<3x5xf32>, tensor<f32>) -> tensor<3xf32>
    %15 = "stablehlo.abs"(%14) : (tensor<3xf32>) -> tensor<3xf32>
    %16 = "stablehlo.log"(%15) : (tensor<3xf32>) -> tensor<3xf32>
    %17 = "stablehlo.add"(%16, %8) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    "func.return"(%17) : (tensor<3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
