// RUN: mlc-opt %s --split-input-file --hlo-combine-collectives | FileCheck %s
// RUN: mlc-opt %s --split-input-file --hlo-combine-collectives=threshold-bytes=24 | FileCheck %s --check-prefix=SMALL
// RUN: not mlc-opt %s --hlo-combine-collectives=threshold-bytes=-1 2>&1 | FileCheck %s --check-prefix=BADOPT

// BADOPT: threshold-bytes must be >= 0, got -1

// One all_reduce per gradient, independent: one all_reduce of the packed operands, each
// result a slice of it reshaped back; the user of the first result moves after it.
// CHECK-LABEL: func @gradients
// CHECK-NEXT: %[[A:.*]] = "hlo.reshape"(%arg0) : (tensor<2x3xf32>) -> tensor<6xf32>
// CHECK-NEXT: %[[C:.*]] = "hlo.reshape"(%arg2) : (tensor<f32>) -> tensor<1xf32>
// CHECK-NEXT: %[[PACKED:.*]] = tensor.concat dim(0) %[[A]], %arg1, %[[C]] : (tensor<6xf32>, tensor<4xf32>, tensor<1xf32>) -> tensor<11xf32>
// CHECK-NEXT: %[[SUM:.*]] = "hlo.all_reduce"(%[[PACKED]]) {kind = "add"} : (tensor<11xf32>) -> tensor<11xf32>
// CHECK-NEXT: %[[S0:.*]] = "hlo.slice"(%[[SUM]]) {limit_indices = array<i64: 6>, start_indices = array<i64: 0>
// CHECK-NEXT: %[[R0:.*]] = "hlo.reshape"(%[[S0]]) : (tensor<6xf32>) -> tensor<2x3xf32>
// CHECK-NEXT: %[[S1:.*]] = "hlo.slice"(%[[SUM]]) {limit_indices = array<i64: 10>, start_indices = array<i64: 6>
// CHECK-NEXT: %[[S2:.*]] = "hlo.slice"(%[[SUM]]) {limit_indices = array<i64: 11>, start_indices = array<i64: 10>
// CHECK-NEXT: %[[R2:.*]] = "hlo.reshape"(%[[S2]]) : (tensor<1xf32>) -> tensor<f32>
// CHECK-NEXT: %[[N:.*]] = "hlo.negate"(%[[R0]])
// CHECK-NEXT: return %[[N]], %[[S1]], %[[R2]]
// With 24 bytes: the 24-byte operand alone, then the 16- and 4-byte ones together.
// SMALL-LABEL: func @gradients
// SMALL: "hlo.all_reduce"(%arg0) {kind = "add"} : (tensor<2x3xf32>)
// SMALL: tensor.concat dim(0) %arg1, %{{.*}} : (tensor<4xf32>, tensor<1xf32>) -> tensor<5xf32>
// SMALL-NOT: "hlo.all_reduce"(%arg
// SMALL: return
func.func @gradients(%a: tensor<2x3xf32>, %b: tensor<4xf32>, %c: tensor<f32>) -> (tensor<2x3xf32>, tensor<4xf32>, tensor<f32>) {
  %0 = "hlo.all_reduce"(%a) {kind = "add"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %n = "hlo.negate"(%0) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "hlo.all_reduce"(%b) {kind = "add"} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "hlo.all_reduce"(%c) {kind = "add"} : (tensor<f32>) -> tensor<f32>
  return %n, %1, %2 : tensor<2x3xf32>, tensor<4xf32>, tensor<f32>
}

// -----

// Under the threshold (24 bytes with SMALL): 16 + 4 bytes combine, the next 16 do not fit
// and start a group of their own with the 4 after them.
// CHECK-LABEL: func @threshold
// CHECK-COUNT-1: "hlo.all_reduce"
// CHECK-NOT: "hlo.all_reduce"
// SMALL-LABEL: func @threshold
// SMALL: tensor.concat dim(0) %arg0, %{{.*}} : (tensor<4xf32>, tensor<1xf32>) -> tensor<5xf32>
// SMALL: "hlo.all_reduce"(%{{.*}}) {kind = "add"} : (tensor<5xf32>) -> tensor<5xf32>
// SMALL: tensor.concat dim(0) %arg2, %{{.*}} : (tensor<4xf32>, tensor<1xf32>) -> tensor<5xf32>
// SMALL: "hlo.all_reduce"(%{{.*}}) {kind = "add"} : (tensor<5xf32>) -> tensor<5xf32>
// SMALL-NOT: "hlo.all_reduce"
// SMALL: return
func.func @threshold(%a: tensor<4xf32>, %b: tensor<f32>, %c: tensor<4xf32>, %d: tensor<f32>) -> (tensor<4xf32>, tensor<f32>, tensor<4xf32>, tensor<f32>) {
  %0 = "hlo.all_reduce"(%a) {kind = "add"} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.all_reduce"(%b) {kind = "add"} : (tensor<f32>) -> tensor<f32>
  %2 = "hlo.all_reduce"(%c) {kind = "add"} : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "hlo.all_reduce"(%d) {kind = "add"} : (tensor<f32>) -> tensor<f32>
  return %0, %1, %2, %3 : tensor<4xf32>, tensor<f32>, tensor<4xf32>, tensor<f32>
}

// -----

// A single operand over the threshold (default 32 MiB; this one is 32 MiB + 4 bytes with
// the other) stays alone: nothing combines.
// CHECK-LABEL: func @over_threshold
// CHECK-NOT: tensor.concat
// CHECK: "hlo.all_reduce"(%arg0) {kind = "add"} : (tensor<8388608xf32>)
// CHECK: "hlo.all_reduce"(%arg1) {kind = "add"} : (tensor<1xf32>)
func.func @over_threshold(%a: tensor<8388608xf32>, %b: tensor<1xf32>) -> (tensor<8388608xf32>, tensor<1xf32>) {
  %0 = "hlo.all_reduce"(%a) {kind = "add"} : (tensor<8388608xf32>) -> tensor<8388608xf32>
  %1 = "hlo.all_reduce"(%b) {kind = "add"} : (tensor<1xf32>) -> tensor<1xf32>
  return %0, %1 : tensor<8388608xf32>, tensor<1xf32>
}

// -----

// Different reduction kinds do not combine.
// CHECK-LABEL: func @different_kinds
// CHECK-NOT: tensor.concat
// CHECK: "hlo.all_reduce"(%arg0) {kind = "add"}
// CHECK: "hlo.all_reduce"(%arg1) {kind = "max"}
func.func @different_kinds(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "hlo.all_reduce"(%a) {kind = "add"} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.all_reduce"(%b) {kind = "max"} : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %1 : tensor<4xf32>, tensor<4xf32>
}

// -----

// Different element types do not combine.
// CHECK-LABEL: func @different_types
// CHECK-NOT: tensor.concat
// CHECK: "hlo.all_reduce"(%arg0) {kind = "add"} : (tensor<4xf32>)
// CHECK: "hlo.all_reduce"(%arg1) {kind = "add"} : (tensor<4xf64>)
// CHECK: "hlo.all_reduce"(%arg2) {kind = "add"} : (tensor<4xi32>)
func.func @different_types(%a: tensor<4xf32>, %b: tensor<4xf64>, %c: tensor<4xi32>) -> (tensor<4xf32>, tensor<4xf64>, tensor<4xi32>) {
  %0 = "hlo.all_reduce"(%a) {kind = "add"} : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.all_reduce"(%b) {kind = "add"} : (tensor<4xf64>) -> tensor<4xf64>
  %2 = "hlo.all_reduce"(%c) {kind = "add"} : (tensor<4xi32>) -> tensor<4xi32>
  return %0, %1, %2 : tensor<4xf32>, tensor<4xf64>, tensor<4xi32>
}

// -----

// An all_reduce of a value computed from another one's result depends on it: they stay
// two calls, in order.
// CHECK-LABEL: func @dependent
// CHECK-NOT: tensor.concat
// CHECK: %[[FIRST:.*]] = "hlo.all_reduce"(%arg0)
// CHECK: %[[T:.*]] = "hlo.tanh"(%[[FIRST]])
// CHECK: "hlo.all_reduce"(%[[T]])
func.func @dependent(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.all_reduce"(%a) {kind = "add"} : (tensor<4xf32>) -> tensor<4xf32>
  %t = "hlo.tanh"(%0) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "hlo.all_reduce"(%t) {kind = "add"} : (tensor<4xf32>) -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Dependence through a region counts too: the second (of the scf.if that reads the first's
// result) starts a new group, which the independent third joins (greedy, in order).
// CHECK-LABEL: func @dependent_through_region
// CHECK: %[[FIRST:.*]] = "hlo.all_reduce"(%arg1) {kind = "add"} : (tensor<4xf32>)
// CHECK: %[[IF:.*]] = scf.if
// CHECK: "hlo.negate"(%[[FIRST]])
// CHECK: %[[PACKED:.*]] = tensor.concat dim(0) %[[IF]], %arg2
// CHECK-NEXT: "hlo.all_reduce"(%[[PACKED]]) {kind = "add"} : (tensor<8xf32>)
// CHECK-NOT: "hlo.all_reduce"
func.func @dependent_through_region(%p: i1, %a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %0 = "hlo.all_reduce"(%a) {kind = "add"} : (tensor<4xf32>) -> tensor<4xf32>
  %r = scf.if %p -> tensor<4xf32> {
    %n = "hlo.negate"(%0) : (tensor<4xf32>) -> tensor<4xf32>
    scf.yield %n : tensor<4xf32>
  } else {
    scf.yield %a : tensor<4xf32>
  }
  %1 = "hlo.all_reduce"(%r) {kind = "add"} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = "hlo.all_reduce"(%b) {kind = "add"} : (tensor<4xf32>) -> tensor<4xf32>
  %s = "hlo.add"(%1, %2) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return %s, %2 : tensor<4xf32>, tensor<4xf32>
}
