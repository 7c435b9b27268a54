"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8xf32>) -> tensor<8xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<8xf32>):
    %3 = "func.call"(%arg1) <{callee = @relu}> : (tensor<8xf32>) -> tensor<8xf32>
    %4 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %5 = "stablehlo.broadcast_in_dim"(%4) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %6 = "stablehlo.multiply"(%5, %arg1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %7 = "stablehlo.negate"(%arg1) : (tensor<8xf32>) -> tensor<8xf32>
    %8 = "stablehlo.constant"() <{value = dense<0.707106769> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %10 = "stablehlo.multiply"(%7, %9) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %11 = "chlo.erfc"(%10) : (tensor<8xf32>) -> tensor<8xf32>
    %12 = "stablehlo.multiply"(%6, %11) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %13 = "stablehlo.add"(%3, %12) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%13) : (tensor<8xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<8xf32>) -> tensor<8xf32>, res_attrs = [{}], sym_name = "relu", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8xf32>):
    %0 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %2 = "stablehlo.maximum"(%arg0, %1) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    "func.return"(%2) : (tensor<8xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
