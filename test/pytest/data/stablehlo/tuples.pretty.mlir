module {
  func.func @main(%arg0: tensor<2xf32>, %arg1: tensor<2xf32>, %arg2: tensor<i32>) -> (tensor<2xf32>, tensor<i32>) {
    %0 = stablehlo.tuple %arg0, %arg1, %arg2 : tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>
    %1 = stablehlo.tuple %0, %arg2 : tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>
    %2 = call @combine(%1) : (tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>) -> tuple<tensor<2xf32>, tensor<i32>>
    %3 = stablehlo.get_tuple_element %2[0] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
    %4 = stablehlo.get_tuple_element %2[1] : (tuple<tensor<2xf32>, tensor<i32>>) -> tensor<i32>
    return %3, %4 : tensor<2xf32>, tensor<i32>
  }
  func.func private @combine(%arg0: tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>) -> tuple<tensor<2xf32>, tensor<i32>> {
    %0 = stablehlo.get_tuple_element %arg0[0] : (tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>) -> tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>
    %1 = stablehlo.get_tuple_element %arg0[1] : (tuple<tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>, tensor<i32>>) -> tensor<i32>
    %2 = stablehlo.get_tuple_element %0[0] : (tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
    %3 = stablehlo.get_tuple_element %0[1] : (tuple<tensor<2xf32>, tensor<2xf32>, tensor<i32>>) -> tensor<2xf32>
    %4 = stablehlo.subtract %2, %3 : tensor<2xf32>
    %5 = stablehlo.multiply %1, %1 : tensor<i32>
    %6 = stablehlo.tuple %4, %5 : tuple<tensor<2xf32>, tensor<i32>>
    return %6 : tuple<tensor<2xf32>, tensor<i32>>
  }
}
