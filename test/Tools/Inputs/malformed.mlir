func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  // an unknown op below
  not_an_op
  return %a : tensor<4xf32>
}
