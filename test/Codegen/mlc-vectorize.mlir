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
// THREADS: scf.forall (%{{.*}}) in (4096)
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

// A column sum over rows of 777 (not a multiple of the vector length): the tile loop is
// peeled, so the 768 columns of whole vectors are read and written without masks and only
// the last 9 columns are masked (constant masks, made once).
// CHECK-LABEL: func @column_sum_peeled
// CHECK-NOT: vector.create_mask
// CHECK: vector.constant_mask [9] : vector<[[$F32]]xi1>
// CHECK: scf.for %{{.*}} = %c0 to %c768 step %c[[$F32]]
// CHECK-NOT: vector.constant_mask
// CHECK:   vector.transfer_read %{{[^,]*}}[%c0, %c0], %{{[^,]*}} {in_bounds = [true]} : memref<1x[[$F32]]xf32
// CHECK:   arith.addf {{.*}} : vector<[[$F32]]xf32>
// CHECK: }
// CHECK: vector.transfer_read {{.*}} : memref<1x9xf32
// CHECK-NOT: vector.create_mask
// CHECK: return
#rows = affine_map<(d0, d1) -> (d0, d1)>
#lanes = affine_map<(d0, d1) -> (d1)>
func.func @column_sum_peeled(%x: memref<100x777xf32>, %acc: memref<777xf32>) {
  linalg.generic {indexing_maps = [#rows, #lanes], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<100x777xf32>) outs(%acc : memref<777xf32>) {
  ^bb0(%a: f32, %s: f32):
    %r = arith.addf %a, %s : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// f64 gets half the lanes (8 or 16); a row of 20 is a multiple of neither, so the row
// emitter ends it with one short vector of the 4 elements left (no masked loads and stores).
// CHECK-LABEL: func @masked_f64
// CHECK: step %c[[$F64]]
// CHECK: arith.mulf {{.*}} : vector<[[$F64]]xf64>
// CHECK: arith.mulf {{.*}} : vector<4xf64>
// CHECK-NOT: vector.create_mask
// CHECK: return
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

// A short row (4 <= 16 lanes) is one vector per row, with no innermost loop. (The output's
// rows are 8 apart, so the rows cannot join into one loop: see @short_rows_joined.)
// CHECK-LABEL: func @short_rows
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: arith.addf {{.*}} : vector<4xf32>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @short_rows(%x: memref<32x4xf32>, %y: memref<32x4xf32, strided<[8, 1]>>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<32x4xf32>) outs(%y : memref<32x4xf32, strided<[8, 1]>>) {
  ^bb0(%a: f32, %b: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A transposed read (the innermost loop is not the input's innermost dim): 8 x 8 tiles of
// the two loops, read as 8 input rows, transposed in registers, written as 8 output rows
// (scalar, it read one input cache line per element). 8 at either width: the tile is
// transposed element by element.
// CHECK-LABEL: func @transposed
// CHECK: scf.for %[[I:.*]] = %c0 to %c32 step %c8
// CHECK:   scf.for %[[J:.*]] = %c0 to %c64 step %c8
// CHECK:     %[[IN:.*]] = memref.subview %arg0[%[[J]], %[[I]]] [8, 8] [1, 1]
// CHECK:     %[[OUT:.*]] = memref.subview %arg1[%[[I]], %[[J]]] [8, 8] [1, 1]
// CHECK:     %[[V:.*]] = vector.transfer_read %[[IN]]{{.*}} : memref<8x8xf32, strided<[32, 1], offset: ?>>, vector<8x8xf32>
// CHECK:     %[[T:.*]] = vector.transpose %[[V]], [1, 0] : vector<8x8xf32> to vector<8x8xf32>
// CHECK:     vector.transfer_write %[[T]], %[[OUT]]
// CHECK-NOT: linalg.generic
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

// Loops that are not whole tiles: the kernel is split on views into the whole tiles
// (tiled) and the strips past them along each loop (scalar): out[0:8, 0:16] tiled,
// out[8:9, 0:20] and out[0:8, 16:20] scalar.
// CHECK-LABEL: func @transposed_split
// CHECK: %[[IN:.*]] = memref.subview %arg0[0, 0] [16, 8] [1, 1]
// CHECK: %[[OUT:.*]] = memref.subview %arg1[0, 0] [8, 16] [1, 1]
// CHECK: scf.for
// CHECK:   vector.transpose {{.*}} : vector<8x8xf32> to vector<8x8xf32>
// CHECK: %[[A:.*]] = memref.subview %arg0[0, 8] [20, 1] [1, 1]
// CHECK: %[[B:.*]] = memref.subview %arg1[8, 0] [1, 20] [1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[A]] : {{.*}}) outs(%[[B]] :
// CHECK: %[[C:.*]] = memref.subview %arg0[16, 0] [4, 8] [1, 1]
// CHECK: %[[D:.*]] = memref.subview %arg1[0, 16] [8, 4] [1, 1]
// CHECK: linalg.generic {{.*}} ins(%[[C]] : {{.*}}) outs(%[[D]] :
#s_in = affine_map<(d0, d1) -> (d1, d0)>
#s_out = affine_map<(d0, d1) -> (d0, d1)>
func.func @transposed_split(%x: memref<20x9xf32>, %y: memref<9x20xf32>) {
  linalg.generic {indexing_maps = [#s_in, #s_out], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<20x9xf32>) outs(%y : memref<9x20xf32>) {
  ^bb0(%a: f32, %b: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// An input broadcast along the innermost loop and an elementwise body ride along. Left
// scalar: a loop shorter than a tile (never masked: upstream's masked vectorization of a
// permuted read got elements wrong, (4, 6, 10) by (1, 2, 0)), and two inputs transposed
// along different loops.
// CHECK-LABEL: func @transposed_broadcast
// CHECK: vector.transpose {{.*}} : vector<8x8xf32> to vector<8x8xf32>
// CHECK: math.exp {{.*}} : vector<8x8xf32>
// CHECK-LABEL: func @transposed_ragged
// CHECK: linalg.generic
// CHECK-NOT: vector.
// CHECK-LABEL: func @two_transposes
// CHECK: linalg.generic
// CHECK-NOT: vector.
#r_in = affine_map<(d0, d1) -> (d1, d0)>
#r_row = affine_map<(d0, d1) -> (d0)>
#r_out = affine_map<(d0, d1) -> (d0, d1)>
func.func @transposed_broadcast(%x: memref<16x8xf32>, %b: memref<8xf32>, %y: memref<8x16xf32>) {
  linalg.generic {indexing_maps = [#r_in, #r_row, #r_out], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : memref<16x8xf32>, memref<8xf32>) outs(%y : memref<8x16xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  }
  return
}
func.func @transposed_ragged(%x: memref<13x7xf32>, %b: memref<7xf32>, %y: memref<7x13xf32>) {
  linalg.generic {indexing_maps = [#r_in, #r_row, #r_out], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : memref<13x7xf32>, memref<7xf32>) outs(%y : memref<7x13xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    %e = math.exp %s : f32
    linalg.yield %e : f32
  }
  return
}
#q_in0 = affine_map<(d0, d1, d2) -> (d2, d1, d0)>
#q_in1 = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#q_out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @two_transposes(%x: memref<4x3x2xf32>, %z: memref<2x4x3xf32>, %y: memref<2x3x4xf32>) {
  linalg.generic {indexing_maps = [#q_in0, #q_in1, #q_out], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %z : memref<4x3x2xf32>, memref<2x4x3xf32>) outs(%y : memref<2x3x4xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left scalar: the output's rows (loop d2) and the input's (loop d1) are whole tiles, but
// another dim (d0) lies between them in the output. Tiled, upstream's transfer patterns
// undid each other forever (the tile's unit dim dropped, then put back): the compile hung.
// CHECK-LABEL: func @transposed_with_a_dim_between
// CHECK: linalg.generic
// CHECK-NOT: vector.
// CHECK: return
#g_in = affine_map<(d0, d1, d2) -> (d0, d2, d1)>
#g_out = affine_map<(d0, d1, d2) -> (d1, d0, d2)>
func.func @transposed_with_a_dim_between(%x: memref<2x16x16xi64>, %y: memref<16x2x16xi64>) {
  linalg.generic {indexing_maps = [#g_in, #g_out], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x : memref<2x16x16xi64>) outs(%y : memref<16x2x16xi64>) {
  ^bb0(%a: i64, %o: i64):
    %s = arith.addi %a, %a : i64
    linalg.yield %s : i64
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

// Big enough to share (2^22 iterations of a one-op body: parallel.PARALLEL_MIN_WORK): rows
// go to threads (scf.forall over the outer loop).
// CHECK-LABEL: func @big_rows
// CHECK-NOT: scf.forall
#b = affine_map<(d0, d1) -> (d0, d1)>
func.func @big_rows(%x: memref<4096x1024xf32>, %y: memref<4096x1024xf32>) {
  linalg.generic {indexing_maps = [#b, #b], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4096x1024xf32>) outs(%y : memref<4096x1024xf32>) {
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
func.func @big_vector(%x: memref<4194304xf32>, %y: memref<4194304xf32>) {
  linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%x : memref<4194304xf32>) outs(%y : memref<4194304xf32>) {
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
// THREADS: memref.load %{{.*}}[%[[R]]] : memref<2048xi32>
// THREADS: scf.for %{{.*}} step %c[[$F32]]{{[_0-9]*}} {
// THREADS: vector.transfer_read {{.*}} : memref<1000x1024xf32>, vector<[[$F32]]xf32>
// THREADS-NOT: nontemporal
#gb = affine_map<(d0, d1) -> (d0, d1)>
func.func @gather_rows_big(%ids: memref<2048xi32>, %table: memref<1000x1024xf32>, %y: memref<2048x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c999 = arith.constant 999 : index
  linalg.generic {indexing_maps = [#gb], iterator_types = ["parallel", "parallel"]} outs(%y : memref<2048x1024xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %id = memref.load %ids[%i] : memref<2048xi32>
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

// A kernel that moves at least twice the last-level cache (here cache-bytes=262144: 32 MB
// moved) stores non-temporally when its output is aligned to a register (checked at run
// time, ordinary stores otherwise), and fences each thread's share. With the host's cache
// (the other RUN lines, cache-bytes=1 GiB) the same kernel is an ordinary one.
// STREAM-LABEL: func @stream
// STREAM: %[[P:.*]] = memref.extract_aligned_pointer_as_index %{{.*}} : memref<4194304xf32> -> index
// STREAM: %[[ALIGNED:.*]] = arith.cmpi eq
// STREAM: scf.forall (%{{.*}}) in (8) {
// STREAM: scf.if %[[ALIGNED]] {
// STREAM: scf.for %{{.*}} step %c16{{[_0-9]*}} {
// STREAM: vector.store %{{.*}} {alignment = 32 : i64, nontemporal = true} : memref<4194304xf32>, vector<16xf32>
// STREAM: } else {
// STREAM: scf.for %{{.*}} step %c16{{[_0-9]*}} {
// STREAM: vector.transfer_write %{{.*}} : vector<16xf32>, memref<4194304xf32>
// STREAM: llvm.call_intrinsic "llvm.x86.sse.sfence"
// CHECK-LABEL: func @stream
// CHECK-NOT: nontemporal
// CHECK: return
// THREADS-LABEL: func @stream
// THREADS-NOT: nontemporal
// THREADS: return
#st = affine_map<(d0) -> (d0)>
#st0 = affine_map<(d0) -> ()>
func.func @stream(%x: memref<4194304xf32>, %s: memref<f32>, %y: memref<4194304xf32>) {
  linalg.generic {indexing_maps = [#st, #st0, #st], iterator_types = ["parallel"]}
      ins(%x, %s : memref<4194304xf32>, memref<f32>) outs(%y : memref<4194304xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A row reduction along the innermost loop, short (here the 16 partial maxima of a
// lane-split max): one vector per row and one vector.reduction (a shuffle tree), not 16
// dependent extract-and-combine steps.
// CHECK-LABEL: func @lane_max
// CHECK: scf.for %[[R:.*]] =
// CHECK: %[[OLD:.*]] = memref.load %{{.*}}[%[[R]]] : memref<4xf32>
// CHECK: %[[V:.*]] = vector.transfer_read %{{.*}}[%[[R]], %{{.*}}]{{.*}} : memref<4x16xf32>, vector<16xf32>
// CHECK: %[[M:.*]] = vector.reduction <maximumf>, %[[V]], %[[OLD]] : vector<16xf32> into f32
// CHECK: memref.store %[[M]], %{{.*}}[%[[R]]] : memref<4xf32>
// CHECK-NOT: vector.extract
// CHECK: return
#lr_in = affine_map<(d0, d1) -> (d0, d1)>
#lr_out = affine_map<(d0, d1) -> (d0)>
func.func @lane_max(%x: memref<4x16xf32>, %m: memref<4xf32>) {
  linalg.generic {indexing_maps = [#lr_in, #lr_out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x16xf32>) outs(%m : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// An f32 sum accumulated in f64 (the body's types are kept): the lanes widened, one
// reassociated reduction.
// CHECK-LABEL: func @lane_sum_f64
// CHECK: %[[V:.*]] = vector.transfer_read {{.*}} : memref<16xf32>, vector<16xf32>
// CHECK: %[[W:.*]] = arith.extf %[[V]] : vector<16xf32> to vector<16xf64>
// CHECK: vector.reduction <add>, %[[W]], %{{.*}} fastmath<reassoc> : vector<16xf64> into f64
#ls_in = affine_map<(d0) -> (d0)>
#ls_out = affine_map<(d0) -> ()>
func.func @lane_sum_f64(%x: memref<16xf32>, %s: memref<f64>) {
  linalg.generic {indexing_maps = [#ls_in, #ls_out], iterator_types = ["reduction"]}
      ins(%x : memref<16xf32>) outs(%s : memref<f64>) {
  ^bb0(%a: f32, %acc: f64):
    %e = arith.extf %a : f32 to f64
    %r = arith.addf %e, %acc : f64
    linalg.yield %r : f64
  }
  return
}

// -----

// A long row that is not a whole number of vectors (1000 f32; hlo-to-linalg splits only
// rows whose length the lanes divide): two vector accumulators (independent chains) over
// the full vectors, combined and reduced once, plus the 8 elements left as one short
// vector reduced on its own. No masks, no lane-by-lane chain.
// CHECK-LABEL: func @long_row_sum
// CHECK: scf.for
// CHECK: %[[ACC:.*]]:2 = scf.for {{.*}} iter_args({{.*}}) -> (vector<[[$F32]]xf32>, vector<[[$F32]]xf32>)
// CHECK:   arith.addf {{.*}} : vector<[[$F32]]xf32>
// CHECK:   arith.addf {{.*}} : vector<[[$F32]]xf32>
// CHECK: vector.reduction <add>, %{{.*}}, %{{.*}} fastmath<reassoc> : vector<[[$F32]]xf32> into f32
// CHECK: %[[TAIL:.*]] = vector.transfer_read {{.*}} : memref<4x1000xf32>, vector<8xf32>
// CHECK: vector.reduction <add>, %[[TAIL]] fastmath<reassoc> : vector<8xf32> into f32
// CHECK-NOT: vector.create_mask
// CHECK-NOT: vector.extract
// CHECK: return
#lo_in = affine_map<(d0, d1) -> (d0, d1)>
#lo_out = affine_map<(d0, d1) -> (d0)>
func.func @long_row_sum(%x: memref<4x1000xf32>, %s: memref<4xf32>) {
  linalg.generic {indexing_maps = [#lo_in, #lo_out], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4x1000xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A sum over the last two loops (both reductions) of a contiguous input: the loops become
// one (the input collapsed to 4 x 777), a row reduction with vector accumulators; not
// upstream's loop of 16 lane-by-lane adds per vector into the scalar.
// CHECK-LABEL: func @two_reduction_loops
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %arg0 {{\[}}[0], [1, 2]] : memref<4x7x111xf32> into memref<4x777xf32>
// CHECK: %[[ACC:.*]]:2 = scf.for {{.*}} iter_args({{.*}}) -> (vector<[[$F32]]xf32>, vector<[[$F32]]xf32>)
// CHECK: vector.reduction <add>
// CHECK-NOT: vector.extract %{{.*}}[1] : vector<1xf32>
// CHECK: return
#tr_in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tr_out = affine_map<(d0, d1, d2) -> (d0)>
func.func @two_reduction_loops(%x: memref<4x7x111xf32>, %s: memref<4xf32>) {
  linalg.generic {indexing_maps = [#tr_in, #tr_out], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : memref<4x7x111xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Not collapsed: the input is a strided view (its rows 200 apart, 111 used), so the two
// reduced loops do not read one run of memory.
// CHECK-LABEL: func @two_reduction_loops_strided
// CHECK-NOT: memref.collapse_shape
// CHECK: return
#ts_in = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#ts_out = affine_map<(d0, d1, d2) -> (d0)>
func.func @two_reduction_loops_strided(%x: memref<4x7x111xf32, strided<[1400, 200, 1]>>, %s: memref<4xf32>) {
  linalg.generic {indexing_maps = [#ts_in, #ts_out], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x : memref<4x7x111xf32, strided<[1400, 200, 1]>>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A strided layout whose strides are the identity's (a view of a padded temporary) stays a
// strided layout when collapsed, as memref.collapse_shape requires (fuzz run 26).
// CHECK-LABEL: func @two_reduction_loops_strided_identity
// CHECK: memref.collapse_shape %arg0 {{\[}}[0, 1]] : memref<3x5xi64, strided<[5, 1]>> into memref<15xi64, strided<[1]>>
#tsi_in = affine_map<(d0, d1) -> (d0, d1)>
#tsi_out = affine_map<(d0, d1) -> ()>
func.func @two_reduction_loops_strided_identity(%x: memref<3x5xi64, strided<[5, 1]>>, %s: memref<i64>) {
  linalg.generic {indexing_maps = [#tsi_in, #tsi_out], iterator_types = ["reduction", "reduction"]}
      ins(%x : memref<3x5xi64, strided<[5, 1]>>) outs(%s : memref<i64>) {
  ^bb0(%a: i64, %acc: i64):
    %r = arith.andi %a, %acc : i64
    linalg.yield %r : i64
  }
  return
}

// -----

// Not collapsed: a window's map (d0 * 2 + d1) is no projection of the loops (the second
// input, the window's shape, gives the loops their sizes, as hlo-to-linalg's windows do).
// CHECK-LABEL: func @two_reduction_loops_window
// CHECK-NOT: memref.collapse_shape
// CHECK: return
#tw_in = affine_map<(d0, d1, d2) -> (d0 * 2 + d1, d2)>
#tw_win = affine_map<(d0, d1, d2) -> (d1, d2)>
#tw_out = affine_map<(d0, d1, d2) -> (d0)>
func.func @two_reduction_loops_window(%x: memref<9x64xf32>, %w: memref<2x64xf32>, %s: memref<4xf32>) {
  linalg.generic {indexing_maps = [#tw_in, #tw_win, #tw_out], iterator_types = ["parallel", "reduction", "reduction"]}
      ins(%x, %w : memref<9x64xf32>, memref<2x64xf32>) outs(%s : memref<4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A ragged parallel row (100 f32, not a multiple of the lanes): MLC's row emitter, full
// vectors then one 4-element vector; upstream's masked vectorization would mask every load
// and store of the row.
// CHECK-LABEL: func @ragged_rows
// CHECK: scf.for %{{.*}} step %c[[$F32]]
// CHECK: math.exp {{.*}} : vector<[[$F32]]xf32>
// CHECK: math.exp {{.*}} : vector<4xf32>
// CHECK-NOT: vector.create_mask
// CHECK: return
#rg = affine_map<(d0, d1) -> (d0, d1)>
func.func @ragged_rows(%x: memref<8x100xf32>, %y: memref<8x100xf32>) {
  linalg.generic {indexing_maps = [#rg, #rg], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x100xf32>) outs(%y : memref<8x100xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// Division by a row's value (softmax's e / sum) in a loop over the row's vectors: the
// reciprocal once per row, a multiply per element. f32 multiplies in f64 by an f64 reciprocal (exact range: 1/s of a subnormal
// f32 overflows f32) and rounds once.
// CHECK-LABEL: func @divide_by_row
// CHECK: %[[S:.*]] = memref.load %{{.*}} : memref<1xf32, strided<[1], offset: ?>>
// CHECK: %[[SW:.*]] = arith.extf %[[S]] : f32 to f64
// CHECK: %[[R:.*]] = arith.divf %{{.*}}, %[[SW]] : f64
// CHECK: %[[XW:.*]] = arith.extf %{{.*}} : vector<[[$F32]]xf32> to vector<[[$F32]]xf64>
// CHECK: %[[RB:.*]] = vector.broadcast %[[R]] : f64 to vector<[[$F32]]xf64>
// CHECK: %[[P:.*]] = arith.mulf %[[XW]], %[[RB]] : vector<[[$F32]]xf64>
// CHECK: arith.truncf %[[P]] : vector<[[$F32]]xf64> to vector<[[$F32]]xf32>
// CHECK-NOT: arith.divf {{.*}} : vector
// CHECK: return
#dv = affine_map<(d0, d1) -> (d0, d1)>
#dv_row = affine_map<(d0, d1) -> (d0)>
func.func @divide_by_row(%x: memref<8x64xf32>, %s: memref<8xf32>, %y: memref<8x64xf32>) {
  linalg.generic {indexing_maps = [#dv, #dv_row, #dv], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<8x64xf32>, memref<8xf32>) outs(%y : memref<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// f16 multiplies in f32 by an f32 reciprocal.
// CHECK-LABEL: func @divide_by_row_f16
// CHECK: arith.extf %{{.*}} : f16 to f32
// CHECK: arith.divf %{{.*}}, %{{.*}} : f32
// CHECK: arith.mulf %{{.*}}, %{{.*}} : vector<{{[0-9]+}}xf32>
// CHECK: arith.truncf %{{.*}} : vector<{{[0-9]+}}xf32> to vector<{{[0-9]+}}xf16>
// CHECK-NOT: arith.divf {{.*}} : vector
// CHECK: return
#dh = affine_map<(d0, d1) -> (d0, d1)>
#dh_row = affine_map<(d0, d1) -> (d0)>
func.func @divide_by_row_f16(%x: memref<8x256xf16>, %s: memref<8xf16>, %y: memref<8x256xf16>) {
  linalg.generic {indexing_maps = [#dh, #dh_row, #dh], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<8x256xf16>, memref<8xf16>) outs(%y : memref<8x256xf16>) {
  ^bb0(%a: f16, %b: f16, %o: f16):
    %r = arith.divf %a, %b : f16
    linalg.yield %r : f16
  }
  return
}

// -----

// Not rewritten: a divisor that varies along the row, an f64 division (no wider type
// holds its reciprocal's range), and a row of one vector (one division per divisor anyway).
// CHECK-LABEL: func @divide_elementwise
// CHECK: arith.divf %{{.*}}, %{{.*}} : vector<[[$F32]]xf32>
// CHECK-LABEL: func @divide_by_row_f64
// CHECK: arith.divf %{{.*}}, %{{.*}} : vector<[[$F64]]xf64>
// CHECK-LABEL: func @divide_one_vector_row
// CHECK: arith.divf %{{.*}}, %{{.*}} : vector<16xf32>
#de = affine_map<(d0, d1) -> (d0, d1)>
#de_row = affine_map<(d0, d1) -> (d0)>
func.func @divide_elementwise(%x: memref<8x64xf32>, %s: memref<8x64xf32>, %y: memref<8x64xf32>) {
  linalg.generic {indexing_maps = [#de, #de, #de], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<8x64xf32>, memref<8x64xf32>) outs(%y : memref<8x64xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}
func.func @divide_by_row_f64(%x: memref<8x64xf64>, %s: memref<8xf64>, %y: memref<8x64xf64>) {
  linalg.generic {indexing_maps = [#de, #de_row, #de], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<8x64xf64>, memref<8xf64>) outs(%y : memref<8x64xf64>) {
  ^bb0(%a: f64, %b: f64, %o: f64):
    %r = arith.divf %a, %b : f64
    linalg.yield %r : f64
  }
  return
}
func.func @divide_one_vector_row(%x: memref<8x16xf32>, %s: memref<8xf32>, %y: memref<8x16xf32>) {
  linalg.generic {indexing_maps = [#de, #de_row, #de], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<8x16xf32>, memref<8xf32>) outs(%y : memref<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A row-fusion loop (mlc-row-fusion's output) that moves at least twice the last-level
// cache (the STREAM run, cache-bytes=262144; x and out are 4 MB each): the kernel writing the
// loop's result row stores it non-temporally when aligned, and one sfence follows the row
// loop (not one per row). With the host's cache (1 GiB here) it is ordinary code.
// STREAM-LABEL: func @streaming_rows
// STREAM: scf.for
// STREAM: vector.reduction <add>
// STREAM: scf.if
// STREAM: vector.store %{{.*}} {alignment = 32 : i64, nontemporal = true} : memref<1x256xf32, strided<[256, 1], offset: ?>>, vector<16xf32>
// STREAM: } else {
// STREAM: vector.transfer_write
// STREAM-NOT: sfence
// STREAM: } {mlc.row_fusion = 4096 : i64}
// STREAM-NEXT: llvm.call_intrinsic "llvm.x86.sse.sfence"
// CHECK-LABEL: func @streaming_rows
// CHECK-NOT: nontemporal
// CHECK-NOT: sfence
// CHECK: return
#rs = affine_map<(d0, d1) -> (d0, d1)>
#rs_row = affine_map<(d0, d1) -> (d0)>
func.func @streaming_rows(%x: memref<4096x256xf32>, %out: memref<4096x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  %zero = arith.constant 0.0 : f32
  %sum = memref.alloca() {alignment = 64 : i64} : memref<1xf32>
  scf.for %r = %c0 to %c4096 step %c1 {
    %xr = memref.subview %x[%r, 0] [1, 256] [1, 1] : memref<4096x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>
    linalg.fill ins(%zero : f32) outs(%sum : memref<1xf32>)
    linalg.generic {indexing_maps = [#rs, #rs_row], iterator_types = ["parallel", "reduction"]}
        ins(%xr : memref<1x256xf32, strided<[256, 1], offset: ?>>) outs(%sum : memref<1xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %s = arith.addf %a, %acc : f32
      linalg.yield %s : f32
    }
    %or = memref.subview %out[%r, 0] [1, 256] [1, 1] : memref<4096x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>
    linalg.generic {indexing_maps = [#rs, #rs_row, #rs], iterator_types = ["parallel", "parallel"]}
        ins(%xr, %sum : memref<1x256xf32, strided<[256, 1], offset: ?>>, memref<1xf32>)
        outs(%or : memref<1x256xf32, strided<[256, 1], offset: ?>>) {
    ^bb0(%a: f32, %b: f32, %o: f32):
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
    }
  } {mlc.row_fusion = 4096 : i64}
  return
}

// -----

// Not streamed: a row a later kernel of the loop reads back (its line would have to come
// back from memory); the second kernel's result row, read by nobody, streams.
// STREAM-LABEL: func @streaming_rows_read_back
// STREAM: arith.mulf
// STREAM-NEXT: vector.transfer_write
// STREAM: arith.addf
// STREAM-NEXT: vector.store {{.*}}nontemporal = true
#rr = affine_map<(d0, d1) -> (d0, d1)>
func.func @streaming_rows_read_back(%x: memref<4096x256xf32>, %out: memref<4096x256xf32>, %out2: memref<4096x256xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4096 = arith.constant 4096 : index
  scf.for %r = %c0 to %c4096 step %c1 {
    %xr = memref.subview %x[%r, 0] [1, 256] [1, 1] : memref<4096x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>
    %or = memref.subview %out[%r, 0] [1, 256] [1, 1] : memref<4096x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>
    linalg.generic {indexing_maps = [#rr, #rr], iterator_types = ["parallel", "parallel"]}
        ins(%xr : memref<1x256xf32, strided<[256, 1], offset: ?>>) outs(%or : memref<1x256xf32, strided<[256, 1], offset: ?>>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.mulf %a, %a : f32
      linalg.yield %m : f32
    }
    %or2 = memref.subview %out[%r, 0] [1, 256] [1, 1] : memref<4096x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>
    %o2r = memref.subview %out2[%r, 0] [1, 256] [1, 1] : memref<4096x256xf32> to memref<1x256xf32, strided<[256, 1], offset: ?>>
    linalg.generic {indexing_maps = [#rr, #rr], iterator_types = ["parallel", "parallel"]}
        ins(%or2 : memref<1x256xf32, strided<[256, 1], offset: ?>>) outs(%o2r : memref<1x256xf32, strided<[256, 1], offset: ?>>) {
    ^bb0(%a: f32, %o: f32):
      %m = arith.addf %a, %a : f32
      linalg.yield %m : f32
    }
  } {mlc.row_fusion = 4096 : i64}
  return
}

// -----

// A kernel inside a loop already shared between threads (a row-fusion scf.forall whose rows
// are 512 x 512 matrices) gets no scf.forall of its own, however big: a task waiting on
// nested tasks holds its worker, and with both workers waiting the program deadlocked.
// THREADS-LABEL: func @no_nested_forall
// THREADS: scf.forall
// THREADS-NOT: scf.forall
// THREADS: vector.reduction <add>
// THREADS-NOT: scf.forall
// THREADS: return
#nf3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#nf2 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @no_nested_forall(%x: memref<4x512x512xf32>, %s: memref<4x512xf32>) {
  scf.forall (%i) in (4) {
    %xr = memref.subview %x[%i, 0, 0] [1, 512, 512] [1, 1, 1] : memref<4x512x512xf32> to memref<1x512x512xf32, strided<[262144, 512, 1], offset: ?>>
    %sr = memref.subview %s[%i, 0] [1, 512] [1, 1] : memref<4x512xf32> to memref<1x512xf32, strided<[512, 1], offset: ?>>
    linalg.generic {indexing_maps = [#nf3, #nf2], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%xr : memref<1x512x512xf32, strided<[262144, 512, 1], offset: ?>>) outs(%sr : memref<1x512xf32, strided<[512, 1], offset: ?>>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.addf %a, %acc : f32
      linalg.yield %r : f32
    }
  } {mlc.row_fusion = 4 : i64}
  return
}

// -----

// A divisor that is a function argument, divided by in two loops: one reciprocal at the
// start of the function, where it dominates both.
// CHECK-LABEL: func @reciprocal_of_an_argument
// CHECK-NEXT: arith.extf %{{.*}} : f32 to f64
// CHECK: arith.divf %{{.*}}, %{{.*}} : f64
// CHECK-NOT: arith.divf
// CHECK: arith.mulf {{.*}} : vector<[[$F32]]xf64>
// CHECK-NOT: arith.divf
// CHECK: arith.mulf {{.*}} : vector<[[$F32]]xf64>
// CHECK-NOT: arith.divf
// CHECK: return
#ra = affine_map<(d0) -> (d0)>
func.func @reciprocal_of_an_argument(%x: memref<64xf32>, %y: memref<64xf32>, %s: f32) {
  linalg.generic {indexing_maps = [#ra, #ra], iterator_types = ["parallel"]} ins(%x : memref<64xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#ra, #ra], iterator_types = ["parallel"]} ins(%y : memref<64xf32>) outs(%x : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A reduction of 2 elements (too short for the row emitter) into an output whose map lists
// its loops out of order, out[d2, d0, d1]: left scalar. Upstream's vectorizer would write it
// as a vector<1x1x1xf32> under a permutation, which its cleanup patterns rewrite forever (a
// convolution from the fuzzer, seed 53, hung the pass). An output in loop order vectorizes.
// CHECK-LABEL: func @short_reduction_into_a_transposed_output
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK-NOT: vector.
// CHECK-LABEL: func @short_reduction_into_an_ordered_output
// CHECK: vector.transfer_read
// CHECK: vector.transfer_write
#in = affine_map<(d0, d1, d2, d3) -> (d2, d0, d3)>
#w = affine_map<(d0, d1, d2, d3) -> (d1, d3)>
#out_transposed = affine_map<(d0, d1, d2, d3) -> (d2, d0, d1)>
#out_ordered = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @short_reduction_into_a_transposed_output(%x: memref<6x2x2xf32>, %w: memref<2x2xf32>, %y: memref<6x2x2xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out_transposed], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : memref<6x2x2xf32>, memref<2x2xf32>) outs(%y : memref<6x2x2xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}
func.func @short_reduction_into_an_ordered_output(%x: memref<6x2x2xf32>, %w: memref<2x2xf32>, %y: memref<2x2x6xf32>) {
  linalg.generic {indexing_maps = [#in, #w, #out_ordered], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%x, %w : memref<6x2x2xf32>, memref<2x2xf32>) outs(%y : memref<2x2x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A long ragged row (1000 f32: 62 or 31 full vectors and 8 left) ends with a last full vector
// at 1000 - lanes, overlapping the one before: the body once, at one width. The extra work
// (the register the 8 elements would leave empty) is at most 1/32 of the row; shorter rows
// (@ragged_rows: 100) keep the short vector. Written in place (@long_ragged_rows_in_place:
// the output is a view of the input) an overlapped element would be computed again from its
// own result: full vectors, then the short one.
// CHECK-LABEL: func @long_ragged_rows
// CHECK: scf.for %[[J:.*]] = %{{.*}} step %c[[$F32]]
// CHECK: %[[AT:.*]] = arith.minsi %[[J]], %c{{[0-9]+}}
// CHECK: vector.transfer_read %{{.*}}[%{{.*}}, %[[AT]]]
// CHECK: math.exp {{.*}} : vector<[[$F32]]xf32>
// CHECK-NOT: math.exp
// CHECK-NOT: vector.create_mask
// CHECK-LABEL: func @long_ragged_rows_in_place
// CHECK: scf.for %{{.*}} step %c[[$F32]]
// CHECK-NOT: arith.minsi
// CHECK: math.exp {{.*}} : vector<[[$F32]]xf32>
// CHECK: math.exp {{.*}} : vector<8xf32>
// CHECK: return
#lr = affine_map<(d0, d1) -> (d0, d1)>
func.func @long_ragged_rows(%x: memref<4x1000xf32>, %y: memref<4x1000xf32>) {
  linalg.generic {indexing_maps = [#lr, #lr], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<4x1000xf32>) outs(%y : memref<4x1000xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}
func.func @long_ragged_rows_in_place(%x: memref<4x1000xf32>) {
  %v = memref.subview %x[0, 0] [4, 1000] [1, 1] : memref<4x1000xf32> to memref<4x1000xf32, strided<[1000, 1]>>
  linalg.generic {indexing_maps = [#lr, #lr], iterator_types = ["parallel", "parallel"]}
      ins(%v : memref<4x1000xf32, strided<[1000, 1]>>) outs(%x : memref<4x1000xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// An elementwise kernel whose rows are shorter than a register (20000 x 1, 5 x 3 x 2):
// the short loops join the loop before them while the joined row stays short, the
// operands collapsed (memref.collapse_shape); then one vectorized loop, not 20,000
// one-lane vectors.
// CHECK-LABEL: func @short_rows_joined
// CHECK: %[[A:.*]] = memref.collapse_shape %arg0 {{\[}}[0, 1]] : memref<20000x1xi32> into memref<20000xi32>
// CHECK: %[[B:.*]] = memref.collapse_shape %arg1 {{\[}}[0, 1]] : memref<20000x1xi32> into memref<20000xi32>
// CHECK: scf.for
// CHECK:   vector.transfer_read %{{.*}} : memref<{{.*}}xi32{{.*}}>, vector<[[$F32]]xi32>
// CHECK:   arith.maxsi %{{.*}} : vector<[[$F32]]xi32>
// CHECK-NOT: vector<1xi32>
// CHECK: memref.collapse_shape %arg2 {{\[}}[0, 1, 2]] : memref<5x3x2xf32> into memref<30xf32>
// CHECK: return
#sr_id = affine_map<(d0, d1) -> (d0, d1)>
#sr_id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @short_rows_joined(%x: memref<20000x1xi32>, %y: memref<20000x1xi32>, %u: memref<5x3x2xf32>, %v: memref<5x3x2xf32>) {
  %zero = arith.constant 0 : i32
  linalg.generic {indexing_maps = [#sr_id, #sr_id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<20000x1xi32>) outs(%y : memref<20000x1xi32>) {
  ^bb0(%a: i32, %out: i32):
    %r = arith.maxsi %a, %zero : i32
    linalg.yield %r : i32
  }
  linalg.generic {indexing_maps = [#sr_id3, #sr_id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%u : memref<5x3x2xf32>) outs(%v : memref<5x3x2xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Not collapsed: the output is a strided view (rows 4 apart, 1 used), and a row broadcast
// (its map is no identity) would read the joined loop at the wrong place.
// CHECK-LABEL: func @short_rows_kept
// CHECK-NOT: memref.collapse_shape
// CHECK: return
#srk_id = affine_map<(d0, d1) -> (d0, d1)>
#srk_row = affine_map<(d0, d1) -> (d1)>
func.func @short_rows_kept(%x: memref<100x1xf32>, %y: memref<100x1xf32, strided<[4, 1]>>, %b: memref<3xf32>, %z: memref<100x3xf32>) {
  linalg.generic {indexing_maps = [#srk_id, #srk_id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<100x1xf32>) outs(%y : memref<100x1xf32, strided<[4, 1]>>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#srk_row, #srk_id], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<3xf32>) outs(%z : memref<100x3xf32>) {
  ^bb0(%a: f32, %out: f32):
    linalg.yield %a : f32
  }
  return
}
