"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<6x2xf32>) -> tensor<6x2xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg4: tensor<6x2xf32>):
    %5 = "func.call"(%arg4) <{callee = @cumsum}> : (tensor<6x2xf32>) -> tensor<6x2xf32>
    "func.return"(%5) : (tensor<6x2xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<6x2xf32>) -> tensor<6x2xf32>, res_attrs = [{}], sym_name = "cumsum", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<6x2xf32>):
    %4 = "func.call"(%arg3) <{callee = @cumsum_0}> : (tensor<6x2xf32>) -> tensor<6x2xf32>
    "func.return"(%4) : (tensor<6x2xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<6x2xf32>) -> tensor<6x2xf32>, sym_name = "cumsum_0", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<6x2xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<f32>
    %2 = "stablehlo.reduce_window"(%arg0, %1) <{base_dilations = array<i64: 1, 1>, padding = dense<[[5, 0], [0, 0]]> : tensor<2x2xi64>, window_dilations = array<i64: 1, 1>, window_dimensions = array<i64: 6, 1>, window_strides = array<i64: 1, 1>}> ({
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %3 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%3) : (tensor<f32>) -> ()
    }) : (tensor<6x2xf32>, tensor<f32>) -> tensor<6x2xf32>
    "func.return"(%2) : (tensor<6x2xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
