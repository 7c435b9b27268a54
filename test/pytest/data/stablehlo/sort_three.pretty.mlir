module {
  func.func @main(%arg0: tensor<2x9xi32>, %arg1: tensor<2x9xf32>, %arg2: tensor<2x9xi32>) -> (tensor<2x9xi32>, tensor<2x9xf32>, tensor<2x9xi32>) {
    %0:3 = "stablehlo.sort"(%arg0, %arg1, %arg2) <{dimension = 1 : i64, is_stable = true}> ({
    ^bb0(%arg3: tensor<i32>, %arg4: tensor<i32>, %arg5: tensor<f32>, %arg6: tensor<f32>, %arg7: tensor<i32>, %arg8: tensor<i32>):
      %1 = stablehlo.compare GT, %arg3, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %2 = stablehlo.compare EQ, %arg3, %arg4, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
      %3 = stablehlo.compare LT, %arg5, %arg6, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
      %4 = stablehlo.and %2, %3 : tensor<i1>
      %5 = stablehlo.or %1, %4 : tensor<i1>
      stablehlo.return %5 : tensor<i1>
    }) : (tensor<2x9xi32>, tensor<2x9xf32>, tensor<2x9xi32>) -> (tensor<2x9xi32>, tensor<2x9xf32>, tensor<2x9xi32>)
    return %0#0, %0#1, %0#2 : tensor<2x9xi32>, tensor<2x9xf32>, tensor<2x9xi32>
  }
}
