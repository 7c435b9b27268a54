// RUN: mlc-opt %s --mlc-fuse-kernels | FileCheck %s

// Inside a fusion function (hlo.fusion_kind), producer and consumer generics merge into
// one loop nest; in any other function (here @main, where hlo-fuse left tanh apart from
// the matmul it feeds) they stay separate kernels.
#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @main
// CHECK: linalg.generic
// CHECK: math.tanh
// CHECK: linalg.generic
// CHECK-NOT: math.tanh
// CHECK: arith.mulf
func.func @main(%x: tensor<4x8xf32>, %w: tensor<8x5xf32>, %acc: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.tanh %v : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %m = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%t, %w : tensor<4x8xf32>, tensor<8x5xf32>) outs(%acc : tensor<4x5xf32>) {
  ^bb0(%p: f32, %q: f32, %s: f32):
    %pq = arith.mulf %p, %q : f32
    %r = arith.addf %s, %pq : f32
    linalg.yield %r : f32
  } -> tensor<4x5xf32>
  return %m : tensor<4x5xf32>
}

// CHECK-LABEL: func.func private @main_fusion_0
// CHECK: linalg.generic
// CHECK-NOT: linalg.generic
// CHECK: math.exp
// CHECK: arith.addf
func.func private @main_fusion_0(%x: tensor<16xf32>) -> tensor<16xf32> attributes {hlo.fusion_kind = "loop"} {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %b : tensor<16xf32>
}

// Multi-output merging: exp's result is returned and feeds the add; upstream fusion keeps
// a producer with two uses apart, merge_kernels makes one loop with both results.
// CHECK-LABEL: func.func private @multi_output_fusion
// CHECK: %[[R:.*]]:2 = linalg.generic
// CHECK: math.exp
// CHECK: arith.addf
// CHECK: linalg.yield
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]#0, %[[R]]#1
func.func private @multi_output_fusion(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) attributes {hlo.fusion_kind = "loop"} {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a, %x : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %w: f32, %o: f32):
    %r = arith.addf %v, %w : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %a, %b : tensor<16xf32>, tensor<16xf32>
}

// Siblings reading the same input merge into one loop (the input is read once).
// CHECK-LABEL: func.func private @sibling_kernels
// CHECK: %[[R:.*]]:2 = linalg.generic
// CHECK: math.exp
// CHECK: arith.negf
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]#0, %[[R]]#1
func.func private @sibling_kernels(%x: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) attributes {hlo.fusion_kind = "loop"} {
  %e = tensor.empty() : tensor<16xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.negf %v : f32
    linalg.yield %r : f32
  } -> tensor<16xf32>
  return %a, %b : tensor<16xf32>, tensor<16xf32>
}

// Not merged: the consumer reads the producer transposed (element (i, j) needs the
// producer's (j, i), which the merged loop has not computed yet).
// CHECK-LABEL: func.func private @transposed_read_not_merged
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK: arith.addf
func.func private @transposed_read_not_merged(%x: tensor<8x8xf32>) -> (tensor<8x8xf32>, tensor<8x8xf32>) attributes {hlo.fusion_kind = "loop"} {
  %e = tensor.empty() : tensor<8x8xf32>
  %a = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = arith.addf %v, %v : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  return %a, %b : tensor<8x8xf32>, tensor<8x8xf32>
}

// Not merged: the consumer's body reads the producer's result itself (a gather's
// tensor.extract at another index); merged, it would read elements of the op it is in
// before they are computed (found by the fuzzer: a dominance error).
// CHECK-LABEL: func.func private @extract_in_body_not_merged
// CHECK: %[[A:.*]] = linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK: tensor.extract %[[A]]
func.func private @extract_in_body_not_merged(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) attributes {hlo.fusion_kind = "loop"} {
  %e = tensor.empty() : tensor<8xf32>
  %c7 = arith.constant 7 : index
  %a = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %r = math.exp %v : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %i = linalg.index 0 : index
    %j = arith.subi %c7, %i : index
    %w = tensor.extract %a[%j] : tensor<8xf32>
    %r = arith.addf %v, %w : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %a, %b : tensor<8xf32>, tensor<8xf32>
}
