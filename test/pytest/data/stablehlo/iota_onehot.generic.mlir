"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<3xi32>) -> tensor<3x5xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg1: tensor<3xi32>):
    %6 = "func.call"(%arg1) <{callee = @_one_hot}> : (tensor<3xi32>) -> tensor<3x5xf32>
    "func.return"(%6) : (tensor<3x5xf32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}], function_type = (tensor<3xi32>) -> tensor<3x5xf32>, res_attrs = [{}], sym_name = "_one_hot", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<3xi32>):
    %0 = "stablehlo.broadcast_in_dim"(%arg0) <{broadcast_dimensions = array<i64: 0>}> : (tensor<3xi32>) -> tensor<3x1xi32>
    %1 = "stablehlo.iota"() <{iota_dimension = 1 : i64}> : () -> tensor<1x5xi32>
    %2 = "stablehlo.broadcast_in_dim"(%0) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<3x1xi32>) -> tensor<3x5xi32>
    %3 = "stablehlo.broadcast_in_dim"(%1) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<1x5xi32>) -> tensor<3x5xi32>
    %4 = "stablehlo.compare"(%2, %3) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<3x5xi32>, tensor<3x5xi32>) -> tensor<3x5xi1>
    %5 = "stablehlo.convert"(%4) : (tensor<3x5xi1>) -> tensor<3x5xf32>
    "func.return"(%5) : (tensor<3x5xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
