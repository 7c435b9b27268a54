// RUN: not mlc-opt %s --split-input-file --hlo-grad 2>/dev/null | FileCheck %s
// RUN: not mlc-opt %s --split-input-file --hlo-grad 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR

// Fan-out: %x feeds two ops, so its cotangent is the sum of both contributions.
// CHECK-LABEL: func @fan_out_grad
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[CT:.*]]: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
// CHECK: %[[S:.*]] = "hlo.sine"(%[[X]])
// CHECK: %[[M:.*]] = "hlo.multiply"(%[[S]], %[[X]])
// CHECK-NEXT: %[[CT_S:.*]] = "hlo.multiply"(%[[CT]], %[[X]])
// CHECK-NEXT: %[[DIRECT:.*]] = "hlo.multiply"(%[[CT]], %[[S]])
// CHECK-NEXT: %[[COS:.*]] = "hlo.cosine"(%[[X]])
// CHECK-NEXT: %[[VIA_SINE:.*]] = "hlo.multiply"(%[[CT_S]], %[[COS]])
// CHECK-NEXT: %[[SUM:.*]] = "hlo.add"(%[[DIRECT]], %[[VIA_SINE]])
// CHECK-NEXT: return %[[M]], %[[SUM]]
func.func @fan_out(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = "hlo.sine"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %m = "hlo.multiply"(%s, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}

// -----

// An argument that does not reach the result gets a zero constant; an integer
// argument gets no cotangent at all.
// CHECK-LABEL: func @symbolic_zero_grad
// CHECK-SAME: -> (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
// CHECK: %[[E:.*]] = "hlo.exponential"
// CHECK-NEXT: %[[G:.*]] = "hlo.multiply"(%{{.*}}, %[[E]])
// CHECK-NEXT: %[[Z:.*]] = "hlo.constant"() {value = dense<0.000000e+00> : tensor<3xf32>}
// CHECK-NEXT: return %[[E]], %[[G]], %[[Z]]
func.func @symbolic_zero(%x: tensor<3xf32>, %y: tensor<3xf32>, %n: tensor<3xi32>) -> tensor<3xf32> {
  %e = "hlo.exponential"(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %e : tensor<3xf32>
}

// -----

// dot_general: each operand's cotangent is a dot_general of the cotangent with the other,
// laid out so that a plain matmul needs no transpose.
// CHECK-LABEL: func @matmul_grad
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>, %[[CT:.*]]: tensor<2x4xf32>)
// CHECK: %[[GA:.*]] = "hlo.dot_general"(%[[CT]], %[[B]]) {{.*}}lhs_contracting_dimensions = array<i64: 1>{{.*}}rhs_contracting_dimensions = array<i64: 1>
// CHECK-NEXT: %[[GB:.*]] = "hlo.dot_general"(%[[A]], %[[CT]]) {{.*}}lhs_contracting_dimensions = array<i64: 0>{{.*}}rhs_contracting_dimensions = array<i64: 0>{{.*}} -> tensor<3x4xf32>
// CHECK-NOT: hlo.transpose
// CHECK-NEXT: return %{{.*}}, %[[GA]], %[[GB]]
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %d = "hlo.dot_general"(%a, %b) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %d : tensor<2x4xf32>
}

// -----

// broadcast_in_dim's transpose sums over the broadcast dimension.
// CHECK-LABEL: func @broadcast_grad
// CHECK: %[[G:.*]] = "hlo.reduce"(%arg1, %{{.*}}) {dimensions = array<i64: 0>, kind = "add"} : (tensor<2x3xf32>, tensor<f32>) -> tensor<3xf32>
// CHECK-NEXT: return %{{.*}}, %[[G]]
func.func @broadcast(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %b = "hlo.broadcast_in_dim"(%x) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
  return %b : tensor<2x3xf32>
}

// -----

// reduce max: the cotangent is shared by the elements equal to the maximum.
// CHECK-LABEL: func @reduce_max_grad
// CHECK: %[[MAX:.*]] = "hlo.reduce"(%arg0, %{{.*}}) {{.*}}kind = "max"
// CHECK: %[[HIT:.*]] = "hlo.compare"(%arg0, %{{.*}}) {comparison_direction = "EQ"}
// CHECK: %[[ONES:.*]] = "hlo.select"(%[[HIT]]
// CHECK: %[[COUNT:.*]] = "hlo.reduce"(%[[ONES]], %{{.*}}) {{.*}}kind = "add"
// CHECK: %[[SHARE:.*]] = "hlo.divide"(%[[ONES]], %{{.*}})
// CHECK-NEXT: %[[G:.*]] = "hlo.multiply"(%{{.*}}, %[[SHARE]])
// CHECK-NEXT: return %[[MAX]], %[[G]]
func.func @reduce_max(%x: tensor<4xf32>) -> tensor<f32> {
  %init = "hlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %m = "hlo.reduce"(%x, %init) {dimensions = array<i64: 0>, kind = "max"} : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  return %m : tensor<f32>
}

// -----

