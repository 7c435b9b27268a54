"builtin.module"() <{sym_name = "jit__lambda"}> ({
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg10: tensor<6xi32>, %arg11: tensor<6xi32>):
    %36 = "stablehlo.add"(%arg10, %arg11) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    %37 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
    %38 = "stablehlo.broadcast_in_dim"(%37) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<6xi32>
    %39 = "stablehlo.multiply"(%36, %38) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    %40 = "stablehlo.abs"(%arg11) : (tensor<6xi32>) -> tensor<6xi32>
    %41 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<6xi32>
    %43 = "stablehlo.add"(%40, %42) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    %44 = "func.call"(%arg10, %43) <{callee = @floor_divide}> : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    %45 = "stablehlo.subtract"(%39, %44) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    %46 = "stablehlo.constant"() <{value = dense<7> : tensor<i32>}> : () -> tensor<i32>
    %47 = "func.call"(%arg10, %46) <{callee = @remainder}> : (tensor<6xi32>, tensor<i32>) -> tensor<6xi32>
    %48 = "stablehlo.add"(%45, %47) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    "func.return"(%48) : (tensor<6xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>, res_attrs = [{}], sym_name = "floor_divide", sym_visibility = "private"}> ({
  ^bb0(%arg8: tensor<6xi32>, %arg9: tensor<6xi32>):
    %23 = "stablehlo.divide"(%arg8, %arg9) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    %24 = "stablehlo.sign"(%arg8) : (tensor<6xi32>) -> tensor<6xi32>
    %25 = "stablehlo.sign"(%arg9) : (tensor<6xi32>) -> tensor<6xi32>
    %26 = "stablehlo.compare"(%24, %25) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %27 = "stablehlo.remainder"(%arg8, %arg9) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    %28 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %29 = "stablehlo.broadcast_in_dim"(%28) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<6xi32>
    %30 = "stablehlo.compare"(%27, %29) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %31 = "stablehlo.and"(%26, %30) : (tensor<6xi1>, tensor<6xi1>) -> tensor<6xi1>
    %32 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %33 = "stablehlo.broadcast_in_dim"(%32) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<6xi32>
    %34 = "stablehlo.subtract"(%23, %33) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    %35 = "func.call"(%31, %34, %23) <{callee = @_where}> : (tensor<6xi1>, tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    "func.return"(%35) : (tensor<6xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<6xi1>, tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>, res_attrs = [{}], sym_name = "_where", sym_visibility = "private"}> ({
  ^bb0(%arg5: tensor<6xi1>, %arg6: tensor<6xi32>, %arg7: tensor<6xi32>):
    %22 = "stablehlo.select"(%arg5, %arg6, %arg7) : (tensor<6xi1>, tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    "func.return"(%22) : (tensor<6xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}], function_type = (tensor<6xi32>, tensor<i32>) -> tensor<6xi32>, res_attrs = [{}], sym_name = "remainder", sym_visibility = "private"}> ({
  ^bb0(%arg3: tensor<6xi32>, %arg4: tensor<i32>):
    %1 = "stablehlo.convert"(%arg4) : (tensor<i32>) -> tensor<i32>
    %2 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %3 = "stablehlo.compare"(%1, %2) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %4 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %5 = "func.call"(%3, %4, %1) <{callee = @_where_0}> : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %6 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<6xi32>
    %7 = "stablehlo.remainder"(%arg3, %6) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    %8 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %9 = "stablehlo.broadcast_in_dim"(%8) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<6xi32>
    %10 = "stablehlo.compare"(%7, %9) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %11 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %12 = "stablehlo.broadcast_in_dim"(%11) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<6xi32>
    %13 = "stablehlo.compare"(%7, %12) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi1>
    %14 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %15 = "stablehlo.compare"(%5, %14) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %16 = "stablehlo.broadcast_in_dim"(%15) <{broadcast_dimensions = array<i64>}> : (tensor<i1>) -> tensor<6xi1>
    %17 = "stablehlo.compare"(%13, %16) <{compare_type = #stablehlo<comparison_type UNSIGNED>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<6xi1>, tensor<6xi1>) -> tensor<6xi1>
    %18 = "stablehlo.and"(%17, %10) : (tensor<6xi1>, tensor<6xi1>) -> tensor<6xi1>
    %19 = "stablehlo.broadcast_in_dim"(%5) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<6xi32>
    %20 = "stablehlo.add"(%7, %19) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    %21 = "stablehlo.select"(%18, %20, %7) : (tensor<6xi1>, tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
    "func.return"(%21) : (tensor<6xi32>) -> ()
  }) : () -> ()
  "func.func"() <{arg_attrs = [{}, {}, {}], function_type = (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>, res_attrs = [{}], sym_name = "_where_0", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>):
    %0 = "stablehlo.select"(%arg0, %arg1, %arg2) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    "func.return"(%0) : (tensor<i32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
