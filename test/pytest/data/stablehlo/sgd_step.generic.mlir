"builtin.module"() <{sym_name = "jit_sgd_step"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}, {}, {}, {}], function_type = (tensor<4x8xf32>, tensor<8xf32>, tensor<8x2xf32>, tensor<2xf32>, tensor<5x4xf32>, tensor<5x2xf32>) -> (tensor<f32>, tensor<4x8xf32>, tensor<8xf32>, tensor<8x2xf32>, tensor<2xf32>), res_attrs = [{jax.result_info = "result[0]"}, {jax.result_info = "result[1]"}, {jax.result_info = "result[2]"}, {jax.result_info = "result[3]"}, {jax.result_info = "result[4]"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8x2xf32>, %arg3: tensor<2xf32>, %arg4: tensor<5x4xf32>, %arg5: tensor<5x2xf32>):
    %0 = "stablehlo.dot_general"(%arg4, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<5x4xf32>, tensor<4x8xf32>) -> tensor<5x8xf32>
    %1 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xf32>) -> tensor<1x8xf32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x8xf32>) -> tensor<5x8xf32>
    %3 = "stablehlo.add"(%0, %2) : (tensor<5x8xf32>, tensor<5x8xf32>) -> tensor<5x8xf32>
    %4 = "stablehlo.tanh"(%3) : (tensor<5x8xf32>) -> tensor<5x8xf32>
    %5 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<5x8xf32>
    %7 = "stablehlo.subtract"(%6, %4) : (tensor<5x8xf32>, tensor<5x8xf32>) -> tensor<5x8xf32>
    %8 = "stablehlo.dot_general"(%4, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<5x8xf32>, tensor<8x2xf32>) -> tensor<5x2xf32>
    %9 = "stablehlo.broadcast_in_dim"(%arg3) <{broadcast_dimensions = array<i64: 1>}> : (tensor<2xf32>) -> tensor<1x2xf32>
    %10 = "stablehlo.broadcast_in_dim"(%9) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x2xf32>) -> tensor<5x2xf32>
    %11 = "stablehlo.add"(%8, %10) : (tensor<5x2xf32>, tensor<5x2xf32>) -> tensor<5x2xf32>
    %12 = "stablehlo.subtract"(%11, %arg5) : (tensor<5x2xf32>, tensor<5x2xf32>) -> tensor<5x2xf32>
    %13 = "stablehlo.multiply"(%12, %12) : (tensor<5x2xf32>, tensor<5x2xf32>) -> tensor<5x2xf32>
    %14 = "stablehlo.constant"() <{value = dense<2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %15 = "stablehlo.broadcast_in_dim"(%14) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<5x2xf32>
    %16 = "stablehlo.multiply"(%15, %12) : (tensor<5x2xf32>, tensor<5x2xf32>) -> tensor<5x2xf32>
    %17 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %18 = "stablehlo.reduce"(%13, %17) <{dimensions = array<i64: 0, 1>}> ({
    ^bb0(%arg14: tensor<f32>, %arg15: tensor<f32>):
      %64 = "stablehlo.add"(%arg14, %arg15) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%64) : (tensor<f32>) -> ()
    }) : (tensor<5x2xf32>, tensor<f32>) -> tensor<f32>
    %19 = "stablehlo.constant"() <{value = dense<1.000000e+01> : tensor<f32>}> : () -> tensor<f32>
    %20 = "stablehlo.divide"(%18, %19) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %21 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %22 = "stablehlo.constant"() <{value = dense<1.000000e+01> : tensor<f32>}> : () -> tensor<f32>
    %23 = "stablehlo.divide"(%21, %22) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %24 = "stablehlo.broadcast_in_dim"(%23) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<5x2xf32>
    %25 = "stablehlo.multiply"(%24, %16) : (tensor<5x2xf32>, tensor<5x2xf32>) -> tensor<5x2xf32>
    %26 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %27 = "stablehlo.reduce"(%25, %26) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg12: tensor<f32>, %arg13: tensor<f32>):
      %63 = "stablehlo.add"(%arg12, %arg13) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%63) : (tensor<f32>) -> ()
    }) : (tensor<5x2xf32>, tensor<f32>) -> tensor<2xf32>
    %28 = "stablehlo.reshape"(%27) : (tensor<2xf32>) -> tensor<1x2xf32>
    %29 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %30 = "stablehlo.reduce"(%28, %29) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg10: tensor<f32>, %arg11: tensor<f32>):
      %62 = "stablehlo.add"(%arg10, %arg11) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%62) : (tensor<f32>) -> ()
    }) : (tensor<1x2xf32>, tensor<f32>) -> tensor<2xf32>
    %31 = "stablehlo.dot_general"(%25, %4) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<5x2xf32>, tensor<5x8xf32>) -> tensor<2x8xf32>
    %32 = "stablehlo.transpose"(%31) <{permutation = array<i64: 1, 0>}> : (tensor<2x8xf32>) -> tensor<8x2xf32>
    %33 = "stablehlo.dot_general"(%25, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [1]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<5x2xf32>, tensor<8x2xf32>) -> tensor<5x8xf32>
    %34 = "stablehlo.multiply"(%33, %7) : (tensor<5x8xf32>, tensor<5x8xf32>) -> tensor<5x8xf32>
    %35 = "stablehlo.multiply"(%34, %4) : (tensor<5x8xf32>, tensor<5x8xf32>) -> tensor<5x8xf32>
    %36 = "stablehlo.add"(%34, %35) : (tensor<5x8xf32>, tensor<5x8xf32>) -> tensor<5x8xf32>
    %37 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %38 = "stablehlo.reduce"(%36, %37) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg8: tensor<f32>, %arg9: tensor<f32>):
      %61 = "stablehlo.add"(%arg8, %arg9) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%61) : (tensor<f32>) -> ()
    }) : (tensor<5x8xf32>, tensor<f32>) -> tensor<8xf32>
    %39 = "stablehlo.reshape"(%38) : (tensor<8xf32>) -> tensor<1x8xf32>
    %40 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %41 = "stablehlo.reduce"(%39, %40) <{dimensions = array<i64: 0>}> ({
    ^bb0(%arg6: tensor<f32>, %arg7: tensor<f32>):
      %60 = "stablehlo.add"(%arg6, %arg7) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%60) : (tensor<f32>) -> ()
    }) : (tensor<1x8xf32>, tensor<f32>) -> tensor<8xf32>
    %42 = "stablehlo.dot_general"(%36, %arg4) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [0], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<5x8xf32>, tensor<5x4xf32>) -> tensor<8x4xf32>
    %43 = "stablehlo.transpose"(%42) <{permutation = array<i64: 1, 0>}> : (tensor<8x4xf32>) -> tensor<4x8xf32>
    %44 = "stablehlo.constant"() <{value = dense<1.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %45 = "stablehlo.broadcast_in_dim"(%44) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<4x8xf32>
    %46 = "stablehlo.multiply"(%45, %43) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %47 = "stablehlo.subtract"(%arg0, %46) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
    %48 = "stablehlo.constant"() <{value = dense<1.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %49 = "stablehlo.broadcast_in_dim"(%48) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8xf32>
    %50 = "stablehlo.multiply"(%49, %41) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %51 = "stablehlo.subtract"(%arg1, %50) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %52 = "stablehlo.constant"() <{value = dense<1.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %53 = "stablehlo.broadcast_in_dim"(%52) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x2xf32>
    %54 = "stablehlo.multiply"(%53, %32) : (tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x2xf32>
    %55 = "stablehlo.subtract"(%arg2, %54) : (tensor<8x2xf32>, tensor<8x2xf32>) -> tensor<8x2xf32>
    %56 = "stablehlo.constant"() <{value = dense<1.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %57 = "stablehlo.broadcast_in_dim"(%56) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<2xf32>
    %58 = "stablehlo.multiply"(%57, %30) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    %59 = "stablehlo.subtract"(%arg3, %58) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    "func.return"(%20, %47, %51, %55, %59) : (tensor<f32>, tensor<4x8xf32>, tensor<8xf32>, tensor<8x2xf32>, tensor<2xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
