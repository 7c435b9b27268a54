module {
  func.func @main(%arg0: tensor<1x5x4x2xf32>, %arg1: tensor<3x2x2x3xf32>) -> tensor<1x4x4x3xf32> {
    %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f], window = {stride = [1, 1], pad = [[0, 1], [0, 1]], reverse = [true, false]} {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (tensor<1x5x4x2xf32>, tensor<3x2x2x3xf32>) -> tensor<1x4x4x3xf32>
    return %0 : tensor<1x4x4x3xf32>
  }
}
