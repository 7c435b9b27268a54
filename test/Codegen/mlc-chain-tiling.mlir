// A contraction, row-wise ops and a contraction reading them run by blocks of rows in one
// scf.forall (attention); chains whose intermediates are needed elsewhere, that mix rows,
// or that are small stay as they are. threads=2, a 32 MB cache: each batch index's rows
// (2 MB of intermediates) fit a thread's half share; with a 2 MB cache they do not, and
// the rows are never split further (k and v would be packed again per block).
// RUN: mlc-opt %s --split-input-file --mlc-chain-tiling="threads=2 cache-bytes=33554432" | FileCheck %s
// RUN: mlc-opt %s --split-input-file --mlc-chain-tiling="threads=2 cache-bytes=2097152" | FileCheck %s --check-prefix=SMALL

#lhs = affine_map<(b, m, n, k) -> (b, m, k)>
#rhs_t = affine_map<(b, m, n, k) -> (b, n, k)>
#rhs = affine_map<(b, m, n, k) -> (b, k, n)>
#out = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>
#row = affine_map<(b, m, n) -> (b, m)>

// CHECK-LABEL: func @attention
// CHECK: scf.forall (%[[B:.*]], %[[M:.*]]) = (0, 0) to (8, 512) step (1, 512) shared_outs(%[[OUT:.*]] = %{{.*}}) -> (tensor<8x512x64xf32>)
// CHECK:   tensor.extract_slice %arg0[%[[B]], %[[M]], 0] [1, 512, 64]
// CHECK:   tensor.extract_slice %arg1[%[[B]], 0, 0] [1, 512, 64]
// CHECK:   linalg.generic {{.*}} outs(%{{.*}} : tensor<1x512x512xf32>)
// CHECK:   linalg.generic {{.*}} outs(%{{.*}} : tensor<1x512xf32>)
// CHECK:   %[[I:.*]] = linalg.index 1 : index
// CHECK:   arith.addi %[[I]], %[[M]] : index
// CHECK:   tensor.extract_slice %[[OUT]][%[[B]], %[[M]], 0] [1, 512, 64]
// CHECK:   tensor.parallel_insert_slice %{{.*}} into %[[OUT]][%[[B]], %[[M]], 0] [1, 512, 64]
// CHECK-NOT: tensor<8x512x512xf32>
// SMALL-LABEL: func @attention
// SMALL-NOT: scf.forall
func.func @attention(%q: tensor<8x512x64xf32>, %k: tensor<8x512x64xf32>, %v: tensor<8x512x64xf32>) -> tensor<8x512x64xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e0 = tensor.empty() : tensor<8x512x512xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x512x512xf32>) -> tensor<8x512x512xf32>
  %s = linalg.generic {indexing_maps = [#lhs, #rhs_t, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<8x512x64xf32>, tensor<8x512x64xf32>) outs(%f0 : tensor<8x512x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  } -> tensor<8x512x512xf32>
  %e1 = tensor.empty() : tensor<8x512xf32>
  %f1 = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %mx = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<8x512x512xf32>) outs(%f1 : tensor<8x512xf32>) {
  ^bb0(%a: f32, %c: f32):
    %r = arith.maximumf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<8x512xf32>
  // exp(s - max), causal: column n > row m gives 0 (linalg.index of the tiled row loop)
  %e2 = tensor.empty() : tensor<8x512x512xf32>
  %p = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %mx : tensor<8x512x512xf32>, tensor<8x512xf32>) outs(%e2 : tensor<8x512x512xf32>) {
  ^bb0(%a: f32, %m: f32, %c: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %d = arith.subf %a, %m : f32
    %x = math.exp %d : f32
    %keep = arith.cmpi ule, %j, %i : index
    %r = arith.select %keep, %x, %zero : f32
    linalg.yield %r : f32
  } -> tensor<8x512x512xf32>
  %e3 = tensor.empty() : tensor<8x512x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x512x64xf32>) -> tensor<8x512x64xf32>
  %o = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<8x512x512xf32>, tensor<8x512x64xf32>) outs(%f3 : tensor<8x512x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %pr = arith.mulf %a, %b : f32
    %r = arith.addf %c, %pr : f32
    linalg.yield %r : f32
  } -> tensor<8x512x64xf32>
  return %o : tensor<8x512x64xf32>
}

// -----

#lhs = affine_map<(b, m, n, k) -> (b, m, k)>
#rhs_t = affine_map<(b, m, n, k) -> (b, n, k)>
#rhs = affine_map<(b, m, n, k) -> (b, k, n)>
#out = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>

