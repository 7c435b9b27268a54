// Both vector widths MLC targets, whatever the host: N is two registers of f32 (16 or 32).
// RUN: env MLC_BLAS=0 mlc-opt %s --split-input-file --mlc-tile-matmul="register-bits=256 threads=1 l2-bytes=524288" | FileCheck %s -D\$N=16
// RUN: env MLC_BLAS=0 mlc-opt %s --split-input-file --mlc-tile-matmul="register-bits=256 threads=2 l2-bytes=524288" | FileCheck %s --check-prefix=THREADS -D\$N=16
// RUN: env MLC_BLAS=0 mlc-opt %s --split-input-file --mlc-tile-matmul="register-bits=512 threads=1 l2-bytes=524288" | FileCheck %s -D\$N=32
// RUN: env MLC_BLAS=0 mlc-opt %s --split-input-file --mlc-tile-matmul="register-bits=512 threads=2 l2-bytes=524288" | FileCheck %s --check-prefix=THREADS -D\$N=32

// A 32x64x32 f32 matmul: 4xN output tiles (two registers of f32 per row) held in a
// vector<4xNxf32> iter_arg across the whole K loop; one vector FMA chain per k.
// CHECK-LABEL: func @matmul
// CHECK: scf.for %{{.*}} step %c4
// CHECK: scf.for %{{.*}} step %c[[$N]]
// CHECK: %[[ACC0:.*]] = vector.transfer_read {{.*}} vector<4x[[$N]]xf32>
// CHECK: %[[ACC:.*]] = scf.for {{.*}} iter_args(%{{.*}} = %[[ACC0]]) -> (vector<4x[[$N]]xf32>)
// CHECK: arith.mulf {{.*}} : vector<4x[[$N]]xf32>
// CHECK: vector.transfer_write %[[ACC]]
// THREADS-LABEL: func @matmul
// THREADS-NOT: scf.forall
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @matmul(%x: tensor<32x32xf32>, %y: tensor<32x64xf32>, %z: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<32x32xf32>, tensor<32x64xf32>) outs(%z : tensor<32x64xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  return %r : tensor<32x64xf32>
}

// -----

