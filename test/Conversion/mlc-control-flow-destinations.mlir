// RUN: mlc-opt %s --split-input-file --mlc-control-flow-destinations | FileCheck %s

// scf.if: each branch computes the result into its own tensor.empty: both now write into one
// made before the if (one-shot-bufferize then writes in place, no copy into the result).
// CHECK-LABEL: func @both_branches
// CHECK: %[[D:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: scf.if
// CHECK-NOT: tensor.empty
// CHECK: linalg.generic {{.*}} outs(%[[D]] : tensor<8xf32>)
// CHECK: } else {
// CHECK-NOT: tensor.empty
// CHECK: linalg.generic {{.*}} outs(%[[D]] : tensor<8xf32>)
#id = affine_map<(d0) -> (d0)>
func.func @both_branches(%x: tensor<8xf32>, %c: i1) -> tensor<8xf32> {
  %r = scf.if %c -> (tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %in, %in : f32
      linalg.yield %m : f32
    } -> tensor<8xf32>
    scf.yield %a : tensor<8xf32>
  } else {
    %e = tensor.empty() : tensor<8xf32>
    %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<8xf32>
    scf.yield %b : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// Through a chain of destinations: a row sum accumulates into a zero fill of the empty.
// CHECK-LABEL: func @through_a_fill
// CHECK: %[[D:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT: scf.if
// CHECK: linalg.fill {{.*}} outs(%[[D]] : tensor<4xf32>)
// CHECK: } else {
// CHECK: linalg.fill {{.*}} outs(%[[D]] : tensor<4xf32>)
#in = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @through_a_fill(%x: tensor<4x8xf32>, %c: i1) -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %r = scf.if %c -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    %s = linalg.generic {indexing_maps = [#in, #row], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<4x8xf32>) outs(%f : tensor<4xf32>) {
    ^bb0(%in: f32, %acc: f32):
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    } -> tensor<4xf32>
    scf.yield %s : tensor<4xf32>
  } else {
    %e = tensor.empty() : tensor<4xf32>
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
    scf.yield %f : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

// Left alone: a branch yielding a value from outside it (no destination to share), and an
// empty with another use (sharing it would make that use alias the result).
// CHECK-LABEL: func @left_alone
// CHECK-NEXT: scf.if
// CHECK-NEXT: tensor.empty
// CHECK: } else {
// CHECK-NEXT: scf.yield %arg0
// CHECK: scf.if
// CHECK-NEXT: %[[E:.*]] = tensor.empty
// CHECK: outs(%[[E]]
// CHECK: } else {
// CHECK-NEXT: %[[E2:.*]] = tensor.empty
// CHECK: outs(%[[E2]]
// CHECK: scf.yield {{.*}}, %[[E2]]
#id = affine_map<(d0) -> (d0)>
func.func @left_alone(%x: tensor<8xf32>, %c: i1) -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %r = scf.if %c -> (tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %in, %in : f32
      linalg.yield %m : f32
    } -> tensor<8xf32>
    scf.yield %a : tensor<8xf32>
  } else {
    scf.yield %x : tensor<8xf32>
  }
  %s:2 = scf.if %c -> (tensor<8xf32>, tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %in, %in : f32
      linalg.yield %m : f32
    } -> tensor<8xf32>
    scf.yield %a, %x : tensor<8xf32>, tensor<8xf32>
  } else {
    %e = tensor.empty() : tensor<8xf32>
    %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<8xf32>
    scf.yield %b, %e : tensor<8xf32>, tensor<8xf32>
  }
  return %r, %s#0, %s#1 : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}

// -----

// A loop body computes the carried value into its own argument (one-shot-bufferize then
// updates the carried buffer in place when nothing reads it after): scf.for, and scf.while
// whose condition forwards its arguments unchanged.
// CHECK-LABEL: func @carried
// CHECK: scf.for {{.*}} iter_args(%[[V:.*]] = %arg0)
// CHECK-NOT: tensor.empty
// CHECK: linalg.generic {{.*}} ins(%[[V]] : tensor<8xf32>) outs(%[[V]] : tensor<8xf32>)
// CHECK: scf.while
// CHECK: do {
// CHECK-NEXT: ^bb0(%[[I:.*]]: i32, %[[W:.*]]: tensor<8xf32>):
// CHECK-NOT: tensor.empty
// CHECK: linalg.generic {{.*}} ins(%[[W]] : tensor<8xf32>) outs(%[[W]] : tensor<8xf32>)
#id = affine_map<(d0) -> (d0)>
func.func @carried(%x: tensor<8xf32>, %n: index) -> (tensor<8xf32>, tensor<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %x) -> (tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%v : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %in, %in : f32
      linalg.yield %m : f32
    } -> tensor<8xf32>
    scf.yield %a : tensor<8xf32>
  }
  %zero = arith.constant 0 : i32
  %three = arith.constant 3 : i32
  %one = arith.constant 1 : i32
  %w:2 = scf.while (%k = %zero, %u = %x) : (i32, tensor<8xf32>) -> (i32, tensor<8xf32>) {
    %go = arith.cmpi slt, %k, %three : i32
    scf.condition(%go) %k, %u : i32, tensor<8xf32>
  } do {
  ^bb0(%k: i32, %u: tensor<8xf32>):
    %e = tensor.empty() : tensor<8xf32>
    %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%u : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n2 = arith.negf %in : f32
      linalg.yield %n2 : f32
    } -> tensor<8xf32>
    %k2 = arith.addi %k, %one : i32
    scf.yield %k2, %b : i32, tensor<8xf32>
  }
  return %r, %w#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// Left alone: an scf.while whose condition reorders what it forwards (its body's arguments
