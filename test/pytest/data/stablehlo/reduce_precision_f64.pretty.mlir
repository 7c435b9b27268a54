module {
  func.func @main(%arg0: tensor<6xf64>) -> (tensor<6xf64>, tensor<6xf64>) {
    %0 = stablehlo.reduce_precision %arg0, format = e8m23 : tensor<6xf64>
    %1 = stablehlo.reduce_precision %arg0, format = e11m20 : tensor<6xf64>
    return %0, %1 : tensor<6xf64>, tensor<6xf64>
  }
}