// Big (256^3 >= 64^3 multiply-adds): left for mlc-blas, which packs it (MLC's packed GEMM)
// or calls OpenBLAS; the register tiles here serve small matmuls.
// CHECK-LABEL: func @big
// CHECK: linalg.generic
// CHECK-NOT: vector.
// THREADS-LABEL: func @big
// THREADS: linalg.generic
// THREADS-NOT: scf.forall
#a2 = affine_map<(m, n, k) -> (m, k)>
#b2 = affine_map<(m, n, k) -> (k, n)>
#c2 = affine_map<(m, n, k) -> (m, n)>
func.func @big(%x: tensor<256x256xf32>, %y: tensor<256x256xf32>, %z: tensor<256x256xf32>) -> tensor<256x256xf32> {
  %r = linalg.generic {indexing_maps = [#a2, #b2, #c2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<256x256xf32>, tensor<256x256xf32>) outs(%z : tensor<256x256xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

// -----

// Extents the tile does not divide: 7 rows are a 4-row tile and a peeled 3-row tile,
// each with static shapes and its accumulator in registers across K.
// CHECK-LABEL: func @ragged
// CHECK-NOT: linalg.generic
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<4x[[$N]]xf32>)
// CHECK: vector.transfer_write {{.*}} : vector<4x[[$N]]xf32>, tensor<7x64xf32>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<3x[[$N]]xf32>)
// CHECK: vector.transfer_write {{.*}} : vector<3x[[$N]]xf32>, tensor<7x64xf32>
// CHECK-NOT: linalg.generic
// THREADS-LABEL: func @ragged
// THREADS-NOT: scf.forall
#a3 = affine_map<(m, n, k) -> (m, k)>
#b3 = affine_map<(m, n, k) -> (k, n)>
#c3 = affine_map<(m, n, k) -> (m, n)>
func.func @ragged(%x: tensor<7x64xf32>, %y: tensor<64x64xf32>, %z: tensor<7x64xf32>) -> tensor<7x64xf32> {
  %r = linalg.generic {indexing_maps = [#a3, #b3, #c3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<7x64xf32>, tensor<64x64xf32>) outs(%z : tensor<7x64xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<7x64xf32>
  return %r : tensor<7x64xf32>
}

// -----

// N = 10 (an MLP's output layer, then `- target`): narrower than the tile, so 8 columns (a
// power of two: a vector<10xf32> row is lowered through a stack temporary) and a peeled
// tile of the last 2, both with the epilogue fused; no packing.
// CHECK-LABEL: func @narrow_minus
// CHECK-NOT: linalg.
// CHECK: scf.for {{.*}} step %c4
// CHECK: scf.for {{.*}} -> (vector<4x8xf32>)
// CHECK: arith.subf {{.*}} : vector<4x8xf32>
// CHECK: vector.transfer_write {{.*}}[%{{.*}}, %c0] {{.*}} : vector<4x8xf32>, tensor<64x10xf32>
// CHECK: scf.for {{.*}} -> (vector<4x2xf32>)
// CHECK: arith.subf {{.*}} : vector<4x2xf32>
// CHECK: vector.transfer_write {{.*}}[%{{.*}}, %c8] {{.*}} : vector<4x2xf32>, tensor<64x10xf32>
// CHECK-NOT: linalg.
// THREADS-LABEL: func @narrow_minus
// THREADS-NOT: scf.forall
#na = affine_map<(m, n, k) -> (m, k)>
#nb = affine_map<(m, n, k) -> (k, n)>
#nc = affine_map<(m, n, k) -> (m, n)>
#nid = affine_map<(m, n) -> (m, n)>
func.func @narrow_minus(%h: tensor<64x256xf32>, %w: tensor<256x10xf32>, %t: tensor<64x10xf32>) -> tensor<64x10xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x10xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x10xf32>) -> tensor<64x10xf32>
  %r = linalg.generic {indexing_maps = [#na, #nb, #nc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%h, %w : tensor<64x256xf32>, tensor<256x10xf32>) outs(%z : tensor<64x10xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x10xf32>
  %e2 = tensor.empty() : tensor<64x10xf32>
  %o = linalg.generic {indexing_maps = [#nid, #nid, #nid], iterator_types = ["parallel", "parallel"]}
      ins(%r, %t : tensor<64x10xf32>, tensor<64x10xf32>) outs(%e2 : tensor<64x10xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.subf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<64x10xf32>
  return %o : tensor<64x10xf32>
}

// -----

// N = 33: whole tiles of N columns and a peeled 1-column tile; M = 6: a peeled 2-row tile.
// CHECK-LABEL: func @odd_columns
// CHECK-NOT: linalg.generic
// CHECK: -> (vector<4x[[$N]]xf32>)
// CHECK: -> (vector<4x1xf32>)
// CHECK: -> (vector<2x[[$N]]xf32>)
// CHECK: -> (vector<2x1xf32>)
// CHECK-NOT: linalg.generic
#oa = affine_map<(m, n, k) -> (m, k)>
#ob = affine_map<(m, n, k) -> (k, n)>
#oc = affine_map<(m, n, k) -> (m, n)>
func.func @odd_columns(%x: tensor<6x17xf32>, %y: tensor<17x33xf32>, %z: tensor<6x33xf32>) -> tensor<6x33xf32> {
  %r = linalg.generic {indexing_maps = [#oa, #ob, #oc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<6x17xf32>, tensor<17x33xf32>) outs(%z : tensor<6x33xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<6x33xf32>
  return %r : tensor<6x33xf32>
}

// -----

// N = 127 leaves 15 (or 31) columns after the whole tiles: no single column tile fits, so
// the product is left for mlc-blas (packed).
// CHECK-LABEL: func @many_remainder_columns
// CHECK: linalg.generic
// CHECK-NOT: vector.
#ra = affine_map<(m, n, k) -> (m, k)>
#rb = affine_map<(m, n, k) -> (k, n)>
#rc = affine_map<(m, n, k) -> (m, n)>
func.func @many_remainder_columns(%x: tensor<8x17xf32>, %y: tensor<17x127xf32>, %z: tensor<8x127xf32>) -> tensor<8x127xf32> {
  %r = linalg.generic {indexing_maps = [#ra, #rb, #rc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<8x17xf32>, tensor<17x127xf32>) outs(%z : tensor<8x127xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x127xf32>
  return %r : tensor<8x127xf32>
}

// -----

// B stored transposed (x @ k^T: rhs indexed (n, k)): a tile row would read N elements one
// row of B apart at every k, so the product is left for mlc-blas (the packed kernel
// transposes B once while packing).
// CHECK-LABEL: func @transposed_rhs
// CHECK: linalg.generic
// CHECK-NOT: vector.
#ta = affine_map<(m, n, k) -> (m, k)>
#tb = affine_map<(m, n, k) -> (n, k)>
#tc = affine_map<(m, n, k) -> (m, n)>
func.func @transposed_rhs(%x: tensor<32x64xf32>, %y: tensor<32x64xf32>, %z: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %r = linalg.generic {indexing_maps = [#ta, #tb, #tc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<32x64xf32>, tensor<32x64xf32>) outs(%z : tensor<32x32xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}

// -----

// Output fusion: the bias-add + relu epilogue is tiled and the matmul (with its zero fill)
// fused into the same loop nest: the 4xN product tile starts at zero in registers, goes
// through the epilogue and is written once; no full-size product tensor is left.
// CHECK-LABEL: func @dense_relu
// CHECK-NOT: linalg.
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[ACC:.*]] = scf.for {{.*}} -> (vector<4x[[$N]]xf32>)
// CHECK: arith.addf %[[ACC]], {{.*}} : vector<4x[[$N]]xf32>
// CHECK: arith.maximumf {{.*}} : vector<4x[[$N]]xf32>
// CHECK: vector.transfer_write
// CHECK-NOT: linalg.
#da = affine_map<(m, n, k) -> (m, k)>
#db = affine_map<(m, n, k) -> (k, n)>
#dc = affine_map<(m, n, k) -> (m, n)>
#did = affine_map<(m, n) -> (m, n)>
#drow = affine_map<(m, n) -> (n)>
func.func @dense_relu(%x: tensor<32x64xf32>, %w: tensor<64x64xf32>, %b: tensor<64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %r = linalg.generic {indexing_maps = [#da, #db, #dc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<32x64xf32>, tensor<64x64xf32>) outs(%z : tensor<32x64xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %e2 = tensor.empty() : tensor<32x64xf32>
  %o = linalg.generic {indexing_maps = [#did, #drow, #did], iterator_types = ["parallel", "parallel"]}
      ins(%r, %b : tensor<32x64xf32>, tensor<64xf32>) outs(%e2 : tensor<32x64xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    %t = arith.maximumf %s, %zero : f32
    linalg.yield %t : f32
  } -> tensor<32x64xf32>
  return %o : tensor<32x64xf32>
}

// -----

// Two matmuls with one epilogue (SwiGLU: silu(x @ w1) * (x @ w3)): the epilogue fuses into
// the first one's tile loop only; the second is tiled on its own first (its full product
// is an input of the epilogue; the zero fill both share stays a fill). Claiming it twice left the first plan's handle empty and
// the transform script failed.
// CHECK-LABEL: func @shared_epilogue
// CHECK: linalg.fill
// CHECK-NOT: linalg.
// CHECK: scf.for
// CHECK: %[[SECOND:.*]] = scf.for {{.*}} -> (vector<4x[[$N]]xf32>)
// CHECK: vector.transfer_write %[[SECOND]]
// CHECK: %[[FIRST:.*]] = scf.for {{.*}} -> (vector<4x[[$N]]xf32>)
// CHECK: arith.negf %[[FIRST]] : vector<4x[[$N]]xf32>
// CHECK: math.exp
// CHECK: arith.mulf
// CHECK: vector.transfer_write
// CHECK-NOT: linalg.
#sa = affine_map<(m, n, k) -> (m, k)>
#sb = affine_map<(m, n, k) -> (k, n)>
#sc = affine_map<(m, n, k) -> (m, n)>
#sid = affine_map<(m, n) -> (m, n)>
func.func @shared_epilogue(%x: tensor<32x64xf32>, %w1: tensor<64x64xf32>, %w3: tensor<64x64xf32>) -> tensor<32x64xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty() : tensor<32x64xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x64xf32>) -> tensor<32x64xf32>
  %g = linalg.generic {indexing_maps = [#sa, #sb, #sc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w1 : tensor<32x64xf32>, tensor<64x64xf32>) outs(%z : tensor<32x64xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %u = linalg.generic {indexing_maps = [#sa, #sb, #sc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w3 : tensor<32x64xf32>, tensor<64x64xf32>) outs(%z : tensor<32x64xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<32x64xf32>
  %e2 = tensor.empty() : tensor<32x64xf32>
  %o = linalg.generic {indexing_maps = [#sid, #sid, #sid], iterator_types = ["parallel", "parallel"]}
      ins(%g, %u : tensor<32x64xf32>, tensor<32x64xf32>) outs(%e2 : tensor<32x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %n = arith.negf %a : f32
    %x1 = math.exp %n : f32
    %d = arith.addf %x1, %one : f32
    %sg = arith.divf %a, %d : f32
    %t = arith.mulf %sg, %b : f32
    linalg.yield %t : f32
  } -> tensor<32x64xf32>
  return %o : tensor<32x64xf32>
}

// -----

// An empty contraction (K = 0) is left alone: upstream's tiler asserts on a zero-extent loop.
// CHECK-LABEL: func @empty_k
// CHECK: linalg.generic
// CHECK-NOT: vector.
#ea = affine_map<(m, n, k) -> (m, k)>
#eb = affine_map<(m, n, k) -> (k, n)>
#ec = affine_map<(m, n, k) -> (m, n)>
func.func @empty_k(%x: tensor<64x0xf32>, %y: tensor<0x64xf32>, %z: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %r = linalg.generic {indexing_maps = [#ea, #eb, #ec], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : tensor<64x0xf32>, tensor<0x64xf32>) outs(%z : tensor<64x64xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %r : tensor<64x64xf32>
}

// -----

// numpy's matmul of (8, 128, 64) by (64, 96) broadcasts W over the batch: the contraction
// reads W itself (the broadcast is erased), so its batch loop is an M loop of x: one
// (8*128) x 64 x 96 GEMM for mlc-blas instead of 8 GEMMs over copies of W.
// CHECK-DAG: #[[$W:.*]] = affine_map<(d0, d1, d2, d3) -> (d3, d2)>
// CHECK-LABEL: func @broadcast_weight
// CHECK-NOT: tensor.empty() : tensor<8x64x96xf32>
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[$W]], #{{.*}}]
// CHECK-SAME: ins(%{{.*}}, %arg1 : tensor<8x128x64xf32>, tensor<64x96xf32>)
#x4 = affine_map<(b, m, n, k) -> (b, m, k)>
#w4 = affine_map<(b, m, n, k) -> (b, k, n)>
#y4 = affine_map<(b, m, n, k) -> (b, m, n)>
#src = affine_map<(b, k, n) -> (k, n)>
#dst = affine_map<(b, k, n) -> (b, k, n)>
func.func @broadcast_weight(%x: tensor<8x128x64xf32>, %w: tensor<64x96xf32>, %z: tensor<8x128x96xf32>) -> tensor<8x128x96xf32> {
  %e = tensor.empty() : tensor<8x64x96xf32>
  %wb = linalg.generic {indexing_maps = [#src, #dst], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%w : tensor<64x96xf32>) outs(%e : tensor<8x64x96xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<8x64x96xf32>
  %r = linalg.generic {indexing_maps = [#x4, #w4, #y4], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %wb : tensor<8x128x64xf32>, tensor<8x64x96xf32>) outs(%z : tensor<8x128x96xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<8x128x96xf32>
  return %r : tensor<8x128x96xf32>
}

// -----

// A matmul with an epilogue whose B (512 x 512 f32, 1 MiB) does not fit in L2 (512 KiB
// here): the tiles would read all of B again for every 4 rows, so it is left to the
// packed kernel (mlc-blas), which fuses the epilogue too. With B in L2 (@dense_relu) the
// tiles take it.
// CHECK-LABEL: func @dense_big_weight
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT: vector.transfer_read
// CHECK: return
#ba = affine_map<(m, n, k) -> (m, k)>
#bb = affine_map<(m, n, k) -> (k, n)>
#bc = affine_map<(m, n, k) -> (m, n)>
#bid = affine_map<(m, n) -> (m, n)>
#brow = affine_map<(m, n) -> (n)>
func.func @dense_big_weight(%x: tensor<64x512xf32>, %w: tensor<512x512xf32>, %b: tensor<512xf32>) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x512xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<64x512xf32>) -> tensor<64x512xf32>
  %r = linalg.generic {indexing_maps = [#ba, #bb, #bc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<64x512xf32>, tensor<512x512xf32>) outs(%z : tensor<64x512xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  } -> tensor<64x512xf32>
  %e2 = tensor.empty() : tensor<64x512xf32>
  %o = linalg.generic {indexing_maps = [#bid, #brow, #bid], iterator_types = ["parallel", "parallel"]}
      ins(%r, %b : tensor<64x512xf32>, tensor<512xf32>) outs(%e2 : tensor<64x512xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<64x512xf32>
  return %o : tensor<64x512xf32>
}
