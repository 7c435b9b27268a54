// Both vector widths MLC targets (AVX2, AVX-512), whatever the host: F32 and F64 are the
// lanes of two registers, F32 / F64 elements.
// cache-bytes=1073741824: no kernel here moves 2 GiB, so none streams (see @stream).
// RUN: mlc-opt %s --split-input-file --mlc-vectorize="register-bits=256 threads=1 cache-bytes=1073741824" | FileCheck %s -D\$F32=16 -D\$F64=8
// RUN: mlc-opt %s --split-input-file --mlc-vectorize="register-bits=256 threads=2 cache-bytes=1073741824" | FileCheck %s --check-prefix=THREADS -D\$F32=16
// RUN: mlc-opt %s --split-input-file --mlc-vectorize="register-bits=512 threads=1 cache-bytes=1073741824" | FileCheck %s -D\$F32=32 -D\$F64=16
// RUN: mlc-opt %s --split-input-file --mlc-vectorize="register-bits=512 threads=2 cache-bytes=1073741824" | FileCheck %s --check-prefix=THREADS -D\$F32=32
// RUN: mlc-opt %s --split-input-file --mlc-vectorize="register-bits=256 threads=2 cache-bytes=262144" | FileCheck %s --check-prefix=STREAM
// RUN: not mlc-opt %s --mlc-vectorize="register-bits=100" 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: register-bits must be 128, 256 or 512

// THREADS-LABEL: func @elementwise
// THREADS-NOT: scf.forall
// THREADS-LABEL: func @big_rows
// THREADS: scf.forall (%{{.*}}) in (1024)
// THREADS: scf.for %{{.*}} to %{{.*}} step %c[[$F32]]
// THREADS-LABEL: func @big_vector
// THREADS: scf.forall (%{{.*}}) in (8)
// THREADS: scf.for %{{.*}} to %{{.*}} step %c[[$F32]]
// THREADS-LABEL: func @lane_sum_big
// THREADS-NOT: scf.forall

