module {
  func.func @main(%arg0: tensor<4x5xf32>, %arg1: tensor<f32>, %arg2: tensor<1x5x5x2xf32>, %arg3: tensor<3x3x2x3xf32>) -> (tensor<7x13xf32>, tensor<2x2xf32>, tensor<3x2x2xf32>, tensor<1x5x5x3xf32>, tensor<3x4xi32>, tensor<2x4x5xf32>) {
    %c = stablehlo.constant dense<[1, 0]> : tensor<2xi64>
    %c_0 = stablehlo.constant dense<[2, 0]> : tensor<2xi64>
    %c_1 = stablehlo.constant dense<[0, 2]> : tensor<2xi64>
    %0 = stablehlo.dynamic_pad %arg0, %arg1, %c, %c_0, %c_1 : (tensor<4x5xf32>, tensor<f32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<7x13xf32>
    %c_2 = stablehlo.constant dense<[1, 0]> : tensor<2xi32>
    %c_3 = stablehlo.constant dense<4> : tensor<2xi32>
    %c_4 = stablehlo.constant dense<[2, 3]> : tensor<2xi32>
    %1 = stablehlo.real_dynamic_slice %arg0, %c_2, %c_3, %c_4 : (tensor<4x5xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2x2xf32>
    %c_5 = stablehlo.constant dense<[[0], [3], [2]]> : tensor<3x1xi32>
    %c_6 = stablehlo.constant dense<2> : tensor<2xi64>
    %2 = "stablehlo.dynamic_gather"(%arg0, %c_5, %c_6) <{dimension_numbers = #stablehlo.gather<offset_dims = [1, 2], start_index_map = [0], index_vector_dim = 1>}> : (tensor<4x5xf32>, tensor<3x1xi32>, tensor<2xi64>) -> tensor<3x2x2xf32>
    %3 = stablehlo.convolution(%arg2, %arg3) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {pad = [[1, 1], [1, 1]]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x5x2xf32>, tensor<3x3x2x3xf32>) -> tensor<1x5x5x3xf32>
    %c_7 = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
    %4 = stablehlo.dynamic_iota %c_7, dim = 1 : (tensor<2xi64>) -> tensor<3x4xi32>
    %c_8 = stablehlo.constant dense<[2, 4, 5]> : tensor<3xi64>
    %5 = stablehlo.dynamic_broadcast_in_dim %arg0, %c_8, dims = [1, 2] : (tensor<4x5xf32>, tensor<3xi64>) -> tensor<2x4x5xf32>
    return %0, %1, %2, %3, %4, %5 : tensor<7x13xf32>, tensor<2x2xf32>, tensor<3x2x2xf32>, tensor<1x5x5x3xf32>, tensor<3x4xi32>, tensor<2x4x5xf32>
  }
}
