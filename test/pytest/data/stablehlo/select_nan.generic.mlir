"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<5xf32>) -> tensor<5xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<5xf32>):
    %3 = "stablehlo.is_finite"(%arg3) : (tensor<5xf32>) -> tensor<5xi1>
    %4 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %5 = "func.call"(%3, %arg3, %4) <{callee = @_where}> : (tensor<5xi1>, tensor<5xf32>, tensor<f32>) -> tensor<5xf32>
    "func.return"(%5) : (tensor<5xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<5xi1>, tensor<5xf32>, tensor<f32>) -> tensor<5xf32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<5xi1>, %arg1: tensor<5xf32>, %arg2: tensor<f32>):
    %0 = "stablehlo.convert"(%arg2) : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<5xf32>
    %2 = "stablehlo.select"(%arg0, %arg1, %1) : (tensor<5xi1>, tensor<5xf32>, tensor<5xf32>) -> tensor<5xf32>
    "func.return"(%2) : (tensor<5xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