// The scores are returned too: written whole anyway, so nothing is tiled.
// CHECK-LABEL: func @scores_used_elsewhere
// CHECK-NOT: scf.forall
func.func @scores_used_elsewhere(%q: tensor<8x512x64xf32>, %k: tensor<8x512x64xf32>, %v: tensor<8x512x64xf32>) -> (tensor<8x512x64xf32>, tensor<8x512x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x512x512xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x512x512xf32>) -> tensor<8x512x512xf32>
  %s = linalg.generic {indexing_maps = [#lhs, #rhs_t, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<8x512x64xf32>, tensor<8x512x64xf32>) outs(%f0 : tensor<8x512x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  } -> tensor<8x512x512xf32>
  %e2 = tensor.empty() : tensor<8x512x512xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<8x512x512xf32>) outs(%e2 : tensor<8x512x512xf32>) {
  ^bb0(%a: f32, %c: f32):
    %x = math.exp %a : f32
    linalg.yield %x : f32
  } -> tensor<8x512x512xf32>
  %e3 = tensor.empty() : tensor<8x512x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x512x64xf32>) -> tensor<8x512x64xf32>
  %o = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<8x512x512xf32>, tensor<8x512x64xf32>) outs(%f3 : tensor<8x512x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %pr = arith.mulf %a, %b : f32
    %r = arith.addf %c, %pr : f32
    linalg.yield %r : f32
  } -> tensor<8x512x64xf32>
  return %o, %s : tensor<8x512x64xf32>, tensor<8x512x512xf32>
}

// -----

#lhs = affine_map<(b, m, n, k) -> (b, m, k)>
#rhs_t = affine_map<(b, m, n, k) -> (b, n, k)>
#rhs = affine_map<(b, m, n, k) -> (b, k, n)>
#out = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>
#col = affine_map<(b, m, n) -> (b, n)>

// A sum over the rows (softmax along the query axis) mixes rows: no tiling.
// CHECK-LABEL: func @column_reduction
// CHECK-NOT: scf.forall
func.func @column_reduction(%q: tensor<8x512x64xf32>, %k: tensor<8x512x64xf32>, %v: tensor<8x512x64xf32>) -> tensor<8x512x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<8x512x512xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<8x512x512xf32>) -> tensor<8x512x512xf32>
  %s = linalg.generic {indexing_maps = [#lhs, #rhs_t, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<8x512x64xf32>, tensor<8x512x64xf32>) outs(%f0 : tensor<8x512x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  } -> tensor<8x512x512xf32>
  %e1 = tensor.empty() : tensor<8x512xf32>
  %f1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<8x512xf32>) -> tensor<8x512xf32>
  %sum = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction", "parallel"]} ins(%s : tensor<8x512x512xf32>) outs(%f1 : tensor<8x512xf32>) {
  ^bb0(%a: f32, %c: f32):
    %r = arith.addf %a, %c : f32
    linalg.yield %r : f32
  } -> tensor<8x512xf32>
  %e2 = tensor.empty() : tensor<8x512x512xf32>
  %p = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %sum : tensor<8x512x512xf32>, tensor<8x512xf32>) outs(%e2 : tensor<8x512x512xf32>) {
  ^bb0(%a: f32, %m: f32, %c: f32):
    %d = arith.divf %a, %m : f32
    linalg.yield %d : f32
  } -> tensor<8x512x512xf32>
  %e3 = tensor.empty() : tensor<8x512x64xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<8x512x64xf32>) -> tensor<8x512x64xf32>
  %o = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<8x512x512xf32>, tensor<8x512x64xf32>) outs(%f3 : tensor<8x512x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %pr = arith.mulf %a, %b : f32
    %r = arith.addf %c, %pr : f32
    linalg.yield %r : f32
  } -> tensor<8x512x64xf32>
  return %o : tensor<8x512x64xf32>
}

// -----

#lhs = affine_map<(b, m, n, k) -> (b, m, k)>
#rhs_t = affine_map<(b, m, n, k) -> (b, n, k)>
#rhs = affine_map<(b, m, n, k) -> (b, k, n)>
#out = affine_map<(b, m, n, k) -> (b, m, n)>
#id = affine_map<(b, m, n) -> (b, m, n)>

// Small intermediates (2 x 64 x 64 f32, 32 KB) stay in cache unfused: no tiling.
// CHECK-LABEL: func @small
// CHECK-NOT: scf.forall
func.func @small(%q: tensor<2x64x16xf32>, %k: tensor<2x64x16xf32>, %v: tensor<2x64x16xf32>) -> tensor<2x64x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<2x64x64xf32>
  %f0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<2x64x64xf32>) -> tensor<2x64x64xf32>
  %s = linalg.generic {indexing_maps = [#lhs, #rhs_t, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%q, %k : tensor<2x64x16xf32>, tensor<2x64x16xf32>) outs(%f0 : tensor<2x64x64xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %p = arith.mulf %a, %b : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x64x64xf32>
  %e2 = tensor.empty() : tensor<2x64x64xf32>
  %p = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x64x64xf32>) outs(%e2 : tensor<2x64x64xf32>) {
  ^bb0(%a: f32, %c: f32):
    %x = math.exp %a : f32
    linalg.yield %x : f32
  } -> tensor<2x64x64xf32>
  %e3 = tensor.empty() : tensor<2x64x16xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x64x16xf32>) -> tensor<2x64x16xf32>
  %o = linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%p, %v : tensor<2x64x64xf32>, tensor<2x64x16xf32>) outs(%f3 : tensor<2x64x16xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32):
    %pr = arith.mulf %a, %b : f32
    %r = arith.addf %c, %pr : f32
    linalg.yield %r : f32
  } -> tensor<2x64x16xf32>
  return %o : tensor<2x64x16xf32>
}
