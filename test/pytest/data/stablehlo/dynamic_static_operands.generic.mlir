"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x5xf32>, tensor<f32>, tensor<1x5x5x2xf32>, tensor<3x3x2x3xf32>) -> (tensor<7x13xf32>, tensor<2x2xf32>, tensor<3x2x2xf32>, tensor<1x5x5x3xf32>, tensor<3x4xi32>, tensor<2x4x5xf32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4x5xf32>, %arg1: tensor<f32>, %arg2: tensor<1x5x5x2xf32>, %arg3: tensor<3x3x2x3xf32>):
    %0 = "stablehlo.constant"() <{value = dense<[1, 0]> : tensor<2xi64>}> : () -> tensor<2xi64>
    %1 = "stablehlo.constant"() <{value = dense<[2, 0]> : tensor<2xi64>}> : () -> tensor<2xi64>
    %2 = "stablehlo.constant"() <{value = dense<[0, 2]> : tensor<2xi64>}> : () -> tensor<2xi64>
    %3 = "stablehlo.dynamic_pad"(%arg0, %arg1, %0, %1, %2) : (tensor<4x5xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<7x13xf32>
    %4 = "stablehlo.constant"() <{value = dense<[1, 0]> : tensor<2xi32>}> : () -> tensor<2xi32>
    %5 = "stablehlo.constant"() <{value = dense<4> : tensor<2xi32>}> : () -> tensor<2xi32>
    %6 = "stablehlo.constant"() <{value = dense<[2, 3]> : tensor<2xi32>}> : () -> tensor<2xi32>
    %7 = "stablehlo.real_dynamic_slice"(%arg0, %4, %5, %6) : (tensor<4x5xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xf32>
    %8 = "stablehlo.constant"() <{value = dense<[[0], [3], [2]]> : tensor<3x1xi32>}> : () -> tensor<3x1xi32>
    %9 = "stablehlo.constant"() <{value = dense<2> : tensor<2xi64>}> : () -> tensor<2xi64>
    %10 = "stablehlo.dynamic_gather"(%arg0, %8, %9) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>}> : (tensor<4x5xf32>, tensor<3x1xi32>, tensor<2xi64>) -> tensor<3x2x2xf32>
    %11 = "stablehlo.convolution"(%arg2, %arg3) <{batch_group_count = 1 : i64, dimension_numbers = #stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>, feature_group_count = 1 : i64, padding = dense<1> : tensor<2x2xi64>}> : (tensor<1x5x5x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x5x5x3xf32>
    %12 = "stablehlo.constant"() <{value = dense<[3, 4]> : tensor<2xi64>}> : () -> tensor<2xi64>
    %13 = "stablehlo.dynamic_iota"(%12) <{iota_dimension = 1 : i64}> : (tensor<2xi64>) -> tensor<3x4xi32>
    %14 = "stablehlo.constant"() <{value = dense<[2, 4, 5]> : tensor<3xi64>}> : () -> tensor<3xi64>
    %15 = "stablehlo.dynamic_broadcast_in_dim"(%arg0, %14) <{broadcast_dimensions = array<i64: 1, 2>}> : (tensor<4x5xf32>, tensor<3xi64>) -> tensor<2x4x5xf32>
    "func.return"(%3, %7, %10, %11, %13, %15) : (tensor<7x13xf32>, tensor<2x2xf32>, tensor<3x2x2xf32>, tensor<1x5x5x3xf32>, tensor<3x4xi32>, tensor<2x4x5xf32>) -> ()
  }) : () -> ()
}) : () -> ()
