"builtin.module"() <{sym_name = "jit_mlp"}> ({
  "func.func"() <{arg_attrs = [{}, {}, {}, {}, {}], function_type = (tensor<4x8xf32>, tensor<8xf32>, tensor<8x2xf32>, tensor<2xf32>, tensor<5x4xf32>) -> tensor<5x2xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<4x8xf32>, %arg1: tensor<8xf32>, %arg2: tensor<8x2xf32>, %arg3: tensor<2xf32>, %arg4: tensor<5x4xf32>):
    %0 = "stablehlo.dot_general"(%arg4, %arg0) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<5x4xf32>, tensor<4x8xf32>) -> tensor<5x8xf32>
    %1 = "stablehlo.broadcast_in_dim"(%arg1) <{broadcast_dimensions = array<i64: 1>}> : (tensor<8xf32>) -> tensor<1x8xf32>
    %2 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x8xf32>) -> tensor<5x8xf32>
    %3 = "stablehlo.add"(%0, %2) : (tensor<5x8xf32>, tensor<5x8xf32>) -> tensor<5x8xf32>
    %4 = "stablehlo.tanh"(%3) : (tensor<5x8xf32>) -> tensor<5x8xf32>
    %5 = "stablehlo.dot_general"(%4, %arg2) <{dot_dimension_numbers = #stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>, precision_config = [#stablehlo<precision DEFAULT>, #stablehlo<precision DEFAULT>]}> : (tensor<5x8xf32>, tensor<8x2xf32>) -> tensor<5x2xf32>
    %6 = "stablehlo.broadcast_in_dim"(%arg3) <{broadcast_dimensions = array<i64: 1>}> : (tensor<2xf32>) -> tensor<1x2xf32>
    %7 = "stablehlo.broadcast_in_dim"(%6) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x2xf32>) -> tensor<5x2xf32>
    %8 = "stablehlo.add"(%5, %7) : (tensor<5x2xf32>, tensor<5x2xf32>) -> tensor<5x2xf32>
    "func.return"(%8) : (tensor<5x2xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
