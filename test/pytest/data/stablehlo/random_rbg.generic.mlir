"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4xui32>) -> (tensor<3x5xf32>, tensor<7xui32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg5: tensor<4xui32>):
    %32 = "func.call"(%arg5) <{callee = @_normal}> : (tensor<4xui32>) -> tensor<3x5xf32>
    %33 = "stablehlo.reshape"(%arg5) : (tensor<4xui32>) -> tensor<2x2xui32>
    %34 = "stablehlo.bitcast_convert"(%33) : (tensor<2x2xui32>) -> tensor<2xui64>
    %35:2 = "stablehlo.rng_bit_generator"(%34) <{rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<7xui32>)
    %36 = "stablehlo.bitcast_convert"(%35#0) : (tensor<2xui64>) -> tensor<2x2xui32>
    %37 = "stablehlo.reshape"(%36) : (tensor<2x2xui32>) -> tensor<4xui32>
    "func.return"(%32, %35#1) : (tensor<3x5xf32>, tensor<7xui32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4xui32>) -> tensor<3x5xf32>, res_attrs = [{}], sym_name = "_normal", sym_visibility = "private"}> ({
  ^bb0(%arg4: tensor<4xui32>):
    %31 = "func.call"(%arg4) <{callee = @_normal_real}> : (tensor<4xui32>) -> tensor<3x5xf32>
    "func.return"(%31) : (tensor<3x5xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<4xui32>) -> tensor<3x5xf32>, res_attrs = [{}], sym_name = "_normal_real", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<4xui32>):
    %24 = "stablehlo.constant"() <{value = dense<-0.99999994> : tensor<f32>}> : () -> tensor<f32>
    %25 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %26 = "func.call"(%arg3, %24, %25) <{callee = @_uniform}> : (tensor<4xui32>, tensor<f32>, tensor<f32>) -> tensor<3x5xf32>
    %27 = "chlo.erf_inv"(%26) : (tensor<3x5xf32>) -> tensor<3x5xf32>
    %28 = "stablehlo.constant"() <{value = dense<1.41421354> : tensor<f32>}> : () -> tensor<f32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x5xf32>
    %30 = "stablehlo.multiply"(%29, %27) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    "func.return"(%30) : (tensor<3x5xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<4xui32>, tensor<f32>, tensor<f32>) -> tensor<3x5xf32>, res_attrs = [{}], sym_name = "_uniform", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<4xui32>, %arg1: tensor<f32>, %arg2: tensor<f32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x1xf32>
    %1 = "stablehlo.broadcast_in_dim"(%arg2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<1x1xf32>
    %2 = "stablehlo.reshape"(%arg0) : (tensor<4xui32>) -> tensor<2x2xui32>
    %3 = "stablehlo.bitcast_convert"(%2) : (tensor<2x2xui32>) -> tensor<2xui64>
    %4:2 = "stablehlo.rng_bit_generator"(%3) <{rng_algorithm = #stablehlo<rng_algorithm DEFAULT>}> : (tensor<2xui64>) -> (tensor<2xui64>, tensor<3x5xui32>)
    %5 = "stablehlo.bitcast_convert"(%4#0) : (tensor<2xui64>) -> tensor<2x2xui32>
    %6 = "stablehlo.reshape"(%5) : (tensor<2x2xui32>) -> tensor<4xui32>
    %7 = "stablehlo.constant"() <{value = dense<9> : tensor<ui32>}> : () -> tensor<ui32>
    %8 = "stablehlo.broadcast_in_dim"(%7) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x5xui32>
    %9 = "stablehlo.shift_right_logical"(%4#1, %8) : (tensor<3x5xui32>, tensor<3x5xui32>) -> tensor<3x5xui32>
    %10 = "stablehlo.constant"() <{value = dense<1065353216> : tensor<ui32>}> : () -> tensor<ui32>
    %11 = "stablehlo.broadcast_in_dim"(%10) <{broadcast_dimensions = array<i64>}> : (tensor<ui32>) -> tensor<3x5xui32>
    %12 = "stablehlo.or"(%9, %11) : (tensor<3x5xui32>, tensor<3x5xui32>) -> tensor<3x5xui32>
    %13 = "stablehlo.bitcast_convert"(%12) : (tensor<3x5xui32>) -> tensor<3x5xf32>
    %14 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x5xf32>
    %16 = "stablehlo.subtract"(%13, %15) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %17 = "stablehlo.subtract"(%1, %0) : (tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x1xf32>
    %18 = "stablehlo.broadcast_in_dim"(%17) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<3x5xf32>
    %19 = "stablehlo.multiply"(%16, %18) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %20 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<3x5xf32>
    %21 = "stablehlo.add"(%19, %20) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    %22 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x1xf32>) -> tensor<3x5xf32>
    %23 = "stablehlo.maximum"(%22, %21) : (tensor<3x5xf32>, tensor<3x5xf32>) -> tensor<3x5xf32>
    "func.return"(%23) : (tensor<3x5xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