// are not the carried values in order).
// CHECK-LABEL: func @reordered_while
// CHECK: do {
// CHECK: tensor.empty
#id = affine_map<(d0) -> (d0)>
func.func @reordered_while(%x: tensor<8xf32>, %y: tensor<8xf32>, %c: i1) -> tensor<8xf32> {
  %w:2 = scf.while (%a = %x, %b = %y) : (tensor<8xf32>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
    scf.condition(%c) %b, %a : tensor<8xf32>, tensor<8xf32>
  } do {
  ^bb0(%p: tensor<8xf32>, %q: tensor<8xf32>):
    %e = tensor.empty() : tensor<8xf32>
    %s = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%p : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n2 = arith.negf %in : f32
      linalg.yield %n2 : f32
    } -> tensor<8xf32>
    scf.yield %s, %q : tensor<8xf32>, tensor<8xf32>
  }
  return %w#0 : tensor<8xf32>
}

// -----

// Nested ifs (lax.switch's tree of conds): the inner if's shared destination is taken over
// by the outer one, so every leaf writes the one destination before the outer if.
// CHECK-LABEL: func @nested
// CHECK: %[[D:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: scf.if
// CHECK-NOT: tensor.empty
// CHECK: outs(%[[D]]
// CHECK: } else {
// CHECK-NEXT: scf.if
// CHECK: outs(%[[D]]
// CHECK: } else {
// CHECK: outs(%[[D]]
#id = affine_map<(d0) -> (d0)>
func.func @nested(%x: tensor<8xf32>, %c: i1, %d: i1) -> tensor<8xf32> {
  %r = scf.if %c -> (tensor<8xf32>) {
    %e = tensor.empty() : tensor<8xf32>
    %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %in, %in : f32
      linalg.yield %m : f32
    } -> tensor<8xf32>
    scf.yield %a : tensor<8xf32>
  } else {
    %s = scf.if %d -> (tensor<8xf32>) {
      %e = tensor.empty() : tensor<8xf32>
      %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %n = arith.negf %in : f32
        linalg.yield %n : f32
      } -> tensor<8xf32>
      scf.yield %b : tensor<8xf32>
    } else {
      %e = tensor.empty() : tensor<8xf32>
      %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
      ^bb0(%in: f32, %out: f32):
        %n = arith.addf %in, %in : f32
        linalg.yield %n : f32
      } -> tensor<8xf32>
      scf.yield %b : tensor<8xf32>
    }
    scf.yield %s : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}

// -----

// scf.index_switch (StableHLO's case): its default and every case share one destination.
// CHECK-LABEL: func @switch
// CHECK: %[[D:.*]] = tensor.empty() : tensor<8xf32>
// CHECK-NEXT: scf.index_switch
// CHECK-NOT: tensor.empty
// CHECK: outs(%[[D]]
// CHECK: outs(%[[D]]
// CHECK: default
// CHECK-NOT: tensor.empty
// CHECK: outs(%[[D]]
#id = affine_map<(d0) -> (d0)>
func.func @switch(%x: tensor<8xf32>, %i: index) -> tensor<8xf32> {
  %r = scf.index_switch %i -> tensor<8xf32>
  case 0 {
    %e = tensor.empty() : tensor<8xf32>
    %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %in, %in : f32
      linalg.yield %m : f32
    } -> tensor<8xf32>
    scf.yield %a : tensor<8xf32>
  }
  case 1 {
    %e = tensor.empty() : tensor<8xf32>
    %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.negf %in : f32
      linalg.yield %m : f32
    } -> tensor<8xf32>
    scf.yield %a : tensor<8xf32>
  }
  default {
    %e = tensor.empty() : tensor<8xf32>
    %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.addf %in, %in : f32
      linalg.yield %m : f32
    } -> tensor<8xf32>
    scf.yield %a : tensor<8xf32>
  }
  return %r : tensor<8xf32>
}
