"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<10xf32>) -> tensor<10xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg3: tensor<10xf32>):
    %6 = "stablehlo.constant"() <{value = dense<-5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %7 = "stablehlo.constant"() <{value = dense<0.699999988> : tensor<f32>}> : () -> tensor<f32>
    %8 = "func.call"(%arg3, %6, %7) <{callee = @clip}> : (tensor<10xf32>, tensor<f32>, tensor<f32>) -> tensor<10xf32>
    "func.return"(%8) : (tensor<10xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<10xf32>, tensor<f32>, tensor<f32>) -> tensor<10xf32>, res_attrs = [{}], sym_name = "clip", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<10xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>):
    %0 = "stablehlo.convert"(%arg1) : (tensor<f32>) -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %2 = "stablehlo.maximum"(%1, %arg0) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    %3 = "stablehlo.convert"(%arg2) : (tensor<f32>) -> tensor<f32>
    %4 = "stablehlo.broadcast_in_dim"(%3) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<10xf32>
    %5 = "stablehlo.minimum"(%4, %2) : (tensor<10xf32>, tensor<10xf32>) -> tensor<10xf32>
    "func.return"(%5) : (tensor<10xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
