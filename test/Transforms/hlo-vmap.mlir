// RUN: mlc-opt %s --split-input-file --hlo-vmap='batch-size=3' | FileCheck %s
// RUN: not mlc-opt %s --split-input-file --hlo-vmap='batch-size=3 in-axes=1' 2>/dev/null | FileCheck %s --check-prefix=AXIS1
// RUN: not mlc-opt %s --split-input-file --hlo-vmap='batch-size=3 in-axes=1' 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR

// An elementwise op applies to the batch dim like any other dim.
// CHECK-LABEL: func @elementwise_vmap
// CHECK-SAME: (%[[X:.*]]: tensor<3x4xf32>, %[[Y:.*]]: tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: %[[A:.*]] = "hlo.add"(%[[X]], %[[Y]]) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
// CHECK-NEXT: return %[[A]]
// An axis other than 0 is moved first with one transpose.
// AXIS1-LABEL: func @elementwise_vmap
// AXIS1-SAME: (%[[X:.*]]: tensor<4x3xf32>, %[[Y:.*]]: tensor<4x3xf32>) -> tensor<3x4xf32>
// AXIS1-NEXT: %[[TX:.*]] = "hlo.transpose"(%[[X]]) {permutation = array<i64: 1, 0>}
// AXIS1-NEXT: %[[TY:.*]] = "hlo.transpose"(%[[Y]]) {permutation = array<i64: 1, 0>}
// AXIS1-NEXT: "hlo.add"(%[[TX]], %[[TY]])
func.func @elementwise(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %a = "hlo.add"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %a : tensor<4xf32>
}

// -----

// Both operands batched: the batch dim becomes a batching dimension of dot_general.
// CHECK-LABEL: func @matmul_vmap
// CHECK-NEXT: %[[D:.*]] = "hlo.dot_general"(%arg0, %arg1) {lhs_batching_dimensions = array<i64: 0>, lhs_contracting_dimensions = array<i64: 2>, rhs_batching_dimensions = array<i64: 0>, rhs_contracting_dimensions = array<i64: 1>} : (tensor<3x2x3xf32>, tensor<3x3x4xf32>) -> tensor<3x2x4xf32>
// CHECK-NOT: hlo.transpose
// CHECK-NEXT: return %[[D]]
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %d = "hlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %d : tensor<2x4xf32>
}

// -----

// A reduction keeps the batch dim: its dimensions shift by one; the constant stays unbatched.
// CHECK-LABEL: func @reduce_vmap
// CHECK-NEXT: %[[Z:.*]] = "hlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
// CHECK-NEXT: "hlo.reduce"(%arg0, %[[Z]]) {dimensions = array<i64: 2>, kind = "add"} : (tensor<3x3x4xf32>, tensor<f32>) -> tensor<3x3xf32>
func.func @reduce(%x: tensor<3x4xf32>) -> tensor<3xf32> {
  %z = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %r = "hlo.reduce"(%x, %z) {dimensions = array<i64: 1>, kind = "add"} : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// A batched predicate turns scf.if into a select of both branches.
// Axis 1 of a 0-d argument does not exist.
// ERR: hlo-vmap.mlir:[[@LINE+7]]:1: error: in-axes entry 1 is out of range for an argument of rank 0
// CHECK-LABEL: func @cond_vmap
// CHECK: %[[P:.*]] = "hlo.compare"(%arg0, %{{.*}}) {comparison_direction = "GT"} : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
// CHECK-NEXT: %[[N:.*]] = "hlo.negate"(%arg0) : (tensor<3xf32>) -> tensor<3xf32>
// CHECK-NEXT: %[[S:.*]] = "hlo.select"(%[[P]], %[[N]], %arg0)
// CHECK-NOT: scf.if
// CHECK-NEXT: return %[[S]]
func.func @cond(%x: tensor<f32>) -> tensor<f32> {
  %z = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %p = "hlo.compare"(%x, %z) {comparison_direction = "GT"} : (tensor<f32>, tensor<f32>) -> tensor<i1>
  %c = tensor.extract %p[] : tensor<i1>
  %r = scf.if %c -> tensor<f32> {
    %n = "hlo.negate"(%x) : (tensor<f32>) -> tensor<f32>
    scf.yield %n : tensor<f32>
  } else {
    scf.yield %x : tensor<f32>
  }
  return %r : tensor<f32>
}

// -----

// An unbatched predicate keeps the scf.if; its results are batched because a branch is.
// CHECK-LABEL: func @cond_unbatched_predicate_vmap
// CHECK: %[[C:.*]] = tensor.extract %{{.*}}[] : tensor<i1>
// CHECK-NEXT: scf.if %[[C]] -> (tensor<3x2xf32>)
// CHECK-NEXT: "hlo.negate"(%arg0) : (tensor<3x2xf32>) -> tensor<3x2xf32>
// CHECK: } else {
// CHECK-NEXT: %[[K:.*]] = "hlo.constant"
// CHECK-NEXT: %[[B:.*]] = "hlo.broadcast_in_dim"(%[[K]]) {broadcast_dimensions = array<i64: 1>} : (tensor<2xf32>) -> tensor<3x2xf32>
// CHECK-NEXT: scf.yield %[[B]]
func.func @cond_unbatched_predicate(%x: tensor<2xf32>) -> tensor<2xf32> {
  %t = "hlo.constant"() {value = dense<true> : tensor<i1>} : () -> tensor<i1>
  %c = tensor.extract %t[] : tensor<i1>
  %r = scf.if %c -> tensor<2xf32> {
    %n = "hlo.negate"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %n : tensor<2xf32>
  } else {
    %k = "hlo.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
    scf.yield %k : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

// A batched loop predicate: loop while any example's holds, carry the per-example predicate
// to the body and keep the carries of the examples whose loop has ended.
// ERR: hlo-vmap.mlir:[[@LINE+11]]:1: error: in-axes entry 1 is out of range for an argument of rank 0
// CHECK-LABEL: func @count_vmap
// CHECK: scf.while (%[[I:.*]] = %{{.*}}) : (tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi1>)
// CHECK-NEXT: %[[P:.*]] = "hlo.compare"(%[[I]], %arg0) {comparison_direction = "LT"} : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi1>
// CHECK: %[[ANY:.*]] = "hlo.reduce"(%[[P]], %{{.*}}) {dimensions = array<i64: 0>, kind = "or"}
// CHECK-NEXT: %[[GO:.*]] = tensor.extract %[[ANY]][]
// CHECK-NEXT: scf.condition(%[[GO]]) %[[I]], %[[P]]
// CHECK: ^bb0(%[[J:.*]]: tensor<3xi32>, %[[Q:.*]]: tensor<3xi1>):
// CHECK: %[[K:.*]] = "hlo.add"(%[[J]], %{{.*}})
// CHECK-NEXT: %[[S:.*]] = "hlo.select"(%[[Q]], %[[K]], %[[J]])
// CHECK-NEXT: scf.yield %[[S]]
func.func @count(%n: tensor<i32>) -> tensor<i32> {
  %z = "hlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %one = "hlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
  %r = scf.while (%i = %z) : (tensor<i32>) -> tensor<i32> {
    %p = "hlo.compare"(%i, %n) {comparison_direction = "LT"} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c = tensor.extract %p[] : tensor<i1>
    scf.condition(%c) %i : tensor<i32>
  } do {
  ^bb0(%j: tensor<i32>):
    %k = "hlo.add"(%j, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    scf.yield %k : tensor<i32>
  }
  return %r : tensor<i32>
}
