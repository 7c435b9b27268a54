"builtin.module"() ({
  "func.func"() <{function_type = (tensor<2x5xf32>, tensor<2x2xi32>, tensor<2x2xf32>) -> tensor<2x5xf32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<2x5xf32>, %arg1: tensor<2x2xi32>, %arg2: tensor<2x2xf32>):
    %0 = "stablehlo.scatter"(%arg0, %arg1, %arg2) <{scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %1 = "stablehlo.multiply"(%arg3, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      %2 = "stablehlo.add"(%1, %arg4) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%2) : (tensor<f32>) -> ()
    }) : (tensor<2x5xf32>, tensor<2x2xi32>, tensor<2x2xf32>) -> tensor<2x5xf32>
    "func.return"(%0) : (tensor<2x5xf32>) -> ()
  }) : () -> ()
}) : () -> ()
