"builtin.module"() <{sym_name = "jit_attention"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<4x8xf32>, tensor<5x8xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<5x8xf32>, %arg2: tensor<5x3xf32>):
    %0 = "stablehlo.transpose"(%arg1) <{permutation = array<i64: 1, 0>}> : (tensor<5x8xf32>) -> tensor<8x5xf32>
    %1 = "stablehlo.dot_general"(%arg0, %0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x8xf32>, tensor<8x5xf32>) -> tensor<4x5xf32>
    %2 = "stablehlo.constant"() <{value = dense<2.82842708> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x5xf32>
    %4 = "stablehlo.divide"(%1, %3) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    %5 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.reduce"(%4, %5) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<f32>):
      %21 = "stablehlo.maximum"(%arg5, %arg6) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%21) : (tensor<f32>) -> ()
    }) : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
    %7 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4xf32>
    %9 = "stablehlo.maximum"(%8, %6) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x1xf32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x1xf32>) -> tensor<4x5xf32>
    %12 = "stablehlo.subtract"(%4, %11) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    %13 = "stablehlo.exponential"(%12) : (tensor<4x5xf32>) -> tensor<4x5xf32>
    %14 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.reduce"(%13, %14) <{dimensions = array<i64: 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %20 = "stablehlo.add"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%20) : (tensor<f32>) -> ()
    }) : (tensor<4x5xf32>, tensor<f32>) -> tensor<4xf32>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64: 0>}> : (tensor<4xf32>) -> tensor<4x1xf32>
    %17 = "stablehlo.broadcast_in_dim"(%16) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<4x1xf32>) -> tensor<4x5xf32>
    %18 = "stablehlo.divide"(%13, %17) : (tensor<4x5xf32>, tensor<4x5xf32>) -> tensor<4x5xf32>
    %19 = "stablehlo.dot_general"(%18, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<4x5xf32>, tensor<5x3xf32>) -> tensor<4x3xf32>
    "func.return"(%19) : (tensor<4x3xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
