"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<14xf32>) -> (tensor<14xf32>, tensor<14xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<14xf32>):
    %1 = "chlo.asinh"(%arg1) : (tensor<14xf32>) -> tensor<14xf32>
    %2 = "stablehlo.abs"(%arg1) : (tensor<14xf32>) -> tensor<14xf32>
    %3 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<14xf32>
    %5 = "stablehlo.add"(%2, %4) : (tensor<14xf32>, tensor<14xf32>) -> tensor<14xf32>
    %6 = "func.call"(%5) <{callee = @arccosh}> : (tensor<14xf32>) -> tensor<14xf32>
    "func.return"(%1, %6) : (tensor<14xf32>, tensor<14xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<14xf32>) -> tensor<14xf32>, res_attrs = [{}], sym_name = "arccosh", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<14xf32>):
    %0 = "chlo.acosh"(%arg0) : (tensor<14xf32>) -> tensor<14xf32>
    "func.return"(%0) : (tensor<14xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