// An elementwise kernel: the outer loop tiled by 1, the innermost by F32 lanes (two
// registers); the body runs on vector<F32 x f32>.
// CHECK-LABEL: func @elementwise
// CHECK: scf.for
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c[[$F32]]
// CHECK: vector.transfer_read {{.*}} vector<[[$F32]]xf32>
// CHECK: math.exp {{.*}} : vector<[[$F32]]xf32>
// CHECK: vector.transfer_write {{.*}} vector<[[$F32]]xf32>
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @elementwise(%x: memref<8x64xf32>, %y: memref<8x64xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x64xf32>) outs(%y : memref<8x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A lane-split sum: the reduction runs along the outer loop, so the 16 partial sums stay
// in one vector register (an scf.for iter_arg) for the whole loop and are stored once.
// CHECK-LABEL: func @lane_sum
// CHECK: %[[INIT:.*]] = vector.transfer_read %{{.*}} : memref<16xf32>, vector<16xf32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<16xf32>)
// CHECK:   %[[V:.*]] = vector.transfer_read
// CHECK:   arith.addf %[[V]], %[[ACC]] : vector<16xf32>
// CHECK: vector.transfer_write %[[SUM]]
#rows = affine_map<(d0, d1) -> (d0, d1)>
#lanes = affine_map<(d0, d1) -> (d1)>
func.func @lane_sum(%x: memref<100x16xf32>, %acc: memref<16xf32>) {
  linalg.generic {indexing_maps = [#rows, #lanes], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<100x16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%a: f32, %s: f32):
    %r = arith.addf %a, %s : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// f64 gets half the lanes (8 or 16); a row of 20 is a multiple of neither, so the last
// tile is masked.
// CHECK-LABEL: func @masked_f64
// CHECK: step %c[[$F64]]
// CHECK: vector.create_mask
// CHECK: arith.mulf {{.*}} : vector<[[$F64]]xf64>
#id1 = affine_map<(d0) -> (d0)>
func.func @masked_f64(%x: memref<20xf64>, %y: memref<20xf64>) {
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%x : memref<20xf64>) outs(%y : memref<20xf64>) {
  ^bb0(%a: f64, %b: f64):
    %m = arith.mulf %a, %a : f64
    linalg.yield %m : f64
  }
  return
}

// -----

// A short row (4 <= 16 lanes) is one vector per row, with no innermost loop.
// CHECK-LABEL: func @short_rows
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: arith.addf {{.*}} : vector<4xf32>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @short_rows(%x: memref<32x4xf32>, %y: memref<32x4xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<32x4xf32>) outs(%y : memref<32x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Left scalar: a transposed read (the innermost loop is not the input's innermost dim).
// CHECK-LABEL: func @transposed
// CHECK: linalg.generic
// CHECK-NOT: vector.
#t_in = affine_map<(d0, d1) -> (d1, d0)>
#t_out = affine_map<(d0, d1) -> (d0, d1)>
func.func @transposed(%x: memref<64x32xf32>, %y: memref<32x64xf32>) {
  linalg.generic {indexing_maps = [#t_in, #t_out], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x32xf32>) outs(%y : memref<32x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// Left scalar: an argmax-style reduction whose combiner is not one known arith op.
// CHECK-LABEL: func @select_reduction
// CHECK: linalg.generic
// CHECK-NOT: vector.
#r_in = affine_map<(d0) -> (d0)>
#r_out = affine_map<(d0) -> ()>
func.func @select_reduction(%x: memref<64xf32>, %best: memref<f32>) {
  linalg.generic {indexing_maps = [#r_in, #r_out], iterator_types = ["reduction"]}
      ins(%x : memref<64xf32>) outs(%best : memref<f32>) {
  ^bb0(%a: f32, %b: f32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %r = arith.select %gt, %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Big enough to share: rows go to threads (scf.forall over the outer loop).
// CHECK-LABEL: func @big_rows
// CHECK-NOT: scf.forall
#b = affine_map<(d0, d1) -> (d0, d1)>
func.func @big_rows(%x: memref<1024x256xf32>, %y: memref<1024x256xf32>) {
  linalg.generic {indexing_maps = [#b, #b], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1024x256xf32>) outs(%y : memref<1024x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A big 1-D kernel is split into chunks (about four per thread, a divisor of the extent).
// CHECK-LABEL: func @big_vector
#v = affine_map<(d0) -> (d0)>
func.func @big_vector(%x: memref<262144xf32>, %y: memref<262144xf32>) {
  linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%x : memref<262144xf32>) outs(%y : memref<262144xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A reduction along the outer loop is never split across threads (they would race on the
// accumulator).
// CHECK-LABEL: func @lane_sum_big
#rows2 = affine_map<(d0, d1) -> (d0, d1)>
#lanes2 = affine_map<(d0, d1) -> (d1)>
func.func @lane_sum_big(%x: memref<65536x16xf32>, %acc: memref<16xf32>) {
  linalg.generic {indexing_maps = [#rows2, #lanes2], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<65536x16xf32>) outs(%acc : memref<16xf32>) {
  ^bb0(%a: f32, %s: f32):
    %r = arith.addf %a, %s : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A kernel with an empty loop is not tiled (upstream's tiler asserts on a zero extent);
// the cleanup after vectorizing the other kernels erases it (it writes no element).
// CHECK-LABEL: func @empty_rows
// CHECK-NOT: vector.
// CHECK: return
#er = affine_map<(d0, d1) -> (d0, d1)>
func.func @empty_rows(%x: memref<0x64xf32>, %y: memref<0x64xf32>) {
  linalg.generic {indexing_maps = [#er, #er], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<0x64xf32>) outs(%y : memref<0x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A gather along the innermost loop (each lane reads its own index): one vector.gather of
// 32-bit element offsets (MLC's row emitter; upstream's vectorizer rejects loads on buffers).
// CHECK-LABEL: func @gather_body
// CHECK: %[[IDX:.*]] = vector.transfer_read {{.*}} : memref<16xindex>, vector<16xindex>
// CHECK: %[[OFF:.*]] = arith.index_cast %[[IDX]] : vector<16xindex> to vector<16xi32>
// CHECK: vector.gather %{{.*}}[%{{.*}}] [%[[OFF]]], {{.*}} : memref<100xf32>, vector<16xi32>, vector<16xi1>, vector<16xf32> into vector<16xf32>
// CHECK: vector.transfer_write {{.*}} vector<16xf32>
// CHECK-NOT: linalg.generic
#g = affine_map<(d0) -> (d0)>
func.func @gather_body(%idx: memref<16xindex>, %table: memref<100xf32>, %y: memref<16xf32>) {
  linalg.generic {indexing_maps = [#g, #g], iterator_types = ["parallel"]}
      ins(%idx : memref<16xindex>) outs(%y : memref<16xf32>) {
  ^bb0(%i: index, %b: f32):
    %v = memref.load %table[%i] : memref<100xf32>
    linalg.yield %v : f32
  }
  return
}

// -----

// An embedding lookup (hlo-to-linalg's gather: clamped row index, then the row): the index
// is loaded and clamped once per row, before the vector loop; the row is read with
// contiguous vector loads (no vector.gather); the row's last 8 of 40 elements are one
// vector of 8 (no masks).
// CHECK-LABEL: func @gather_rows
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK: memref.load %{{.*}}[%[[I]]] : memref<4xi32>
// CHECK: arith.maxsi
// CHECK: %[[ROW:.*]] = arith.minsi
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %c[[$F32]]{{[_0-9]*}} {
// CHECK-NOT: memref.load
// CHECK: vector.transfer_read %{{.*}}[%[[ROW]], %[[J]]]{{.*}} : memref<100x40xf32>, vector<[[$F32]]xf32>
// CHECK: vector.transfer_write {{.*}} vector<[[$F32]]xf32>
// CHECK: }
// CHECK: vector.transfer_read %{{.*}}[%[[ROW]], %c32{{[_0-9]*}}]{{.*}} : memref<100x40xf32>, vector<8xf32>
// CHECK: vector.transfer_write {{.*}} vector<8xf32>
// CHECK-NOT: vector.gather
// CHECK-NOT: linalg.generic
// THREADS-LABEL: func @gather_rows
// THREADS-NOT: scf.forall
#gr = affine_map<(d0, d1) -> (d0, d1)>
func.func @gather_rows(%ids: memref<4xi32>, %table: memref<100x40xf32>, %y: memref<4x40xf32>) {
  %c0 = arith.constant 0 : index
  %c99 = arith.constant 99 : index
  linalg.generic {indexing_maps = [#gr], iterator_types = ["parallel", "parallel"]} outs(%y : memref<4x40xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %id = memref.load %ids[%i] : memref<4xi32>
    %x = arith.index_cast %id : i32 to index
    %lo = arith.maxsi %x, %c0 : index
    %row = arith.minsi %lo, %c99 : index
    %v = memref.load %table[%row, %j] : memref<100x40xf32>
    linalg.yield %v : f32
  }
  return
}

// -----

// A big gather: its rows are split into chunks between threads (about four per thread),
// one scf.forall iteration per chunk, the rows of a chunk one after another.
// THREADS-LABEL: func @gather_rows_big
// THREADS: scf.forall (%[[C:.*]]) in (8) {
// THREADS: scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// THREADS: memref.load %{{.*}}[%[[R]]] : memref<256xi32>
// THREADS: scf.for %{{.*}} step %c[[$F32]]{{[_0-9]*}} {
// THREADS: vector.transfer_read {{.*}} : memref<1000x1024xf32>, vector<[[$F32]]xf32>
// THREADS-NOT: nontemporal
#gb = affine_map<(d0, d1) -> (d0, d1)>
func.func @gather_rows_big(%ids: memref<256xi32>, %table: memref<1000x1024xf32>, %y: memref<256x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c999 = arith.constant 999 : index
  linalg.generic {indexing_maps = [#gb], iterator_types = ["parallel", "parallel"]} outs(%y : memref<256x1024xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %id = memref.load %ids[%i] : memref<256xi32>
    %x = arith.index_cast %id : i32 to index
    %lo = arith.maxsi %x, %c0 : index
    %row = arith.minsi %lo, %c999 : index
    %v = memref.load %table[%row, %j] : memref<1000x1024xf32>
    linalg.yield %v : f32
  }
  return
}

// -----

// A gather whose row index is not the innermost loop's (x[:, idx]): the row is uniform
// (the gather's base position), the lanes' column offsets vary.
// CHECK-LABEL: func @gather_columns
// CHECK: %[[ROW:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<3xindex>
// CHECK: scf.for
// CHECK: %[[COLS:.*]] = vector.transfer_read {{.*}} : memref<64xindex>, vector<[[$F32]]xindex>
// CHECK: %[[OFF:.*]] = arith.index_cast %[[COLS]]
// CHECK: vector.gather %{{.*}}[%[[ROW]], %{{.*}}] [%[[OFF]]]
#gc_out = affine_map<(d0, d1) -> (d0, d1)>
#gc_rows = affine_map<(d0, d1) -> (d0)>
#gc_cols = affine_map<(d0, d1) -> (d1)>
func.func @gather_columns(%rows: memref<3xindex>, %cols: memref<64xindex>, %x: memref<10x20xf32>, %y: memref<3x64xf32>) {
  linalg.generic {indexing_maps = [#gc_rows, #gc_cols, #gc_out], iterator_types = ["parallel", "parallel"]}
      ins(%rows, %cols : memref<3xindex>, memref<64xindex>) outs(%y : memref<3x64xf32>) {
  ^bb0(%r: index, %c: index, %o: f32):
    %v = memref.load %x[%r, %c] : memref<10x20xf32>
    linalg.yield %v : f32
  }
  return
}

// -----

// A kernel that moves at least twice the last-level cache (here cache-bytes=262144: 2 MB
// moved) stores non-temporally when its output is aligned to a register (checked at run
// time, ordinary stores otherwise), and fences each thread's share. With the host's cache
// (the other RUN lines, cache-bytes=1 GiB) the same kernel is an ordinary one.
// STREAM-LABEL: func @stream
// STREAM: %[[P:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<262144xf32> -> index
// STREAM: %[[ALIGNED:.*]] = arith.cmpi eq
// STREAM: scf.forall (%{{.*}}) in (8) {
// STREAM: scf.if %[[ALIGNED]] {
// STREAM: scf.for %{{.*}} step %c16{{[_0-9]*}} {
// STREAM: vector.store %{{.*}} {alignment = 32 : i64, nontemporal = true} : memref<262144xf32>, vector<16xf32>
// STREAM: } else {
// STREAM: scf.for %{{.*}} step %c16{{[_0-9]*}} {
// STREAM: vector.transfer_write %{{.*}} : vector<16xf32>, memref<262144xf32>
// STREAM: llvm.call_intrinsic "llvm.x86.sse.sfence"
// CHECK-LABEL: func @stream
// CHECK-NOT: nontemporal
// CHECK: return
// THREADS-LABEL: func @stream
// THREADS-NOT: nontemporal
// THREADS: return
#st = affine_map<(d0) -> (d0)>
#st0 = affine_map<(d0) -> ()>
func.func @stream(%x: memref<262144xf32>, %s: memref<f32>, %y: memref<262144xf32>) {
  linalg.generic {indexing_maps = [#st, #st0, #st], iterator_types = ["parallel"]}
      ins(%x, %s : memref<262144xf32>, memref<f32>) outs(%y : memref<262144xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}