// A stop_gradient marker passes no cotangent.
// CHECK-LABEL: func @stop_gradient_grad
// CHECK: %[[S:.*]] = "hlo.reshape"(%arg0) {mlc.autodiff = "stop_gradient"}
// CHECK: "hlo.multiply"(%arg1, %arg0)
// CHECK-NEXT: %[[G:.*]] = "hlo.multiply"(%arg1, %[[S]])
// CHECK-NEXT: return %{{.*}}, %[[G]]
func.func @stop_gradient(%x: tensor<4xf32>) -> tensor<4xf32> {
  %s = "hlo.reshape"(%x) {mlc.autodiff = "stop_gradient"} : (tensor<4xf32>) -> tensor<4xf32>
  %m = "hlo.multiply"(%s, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %m : tensor<4xf32>
}

// -----

// scf.if: a new scf.if whose branches recompute and differentiate their branch.
// CHECK-LABEL: func @cond_grad
// CHECK: %[[FWD:.*]] = scf.if %arg0
// CHECK: %[[BWD:.*]] = scf.if %arg0 -> (tensor<4xf32>)
// CHECK: %[[T:.*]] = "hlo.tanh"(%arg1)
// CHECK: "hlo.multiply"(%arg2, %{{.*}})
// CHECK: } else {
// CHECK-NEXT: scf.yield %arg2
// CHECK: return %[[FWD]], %[[BWD]]
func.func @cond(%p: i1, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = scf.if %p -> tensor<4xf32> {
    %t = "hlo.tanh"(%x) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %t : tensor<4xf32>
  } else {
    scf.yield %x : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// A loop with a static trip count (3): a forward loop stores the carries, a backward loop
// walks the iterations from the last.
// CHECK-LABEL: func @static_loop_grad
// CHECK: %[[STACK:.*]] = "hlo.constant"() {value = dense<0.000000e+00> : tensor<3x2xf32>}
// CHECK: %[[STORED:.*]]:4 = scf.while
// CHECK: "hlo.dynamic_update_slice"
// CHECK: %[[BWD:.*]]:2 = scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %arg1)
// CHECK: %[[LAST:.*]] = "hlo.subtract"
// CHECK: "hlo.dynamic_slice"(%[[STORED]]#3, %[[LAST]]
// CHECK: "hlo.cosine"
// CHECK: return %{{.*}}, %[[BWD]]#1
func.func @static_loop(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c0 = "hlo.constant"() {value = dense<0> : tensor<i32>} : () -> tensor<i32>
  %r:2 = scf.while (%i = %c0, %c = %x) : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>) {
    %n = "hlo.constant"() {value = dense<3> : tensor<i32>} : () -> tensor<i32>
    %lt = "hlo.compare"(%i, %n) {comparison_direction = "LT"} : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %b = tensor.extract %lt[] : tensor<i1>
    scf.condition(%b) %i, %c : tensor<i32>, tensor<2xf32>
  } do {
  ^bb0(%i: tensor<i32>, %c: tensor<2xf32>):
    %one = "hlo.constant"() {value = dense<1> : tensor<i32>} : () -> tensor<i32>
    %j = "hlo.add"(%i, %one) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    %s = "hlo.sine"(%c) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %j, %s : tensor<i32>, tensor<2xf32>
  }
  return %r#1 : tensor<2xf32>
}

// -----

// A call is differentiated through a copy of the callee's body.
// CHECK-LABEL: func @call_grad
// CHECK-SAME: (%[[X:.*]]: tensor<3xf32>, %[[CT:.*]]: tensor<3xf32>)
// CHECK: %[[R:.*]] = call @square(%[[X]])
// CHECK-NEXT: "hlo.multiply"(%[[X]], %[[X]])
// CHECK-NEXT: %[[A:.*]] = "hlo.multiply"(%[[CT]], %[[X]])
// CHECK-NEXT: %[[B:.*]] = "hlo.multiply"(%[[CT]], %[[X]])
// CHECK-NEXT: %[[G:.*]] = "hlo.add"(%[[A]], %[[B]])
// CHECK-NEXT: return %[[R]], %[[G]]
func.func private @square(%x: tensor<3xf32>) -> tensor<3xf32> {
  %m = "hlo.multiply"(%x, %x) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %m : tensor<3xf32>
}
func.func @call(%x: tensor<3xf32>) -> tensor<3xf32> {
  %r = func.call @square(%x) : (tensor<3xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}

// -----

// A data-dependent trip count cannot be differentiated in reverse mode.
// CHECK-NOT: func @dynamic_loop_grad
// ERR: error: Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic start/stop values.
func.func @dynamic_loop(%x: tensor<f32>) -> tensor<f32> {
  %r = scf.while (%c = %x) : (tensor<f32>) -> tensor<f32> {
    %ten = "hlo.constant"() {value = dense<10.0> : tensor<f32>} : () -> tensor<f32>
    %lt = "hlo.compare"(%c, %ten) {comparison_direction = "LT"} : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %b = tensor.extract %lt[] : tensor<i1>
    scf.condition(%b) %c : tensor<f32>
  } do {
  ^bb0(%c: tensor<f32>):
    %d = "hlo.add"(%c, %c) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    scf.yield %d : tensor<f32>
  }
  return %r : tensor<f32>
}
