// RUN: mlc-opt %s --hlo-to-linalg --mlc-signless | FileCheck %s

// Unsigned ops lower on signless values with unsigned semantics (divui, maxui, ult); the
// casts between ui and i tensors and the ui signature disappear.
// CHECK-LABEL: func @unsigned
// CHECK-SAME: (%{{.*}}: tensor<4xi8>, %{{.*}}: tensor<4xi8>) -> (tensor<4xi8>, tensor<4xi1>, tensor<4xf32>)
// CHECK: arith.divui
// CHECK: arith.maxui
// CHECK: arith.cmpi ult
// CHECK: arith.uitofp %{{.*}} : i8 to f32
// CHECK-NOT: unrealized_conversion_cast
// CHECK-NOT: ui8
func.func @unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> (tensor<4xui8>, tensor<4xi1>, tensor<4xf32>) {
  %0 = "hlo.divide"(%a, %b) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %1 = "hlo.maximum"(%0, %b) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  %2 = "hlo.compare"(%1, %a) {comparison_direction = "LT"} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xi1>
  %3 = "hlo.convert"(%1) : (tensor<4xui8>) -> tensor<4xf32>
  return %1, %2, %3 : tensor<4xui8>, tensor<4xi1>, tensor<4xf32>
}
