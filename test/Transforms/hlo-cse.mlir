// RUN: mlc-opt %s --split-input-file --hlo-cse | FileCheck %s

// Identical ops on identical operands are computed once.
// CHECK-LABEL: func @same_expression
// CHECK: %[[E:.*]] = "hlo.exponential"(%arg0)
// CHECK-NOT: hlo.exponential
// CHECK: "hlo.add"(%[[E]], %[[E]])
func.func @same_expression(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = "hlo.exponential"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %b = "hlo.exponential"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %0 = "hlo.add"(%a, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Different attributes are different expressions.
// CHECK-LABEL: func @different_attributes
// CHECK-COUNT-2: hlo.compare
func.func @different_attributes(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xi1>, tensor<4xi1>) {
  %0 = "hlo.compare"(%x, %y) {comparison_direction = "LT"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  %1 = "hlo.compare"(%x, %y) {comparison_direction = "GT"} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0, %1 : tensor<4xi1>, tensor<4xi1>
}

// -----

// Different operand order is a different expression (no commutativity assumed).
// CHECK-LABEL: func @different_operands
// CHECK-COUNT-2: hlo.subtract
func.func @different_operands(%x: tensor<4xf32>, %y: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "hlo.subtract"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.subtract"(%y, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// An expression computed before an scf.if serves its branches; one computed in a branch
// does not serve the other branch.
// CHECK-LABEL: func @regions
// CHECK: %[[T:.*]] = "hlo.tanh"(%arg1)
// CHECK: scf.if
// CHECK-NOT: hlo.tanh
// CHECK: "hlo.sqrt"(%arg1)
// CHECK: else
// CHECK: "hlo.sqrt"(%arg1)
func.func @regions(%p: i1, %x: tensor<4xf32>) -> tensor<4xf32> {
  %t = "hlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %r = scf.if %p -> tensor<4xf32> {
    %t2 = "hlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %s = "hlo.sqrt"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    %a = "hlo.add"(%t2, %s) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    scf.yield %a : tensor<4xf32>
  } else {
    %s = "hlo.sqrt"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  }
  %o = "hlo.add"(%r, %t) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %o : tensor<4xf32>
}

// -----

// Constants with the same value are merged.
// CHECK-LABEL: func @constants
// CHECK-COUNT-1: hlo.constant
// CHECK-NOT: hlo.constant
func.func @constants() -> (tensor<2xi32>, tensor<2xi32>) {
  %a = "hlo.constant"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  %b = "hlo.constant"() {value = dense<[1, 2]> : tensor<2xi32>} : () -> tensor<2xi32>
  return %a, %b : tensor<2xi32>, tensor<2xi32>
}
