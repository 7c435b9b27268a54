"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4x3x2xf32>) -> (tensor<4x3x2xf32>, tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>), sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4x3x2xf32>, %arg1: tensor<3xf32>, %arg2: tensor<3xf32>, %arg3: tensor<3xf32>, %arg4: tensor<3xf32>, %arg5: tensor<4x3x2xf32>):
    %0 = "stablehlo.batch_norm_inference"(%arg0, %arg1, %arg2, %arg3, %arg4) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<4x3x2xf32>
    %1:3 = "stablehlo.batch_norm_training"(%arg0, %arg1, %arg2) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>)
    %2:3 = "stablehlo.batch_norm_grad"(%arg0, %arg1, %arg3, %arg4, %arg5) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : (tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4x3x2xf32>) -> (tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>)
    "func.return"(%0, %1#0, %1#1, %1#2, %2#0, %2#1, %2#2) : (tensor<4x3x2xf32>, tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<4x3x2xf32>, tensor<3xf32>, tensor<3xf32>) -> ()
  }) : () -> ()
}) : () -> ()
