func.func @bad(%a: tensor<4xf32>) -> tensor<4xf32> {
  // transposing a vector with a bad permutation
  %0 = "hlo.transpose"(%a) {permutation = array<i64: 1>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
