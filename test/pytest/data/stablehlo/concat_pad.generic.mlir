"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<3x9xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg2: tensor<2x3xf32>, %arg3: tensor<2x1xf32>):
    %2 = "stablehlo.concatenate"(%arg2, %arg3, %arg2) <{dimension = 1 : i64}> : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x7xf32>
    %3 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %4 = "func.call"(%2, %3) <{callee = @_pad}> : (tensor<2x7xf32>, tensor<i32>) -> tensor<3x9xf32>
    "func.return"(%4) : (tensor<3x9xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<2x7xf32>, tensor<i32>) -> tensor<3x9xf32>, res_attrs = [{}], sym_name = "_pad", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<2x7xf32>, %arg1: tensor<i32>):
    %0 = "stablehlo.convert"(%arg1) : (tensor<i32>) -> tensor<f32>
    %1 = "stablehlo.pad"(%arg0, %0) <{edge_padding_high = array<i64: 0, 2>, edge_padding_low = array<i64: 1, 0>, interior_padding = array<i64: 0, 0>}> : (tensor<2x7xf32>, tensor<f32>) -> tensor<3x9xf32>
    "func.return"(%1) : (tensor<3x9xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
