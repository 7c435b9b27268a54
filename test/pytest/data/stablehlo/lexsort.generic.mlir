"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<11xi32>, tensor<11xi32>) -> tensor<11xi32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg8: tensor<11xi32>, %arg9: tensor<11xi32>):
    %7 = "func.call"(%arg8, %arg9) <{callee = @lexsort}> : (tensor<11xi32>, tensor<11xi32>) -> tensor<11xi32>
    "func.return"(%7) : (tensor<11xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<11xi32>, tensor<11xi32>) -> tensor<11xi32>, res_attrs = [{}], sym_name = "lexsort", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<11xi32>, %arg1: tensor<11xi32>):
    %0 = "stablehlo.iota"() <{iota_dimension = 0 : i64}> : () -> tensor<11xi32>
    %1:3 = "stablehlo.sort"(%arg1, %arg0, %0) <{dimension = 0 : i64, is_stable = true}> ({
    ^bb0(%arg2: tensor<i32>, %arg3: tensor<i32>, %arg4: tensor<i32>, %arg5: tensor<i32>, %arg6: tensor<i32>, %arg7: tensor<i32>):
      %2 = "stablehlo.compare"(%arg4, %arg5) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %3 = "stablehlo.compare"(%arg2, %arg3) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %4 = "stablehlo.compare"(%arg2, %arg3) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %5 = "stablehlo.and"(%4, %2) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      %6 = "stablehlo.or"(%3, %5) : (tensor<i1>, tensor<i1>) -> tensor<i1>
      "stablehlo.return"(%6) : (tensor<i1>) -> ()
    }) : (tensor<11xi32>, tensor<11xi32>, tensor<11xi32>) -> (tensor<11xi32>, tensor<11xi32>, tensor<11xi32>)
    "func.return"(%1#2) : (tensor<11xi32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
