"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<5x5xf32>) -> tensor<5x5xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg0: tensor<5x5xf32>):
    %0 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %1 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x4xf32>
    %2 = "stablehlo.constant"() <{value = dense<1.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %3 = "stablehlo.broadcast_in_dim"(%2) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<3x4xf32>
    %4 = "stablehlo.multiply"(%1, %3) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
    %5 = "stablehlo.constant"() <{value = dense<0xFF800000> : tensor<f32>}> : () -> tensor<f32>
    %6 = "stablehlo.pad"(%arg0, %5) <{edge_padding_high = array<i64: 1, 1>, edge_padding_low = array<i64: 1, 0>, interior_padding = array<i64: 0, 0>}> : (tensor<5x5xf32>, tensor<f32>) -> tensor<7x6xf32>
    %7 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %8 = "stablehlo.select_and_scatter"(%6, %4, %7) <{padding = dense<0> : tensor<2x2xi64>, window_dimensions = array<i64: 3, 3>, window_strides = array<i64: 2, 1>}> ({
    ^bb0(%arg3: tensor<f32>, %arg4: tensor<f32>):
      %11 = "stablehlo.compare"(%arg3, %arg4) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<f32>, tensor<f32>) -> tensor<i1>
      "stablehlo.return"(%11) : (tensor<i1>) -> ()
    }, {
    ^bb0(%arg1: tensor<f32>, %arg2: tensor<f32>):
      %10 = "stablehlo.add"(%arg1, %arg2) : (tensor<f32>, tensor<f32>) -> tensor<f32>
      "stablehlo.return"(%10) : (tensor<f32>) -> ()
    }) : (tensor<7x6xf32>, tensor<3x4xf32>, tensor<f32>) -> tensor<7x6xf32>
    %9 = "stablehlo.slice"(%8) <{limit_indices = array<i64: 6, 5>, start_indices = array<i64: 1, 0>, strides = array<i64: 1, 1>}> : (tensor<7x6xf32>) -> tensor<5x5xf32>
    "func.return"(%9) : (tensor<5x5xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
