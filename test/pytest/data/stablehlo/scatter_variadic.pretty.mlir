module {
  func.func @main(%arg0: tensor<5x3xf32>, %arg1: tensor<5x3xi32>, %arg2: tensor<4x1xi32>, %arg3: tensor<4x3xf32>, %arg4: tensor<4x3xi32>) -> (tensor<5x3xf32>, tensor<5x3xi32>) {
    %0:2 = "stablehlo.scatter"(%arg0, %arg1, %arg2, %arg3, %arg4) <{scatter_dimension_numbers = #stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({
    ^bb0(%arg5: tensor<f32>, %arg6: tensor<i32>, %arg7: tensor<f32>, %arg8: tensor<i32>):
      %1 = stablehlo.compare GT, %arg7, %arg5 : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %2 = stablehlo.select %1, %arg7, %arg5 : tensor<i1>, tensor<f32>
      %3 = stablehlo.add %arg6, %arg8 : tensor<i32>
      stablehlo.return %2, %3 : tensor<f32>, tensor<i32>
    }) : (tensor<5x3xf32>, tensor<5x3xi32>, tensor<4x1xi32>, tensor<4x3xf32>, tensor<4x3xi32>) -> (tensor<5x3xf32>, tensor<5x3xi32>)
    return %0#0, %0#1 : tensor<5x3xf32>, tensor<5x3xi32>
  }
}
