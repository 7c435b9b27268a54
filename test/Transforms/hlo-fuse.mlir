// RUN: mlc-opt %s --split-input-file --hlo-fuse | FileCheck %s
// RUN: mlc-opt %s --split-input-file --hlo-fuse --fusion-report | FileCheck %s --check-prefix=REPORT
// RUN: mlc-opt %S/Inputs/fusion-dot.mlir --hlo-fuse --fusion-dot %t.dot > /dev/null && FileCheck %S/Inputs/fusion-dot.mlir --check-prefix=DOT < %t.dot
// RUN: not mlc-opt %s --hlo-fuse=max-size=1 2>&1 | FileCheck %s --check-prefix=BADOPT

// BADOPT: option max-size must be >= 2, got 1

// The seed example: the multiply and add run inside the reduction ("input" fusion).
// CHECK-LABEL: func @model_fn
// CHECK-NEXT: %[[R:.*]] = call @model_fn_fusion_0(%arg0, %arg1, %arg2)
// CHECK-NEXT: return %[[R]]
// CHECK: func.func private @model_fn_fusion_0({{.*}}) -> tensor<f32> attributes {hlo.fusion_kind = "input"}
// CHECK-NEXT: "hlo.multiply"
// CHECK-NEXT: "hlo.add"
// CHECK-NEXT: "hlo.constant"
// CHECK-NEXT: "hlo.reduce"
// REPORT: fusion model_fn_fusion_0 kind=input ops=[multiply, add, constant, reduce] inputs=3 outputs=1 bytes_read=96 bytes_written=4
func.func @model_fn(%x: tensor<8xf32>, %y: tensor<8xf32>, %z: tensor<8xf32>) -> tensor<f32> {
  %0 = "hlo.multiply"(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = "hlo.add"(%0, %z) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %init = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %2 = "hlo.reduce"(%1, %init) {dimensions = array<i64: 0>, kind = "add"} : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  return %2 : tensor<f32>
}

// -----

// An elementwise chain with a broadcast and a transpose is one "loop" fusion.
// CHECK-LABEL: func @loop_chain
// CHECK-NEXT: call @loop_chain_fusion_0
// CHECK: attributes {hlo.fusion_kind = "loop"}
// CHECK: hlo.broadcast_in_dim
// CHECK: hlo.transpose
// CHECK: hlo.tanh
// REPORT: fusion loop_chain_fusion_0 kind=loop ops=[broadcast_in_dim, add, transpose, tanh]
func.func @loop_chain(%x: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<3x2xf32> {
  %0 = "hlo.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 1>} : (tensor<3xf32>) -> tensor<2x3xf32>
  %1 = "hlo.add"(%x, %0) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = "hlo.transpose"(%1) {permutation = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %3 = "hlo.tanh"(%2) : (tensor<3x2xf32>) -> tensor<3x2xf32>
  return %3 : tensor<3x2xf32>
}

// -----

// A matmul with its bias and relu epilogue is one "output" fusion.
// CHECK-LABEL: func @dense_relu
// CHECK: attributes {hlo.fusion_kind = "output"}
// CHECK: hlo.dot_general
// CHECK: hlo.add
// CHECK: hlo.maximum
func.func @dense_relu(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>, %b: tensor<4x16xf32>) -> tensor<4x16xf32> {
  %0 = "hlo.dot_general"(%x, %w) {lhs_batching_dimensions = array<i64>, rhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
  %1 = "hlo.add"(%0, %b) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  %z = "hlo.constant"() {value = dense<0.0> : tensor<4x16xf32>} : () -> tensor<4x16xf32>
  %2 = "hlo.maximum"(%1, %z) : (tensor<4x16xf32>, tensor<4x16xf32>) -> tensor<4x16xf32>
  return %2 : tensor<4x16xf32>
}

// -----

// exp with two users is never computed twice: it joins the first consumer's fusion as a
// second result (multi-output fusion), which the other consumer reads.
// CHECK-LABEL: func @expensive_two_users
// CHECK-NEXT: %[[F:.*]]:2 = call @expensive_two_users_fusion_0(%arg0)
// CHECK-NEXT: "hlo.abs"(%[[F]]#0)
// CHECK-NEXT: return %[[F]]#1
// CHECK-LABEL: func.func private @expensive_two_users_fusion_0
// CHECK: hlo.exponential
// CHECK-NOT: hlo.exponential
// CHECK: return
func.func @expensive_two_users(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = "hlo.exponential"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %a = "hlo.negate"(%e) : (tensor<8xf32>) -> tensor<8xf32>
  %b = "hlo.abs"(%e) : (tensor<8xf32>) -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}

// -----

// A cheap broadcast of a scalar with two users is copied into both fusions.
// CHECK-LABEL: func @cheap_broadcast_copied
// CHECK-COUNT-2: call @cheap_broadcast_copied_fusion
// CHECK-COUNT-2: hlo.broadcast_in_dim
func.func @cheap_broadcast_copied(%x: tensor<8xf32>, %s: tensor<f32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %b = "hlo.broadcast_in_dim"(%s) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<8xf32>
  %0 = "hlo.add"(%x, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = "hlo.multiply"(%x, %b) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// %p feeds %c both directly and through %q, which has a user outside: fusing %p into %c's
// group alone would create a cycle (the group would need %q, which needs %p), so it stays.
// CHECK-LABEL: func @would_create_cycle
// CHECK: "hlo.negate"(%arg0)
// CHECK: return
func.func @would_create_cycle(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %p = "hlo.negate"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  %q = "hlo.abs"(%p) : (tensor<8xf32>) -> tensor<8xf32>
  %c = "hlo.add"(%p, %q) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  return %c, %q : tensor<8xf32>, tensor<8xf32>
}

// -----

// Ops the pass does not know (sort) and a reduce's consumer with another iteration space
// are not fused into each other; nothing here fuses.
// CHECK-LABEL: func @not_fusible
// CHECK-NOT: call
// CHECK: hlo.sort
// REPORT: fusions: 0
func.func @not_fusible(%x: tensor<8xf32>) -> tensor<8xf32> {
  %s = "hlo.sort"(%x) {dimension = 0 : i64} : (tensor<8xf32>) -> tensor<8xf32>
  %r = "hlo.reverse"(%s) {dimensions = array<i64: 0>} : (tensor<8xf32>) -> tensor<8xf32>
  return %s : tensor<8xf32>
}

// -----

// Sibling (multi-output) fusion: two reductions of the same 64x32 input, independent of
// each other, become one "input" fusion returning both results.
// CHECK-LABEL: func @sibling_reductions
// CHECK-NEXT: %[[R:.*]]:2 = call @sibling_reductions_fusion_0(%arg0)
// CHECK-NEXT: return %[[R]]#0, %[[R]]#1
// CHECK: func.func private @sibling_reductions_fusion_0({{.*}}) -> (tensor<64xf32>, tensor<64xf32>) attributes {hlo.fusion_kind = "input"}
// CHECK: hlo.exponential
// CHECK: "hlo.reduce"{{.*}}kind = "add"
// CHECK: "hlo.reduce"{{.*}}kind = "max"
// REPORT: fusion sibling_reductions_fusion_0 kind=input ops=[constant, constant, exponential, reduce, reduce] inputs=1 outputs=2
func.func @sibling_reductions(%x: tensor<64x32xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %zero = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %ninf = "hlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %e = "hlo.exponential"(%x) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  %s = "hlo.reduce"(%e, %zero) {dimensions = array<i64: 1>, kind = "add"} : (tensor<64x32xf32>, tensor<f32>) -> tensor<64xf32>
  %m = "hlo.reduce"(%x, %ninf) {dimensions = array<i64: 1>, kind = "max"} : (tensor<64x32xf32>, tensor<f32>) -> tensor<64xf32>
  return %s, %m : tensor<64xf32>, tensor<64xf32>
}

// -----

// Not siblings: the second reduction reads the first one's result (merging would make a
// cycle through the call), and small inputs (8 elements) are not worth a merge either.
// CHECK-LABEL: func @dependent_reductions
// CHECK: call @dependent_reductions_fusion_0
// CHECK: call @dependent_reductions_fusion_1
// CHECK-NOT: -> (tensor<64xf32>, tensor<64xf32>) attributes
func.func @dependent_reductions(%x: tensor<64x32xf32>) -> tensor<64xf32> {
  %zero = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %ninf = "hlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %m = "hlo.reduce"(%x, %ninf) {dimensions = array<i64: 1>, kind = "max"} : (tensor<64x32xf32>, tensor<f32>) -> tensor<64xf32>
  %b = "hlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<64xf32>) -> tensor<64x32xf32>
  %d = "hlo.subtract"(%x, %b) : (tensor<64x32xf32>, tensor<64x32xf32>) -> tensor<64x32xf32>
  %e = "hlo.exponential"(%d) : (tensor<64x32xf32>) -> tensor<64x32xf32>
  %s = "hlo.reduce"(%e, %zero) {dimensions = array<i64: 1>, kind = "add"} : (tensor<64x32xf32>, tensor<f32>) -> tensor<64xf32>
  return %s : tensor<64xf32>
}

// -----

// Reduction epilogue: mean = sum / n joins the reduction's "input" fusion (the divide works
// on the reduced shape). A consumer on a broadcast back to the input shape does not.
// CHECK-LABEL: func @mean_epilogue
// CHECK: func.func private @mean_epilogue_fusion_0({{.*}}) -> tensor<64xf32> attributes {hlo.fusion_kind = "input"}
// CHECK: "hlo.reduce"
// CHECK-NEXT: "hlo.divide"
// CHECK-NEXT: return
// REPORT: fusion mean_epilogue_fusion_0 kind=input ops=[constant, constant, reduce, divide] inputs=1 outputs=1
func.func @mean_epilogue(%x: tensor<64x32xf32>) -> tensor<64xf32> {
  %zero = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %n = "hlo.constant"() {value = dense<32.0> : tensor<64xf32>} : () -> tensor<64xf32>
  %s = "hlo.reduce"(%x, %zero) {dimensions = array<i64: 1>, kind = "add"} : (tensor<64x32xf32>, tensor<f32>) -> tensor<64xf32>
  %mean = "hlo.divide"(%s, %n) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %mean : tensor<64xf32>
}

// -----

// A broadcast of a computed scalar is copied into both consumer fusions and stays in the
// caller with the op it reads: were it fused with %n, the copies would read a value that
// moved into another function ("func.call op using value defined outside the region").
// CHECK-LABEL: func @copied_broadcast_stays
// CHECK: %[[N:.*]] = "hlo.negate"(%arg1)
// CHECK: call @copied_broadcast_stays_fusion_{{[0-9]+}}({{.*}}%[[N]]
// CHECK: call @copied_broadcast_stays_fusion_{{[0-9]+}}({{.*}}%[[N]]
func.func @copied_broadcast_stays(%x: tensor<4xf32>, %s: tensor<f32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %n = "hlo.negate"(%s) : (tensor<f32>) -> tensor<f32>
  %b = "hlo.broadcast_in_dim"(%n) {broadcast_dimensions = array<i64>} : (tensor<f32>) -> tensor<4xf32>
  %e = "hlo.exponential"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  %a = "hlo.add"(%e, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  %m = "hlo.multiply"(%e, %b) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %a, %m : tensor<4xf32>, tensor<4xf32>
}

// -----

// The cost model, contractions: the elementwise producer of a matmul operand (GELU here)
// would be recomputed once per output column inside the matmul; it is its own fusion,
// materialized once, and the matmul takes only its epilogue (the bias add).
// CHECK-LABEL: func @matmul_operand_not_recomputed
// CHECK: %[[G:.*]] = call @matmul_operand_not_recomputed_fusion_0(%arg0)
// CHECK: call @matmul_operand_not_recomputed_fusion_1(%[[G]], %arg1, %arg2)
// CHECK: func.func private @matmul_operand_not_recomputed_fusion_1({{.*}}) {{.*}} {hlo.fusion_kind = "output"}
// CHECK-NEXT: hlo.dot_general
// CHECK-NEXT: hlo.add
// CHECK-NEXT: return
// CHECK: func.func private @matmul_operand_not_recomputed_fusion_0({{.*}}) {{.*}} {hlo.fusion_kind = "loop"}
// CHECK: hlo.tanh
// CHECK: hlo.multiply
func.func @matmul_operand_not_recomputed(%x: tensor<16x32xf32>, %w: tensor<32x64xf32>, %b: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %t = "hlo.tanh"(%x) : (tensor<16x32xf32>) -> tensor<16x32xf32>
  %g = "hlo.multiply"(%x, %t) : (tensor<16x32xf32>, tensor<16x32xf32>) -> tensor<16x32xf32>
  %d = "hlo.dot_general"(%g, %w) {lhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_batching_dimensions = array<i64>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<16x32xf32>, tensor<32x64xf32>) -> tensor<16x64xf32>
  %r = "hlo.add"(%d, %b) : (tensor<16x64xf32>, tensor<16x64xf32>) -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// The cost model, broadcasts: an rsqrt read through a [4] -> [4, 256] broadcast would be
// evaluated 256 times per element in the merged kernel; it stays outside (one small
// kernel, with the reduce it follows), and only the free broadcast joins the consumer.
// CHECK-LABEL: func @expensive_through_broadcast
// CHECK: %[[S:.*]] = call @expensive_through_broadcast_fusion_0(%arg0)
// CHECK: call @expensive_through_broadcast_fusion_1(%[[S]], %arg0)
// CHECK: func.func private @expensive_through_broadcast_fusion_1({{.*}}) {{.*}} {hlo.fusion_kind = "loop"}
// CHECK-NOT: hlo.rsqrt
// CHECK: hlo.broadcast_in_dim
// CHECK: hlo.multiply
// CHECK: func.func private @expensive_through_broadcast_fusion_0({{.*}}) {{.*}} {hlo.fusion_kind = "input"}
// CHECK: hlo.reduce
// CHECK: hlo.rsqrt
func.func @expensive_through_broadcast(%x: tensor<4x256xf32>) -> tensor<4x256xf32> {
  %zero = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %s = "hlo.reduce"(%x, %zero) {dimensions = array<i64: 1>, kind = "add"} : (tensor<4x256xf32>, tensor<f32>) -> tensor<4xf32>
  %r = "hlo.rsqrt"(%s) : (tensor<4xf32>) -> tensor<4xf32>
  %b = "hlo.broadcast_in_dim"(%r) {broadcast_dimensions = array<i64: 0>} : (tensor<4xf32>) -> tensor<4x256xf32>
  %y = "hlo.multiply"(%x, %b) : (tensor<4x256xf32>, tensor<4x256xf32>) -> tensor<4x256xf32>
  return %y : tensor<4x256xf32>
}

// -----

// The cost model, several users: tanh and the add each used twice in one kernel are still
// computed once per element (the fused loop keeps one copy of a value whatever uses it):
// the whole chain is one fusion. (Read through a broadcast, an expensive producer would be
// repeated per broadcast element: @expensive_through_broadcast above.)
// CHECK-LABEL: func @shared_producers
// CHECK: call @shared_producers_fusion_0(%arg0, %arg1)
// CHECK: func.func private @shared_producers_fusion_0
// CHECK: hlo.tanh
// CHECK: hlo.add
// CHECK: hlo.multiply
// CHECK: hlo.exponential
// CHECK: hlo.multiply
// CHECK-NEXT: return
func.func @shared_producers(%x: tensor<64xf32>, %y: tensor<64xf32>) -> tensor<64xf32> {
  %t = "hlo.tanh"(%x) : (tensor<64xf32>) -> tensor<64xf32>
  %a = "hlo.add"(%t, %y) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %m = "hlo.multiply"(%a, %a) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  %e = "hlo.exponential"(%m) : (tensor<64xf32>) -> tensor<64xf32>
  %r = "hlo.multiply"(%e, %t) : (tensor<64xf32>, tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// Producer-consumer multi-output fusion: m' leaves the function and feeds w', so it
// becomes a second result of w''s fusion (one kernel writes both, nothing is read back).
// CHECK-LABEL: func @multi_output_producer
// CHECK-NEXT: %[[F:.*]]:2 = call @multi_output_producer_fusion_0(%arg0, %arg1, %arg2)
// CHECK-NEXT: return %[[F]]#1, %[[F]]#0
// CHECK-LABEL: func.func private @multi_output_producer_fusion_0
// CHECK: %[[M:.*]] = "hlo.add"
// CHECK: %[[W:.*]] = "hlo.subtract"(%arg2, %[[M]])
// CHECK: return %[[M]], %[[W]]
func.func @multi_output_producer(%m: tensor<16xf32>, %g: tensor<16xf32>, %w: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %m2 = "hlo.add"(%m, %g) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  %w2 = "hlo.subtract"(%w, %m2) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %w2, %m2 : tensor<16xf32>, tensor<16xf32>
}

// -----

// Not fused: exp's other user (a sort, which never fuses) comes before the add that roots
// the group, so the fusion's call could not sit at the add and also feed the sort.
// CHECK-LABEL: func @multi_output_user_before_root
// CHECK-NEXT: %[[E:.*]] = "hlo.exponential"(%arg0)
// CHECK-NEXT: %[[S:.*]] = "hlo.sort"(%[[E]])
// CHECK-NEXT: call @multi_output_user_before_root_fusion_0(%[[E]], %[[S]])
func.func @multi_output_user_before_root(%x: tensor<16xf32>) -> tensor<16xf32> {
  %e = "hlo.exponential"(%x) : (tensor<16xf32>) -> tensor<16xf32>
  %s = "hlo.sort"(%e) {dimension = 0} : (tensor<16xf32>) -> tensor<16xf32>
  %n = "hlo.negate"(%e) : (tensor<16xf32>) -> tensor<16xf32>
  %r = "hlo.add"(%n, %s) : (tensor<16xf32>, tensor<16xf32>) -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// A gather fuses into its elementwise consumer (embedding * scale + positions: one kernel
// instead of a gathered temporary read back); its operands stay outside (read at
// data-dependent rows, never recomputed per element).
// CHECK-LABEL: func @gather_into_consumer
// CHECK: %[[T:.*]] = "hlo.exponential"(%arg0)
// CHECK: call @gather_into_consumer_fusion_0(%[[T]], %arg1, %arg2)
// CHECK-LABEL: func.func private @gather_into_consumer_fusion_0
// CHECK: hlo.gather
// CHECK: hlo.add
func.func @gather_into_consumer(%table: tensor<64x8xf32>, %ids: tensor<5x1xi32>, %pos: tensor<5x8xf32>) -> tensor<5x8xf32> {
  %t = "hlo.exponential"(%table) : (tensor<64x8xf32>) -> tensor<64x8xf32>
  %g = "hlo.gather"(%t, %ids) {offset_dims = array<i64: 1>, collapsed_slice_dims = array<i64: 0>, start_index_map = array<i64: 0>, index_vector_dim = 1, slice_sizes = array<i64: 1, 8>} : (tensor<64x8xf32>, tensor<5x1xi32>) -> tensor<5x8xf32>
  %r = "hlo.add"(%g, %pos) : (tensor<5x8xf32>, tensor<5x8xf32>) -> tensor<5x8xf32>
  return %r : tensor<5x8xf32>
}

// -----

// A cheap elementwise producer of a materialized value (s = dot * 0.125) feeding two
// fusions (softmax's max and exp-sum) is copied into both, with its constant: nobody
// writes s; the dot's result is read twice instead (2 x 4096 flops, within 2% of the
// function's ~600k: DUPLICATE_BUDGET).
// CHECK-LABEL: func @scaled_scores_duplicated
// CHECK: %[[D:.*]] = "hlo.dot_general"
// CHECK-NOT: "hlo.multiply"
// CHECK: %[[M:.*]] = call @scaled_scores_duplicated_fusion_0(%[[D]]) : (tensor<64x64xf32>) -> tensor<64xf32>
// CHECK: call @scaled_scores_duplicated_fusion_1(%[[D]], %[[M]])
// CHECK-LABEL: func.func private @scaled_scores_duplicated_fusion_1
// CHECK: "hlo.constant"
// CHECK: "hlo.multiply"
// CHECK: "hlo.exponential"
// CHECK-LABEL: func.func private @scaled_scores_duplicated_fusion_0
// CHECK: "hlo.constant"
// CHECK: "hlo.multiply"
// CHECK: "hlo.reduce"
func.func @scaled_scores_duplicated(%q: tensor<64x64xf32>, %k: tensor<64x64xf32>) -> tensor<64xf32> {
  %d = "hlo.dot_general"(%q, %k) {lhs_batching_dimensions = array<i64>, lhs_contracting_dimensions = array<i64: 1>, rhs_batching_dimensions = array<i64>, rhs_contracting_dimensions = array<i64: 0>} : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %c = "hlo.constant"() {value = dense<1.250000e-01> : tensor<64x64xf32>} : () -> tensor<64x64xf32>
  %s = "hlo.multiply"(%d, %c) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %ninf = "hlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %m = "hlo.reduce"(%s, %ninf) {dimensions = array<i64: 1>, kind = "max"} : (tensor<64x64xf32>, tensor<f32>) -> tensor<64xf32>
  %mb = "hlo.broadcast_in_dim"(%m) {broadcast_dimensions = array<i64: 0>} : (tensor<64xf32>) -> tensor<64x64xf32>
  %z = "hlo.subtract"(%s, %mb) : (tensor<64x64xf32>, tensor<64x64xf32>) -> tensor<64x64xf32>
  %e = "hlo.exponential"(%z) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %zero = "hlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %r = "hlo.reduce"(%e, %zero) {dimensions = array<i64: 1>, kind = "add"} : (tensor<64x64xf32>, tensor<f32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// Not duplicated: an expensive producer (exp) read by two reductions is computed once and
// stored (a multi-output fusion), and so is a cheap one whose operand is itself fused
// arithmetic (copying it would drag its producers along).
// CHECK-LABEL: func @expensive_not_duplicated
// CHECK: %[[F:.*]]:2 = call @expensive_not_duplicated_fusion_0(%arg0)
// CHECK: call @expensive_not_duplicated_fusion_1(%[[F]]#0)
func.func @expensive_not_duplicated(%x: tensor<64x64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %e = "hlo.exponential"(%x) : (tensor<64x64xf32>) -> tensor<64x64xf32>
  %zero = "hlo.constant"() {value = dense<0.000000e+00> : tensor<f32>} : () -> tensor<f32>
  %a = "hlo.reduce"(%e, %zero) {dimensions = array<i64: 1>, kind = "add"} : (tensor<64x64xf32>, tensor<f32>) -> tensor<64xf32>
  %ninf = "hlo.constant"() {value = dense<0xFF800000> : tensor<f32>} : () -> tensor<f32>
  %b = "hlo.reduce"(%e, %ninf) {dimensions = array<i64: 1>, kind = "max"} : (tensor<64x64xf32>, tensor<f32>) -> tensor<64xf32>
  return %a, %b : tensor<64xf32>, tensor<64xf32>
}

// -----

// The branches of an scf.if (lax.cond) are fused like a function body, each on its own:
// values from outside the branch are the fusions' inputs; the names go on counting.
// CHECK-LABEL: func @in_branches
// CHECK: %[[P:.*]] = tensor.extract
// CHECK-NEXT: scf.if %[[P]]
// CHECK-NEXT: %[[A:.*]] = func.call @in_branches_fusion_0(%arg0, %arg1)
// CHECK-NEXT: scf.yield %[[A]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[B:.*]] = func.call @in_branches_fusion_1(%arg0, %arg1)
// CHECK-NEXT: scf.yield %[[B]]
// (Each fusion function goes right after the caller: the last one made comes first.)
// CHECK: func.func private @in_branches_fusion_1({{.*}}) -> tensor<8xf32> attributes {hlo.fusion_kind = "loop"}
// CHECK-NEXT: "hlo.subtract"
// CHECK-NEXT: "hlo.exponential"
// CHECK: func.func private @in_branches_fusion_0({{.*}}) -> tensor<8xf32> attributes {hlo.fusion_kind = "loop"}
// CHECK-NEXT: "hlo.multiply"
// CHECK-NEXT: "hlo.add"
func.func @in_branches(%x: tensor<8xf32>, %y: tensor<8xf32>, %p: tensor<i1>) -> tensor<8xf32> {
  %c = tensor.extract %p[] : tensor<i1>
  %r = scf.if %c -> (tensor<8xf32>) {
    %0 = "hlo.multiply"(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %1 = "hlo.add"(%0, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    scf.yield %1 : tensor<8xf32>
  } else {
    %0 = "hlo.subtract"(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
    %1 = "hlo.exponential"(%0) : (tensor<8xf32>) -> tensor<8xf32>
    scf.yield %1 : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
