// RUN: mlc-opt %s --split-input-file --hlo-jvp | FileCheck %s

// Tangents propagate forward: tanh's is t * (1 - y^2).
// CHECK-LABEL: func @tanh_jvp
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[T:.*]]: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK: %[[Y:.*]] = "hlo.tanh"(%[[X]])
// CHECK-NEXT: %[[ONE:.*]] = "hlo.constant"() {value = dense<1.000000e+00> : tensor<4xf32>}
// CHECK-NEXT: %[[Y2:.*]] = "hlo.multiply"(%[[Y]], %[[Y]])
// CHECK-NEXT: %[[D:.*]] = "hlo.subtract"(%[[ONE]], %[[Y2]])
// CHECK-NEXT: %[[TY:.*]] = "hlo.multiply"(%[[T]], %[[D]])
// CHECK-NEXT: return %[[Y]], %[[TY]]
func.func @tanh(%x: tensor<4xf32>) -> tensor<4xf32> {
  %t = "hlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %t : tensor<4xf32>
}

// -----

// A bilinear op: dot(ta, b) + dot(a, tb).
// CHECK-LABEL: func @matmul_jvp
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>, %[[TA:.*]]: tensor<2x3xf32>, %[[TB:.*]]: tensor<3x4xf32>)
// CHECK: %[[L:.*]] = "hlo.dot_general"(%[[TA]], %[[B]])
// CHECK-NEXT: %[[R:.*]] = "hlo.dot_general"(%[[A]], %[[TB]])
// CHECK-NEXT: %[[T:.*]] = "hlo.add"(%[[L]], %[[R]])
// CHECK-NEXT: return %{{.*}}, %[[T]]
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %d = "hlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %d : tensor<2x4xf32>
}

// -----

// A result that does not depend on the inputs has a zero tangent; an integer result none.
// CHECK-LABEL: func @constant_result_jvp
// CHECK-SAME: -> (tensor<3xf32>, tensor<3xi32>, tensor<3xf32>)
// CHECK: %[[Z:.*]] = "hlo.constant"() {value = dense<0.000000e+00> : tensor<3xf32>}
// CHECK-NEXT: return %{{.*}}, %{{.*}}, %[[Z]]
func.func @constant_result(%x: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xi32>) {
  %c = "hlo.constant"() {value = dense<2.0> : tensor<3xf32>} : () -> tensor<3xf32>
  %i = "hlo.convert"(%x) : (tensor<3xf32>) -> tensor<3xi32>
  return %c, %i : tensor<3xf32>, tensor<3xi32>
}

// -----

// Forward mode goes through a data-dependent while loop: the tangent is carried along.
// CHECK-LABEL: func @dynamic_loop_jvp
// CHECK: %[[LOOP:.*]]:2 = scf.while (%[[C:.*]] = %arg0, %[[T:.*]] = %arg1)
// CHECK: scf.condition(%{{.*}}) %{{.*}}, %{{.*}} : tensor<f32>, tensor<f32>
// CHECK: ^bb0(%[[C2:.*]]: tensor<f32>, %[[T2:.*]]: tensor<f32>):
// CHECK: %[[SQ:.*]] = "hlo.multiply"(%[[C2]], %[[C2]])
// CHECK: %[[D:.*]] = "hlo.add"
// CHECK-NEXT: scf.yield %[[SQ]], %[[D]]
// CHECK: return %{{.*}}, %[[LOOP]]#1
func.func @dynamic_loop(%x: tensor<f32>) -> tensor<f32> {
  %r = scf.while (%c = %x) : (tensor<f32>) -> tensor<f32> {
    %ten = "hlo.constant"() {value = dense<10.0> : tensor<f32>} : () -> tensor<f32>
    %lt = "hlo.compare"(%c, %ten) {comparison_direction = "LT"} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %b = tensor.extract %lt[] : tensor<i1>
    scf.condition(%b) %c : tensor<f32>
  } do {
  ^bb0(%c: tensor<f32>):
    %d = "hlo.multiply"(%c, %c) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    scf.yield %d : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// scf.if: a new scf.if computes the tangent of the branch taken.
// CHECK-LABEL: func @cond_jvp
// CHECK: scf.if %arg0
// CHECK: %[[TAN:.*]] = scf.if %arg0 -> (tensor<4xf32>)
// CHECK: %[[E:.*]] = "hlo.exponential"(%arg1)
// CHECK-NEXT: %[[M:.*]] = "hlo.multiply"(%arg2, %[[E]])
// CHECK-NEXT: scf.yield %[[M]]
// CHECK: } else {
// CHECK-NEXT: scf.yield %arg2
// CHECK: return %{{.*}}, %[[TAN]]
func.func @cond(%p: i1, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.if %p -> tensor<4xf32> {
    %e = "hlo.exponential"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}
