"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<9xf32>) -> tensor<9xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<9xf32>):
    %1 = "stablehlo.floor"(%arg1) : (tensor<9xf32>) -> tensor<9xf32>
    %2 = "stablehlo.ceil"(%arg1) : (tensor<9xf32>) -> tensor<9xf32>
    %3 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<9xf32>
    %5 = "stablehlo.multiply"(%2, %4) : (tensor<9xf32>, tensor<9xf32>) -> tensor<9xf32>
    %6 = "stablehlo.add"(%1, %5) : (tensor<9xf32>, tensor<9xf32>) -> tensor<9xf32>
    %7 = "func.call"(%arg1) <{callee = @round}> : (tensor<9xf32>) -> tensor<9xf32>
    %8 = "stablehlo.constant"() <{value = dense<3.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<9xf32>
    %10 = "stablehlo.multiply"(%7, %9) : (tensor<9xf32>, tensor<9xf32>) -> tensor<9xf32>
    %11 = "stablehlo.add"(%6, %10) : (tensor<9xf32>, tensor<9xf32>) -> tensor<9xf32>
    "func.return"(%11) : (tensor<9xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<9xf32>) -> tensor<9xf32>, res_attrs = [{}], sym_name = "round", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<9xf32>):
    %0 = "stablehlo.round_nearest_even"(%arg0) : (tensor<9xf32>) -> tensor<9xf32>
    "func.return"(%0) : (tensor<9xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
