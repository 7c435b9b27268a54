module {
  func.func @main(%arg0: tensor<3xui64>, %arg1: tensor<2xui64>) -> (tensor<3xui64>, tensor<4x3xui32>, tensor<2xui64>, tensor<5xi32>, tensor<2xui64>, tensor<2x2xf32>, tensor<3xui64>, tensor<3xi64>) {
    %output_state, %output = stablehlo.rng_bit_generator %arg0, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<4x3xui32>)
    %output_state_0, %output_1 = stablehlo.rng_bit_generator %arg1, algorithm = THREE_FRY : (tensor<2xui64>) -> (tensor<2xui64>, tensor<5xi32>)
    %output_state_2, %output_3 = stablehlo.rng_bit_generator %arg1, algorithm = DEFAULT : (tensor<2xui64>) -> (tensor<2xui64>, tensor<2x2xf32>)
    %output_state_4, %output_5 = stablehlo.rng_bit_generator %arg0, algorithm = PHILOX : (tensor<3xui64>) -> (tensor<3xui64>, tensor<3xi64>)
    return %output_state, %output, %output_state_0, %output_1, %output_state_2, %output_3, %output_state_4, %output_5 : tensor<3xui64>, tensor<4x3xui32>, tensor<2xui64>, tensor<5xi32>, tensor<2xui64>, tensor<2x2xf32>, tensor<3xui64>, tensor<3xi64>
  }
}
