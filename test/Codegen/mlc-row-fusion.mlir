// RUN: mlc-opt %s --split-input-file --mlc-row-fusion="threads=2" | FileCheck %s
// RUN: mlc-opt %s --split-input-file --mlc-row-fusion="threads=1" | FileCheck %s --check-prefix=ONE

// A row max then a row-wise subtract: one loop over the 4096 rows runs both kernels on row
// subviews. With two threads it is an scf.forall over 8 chunks of 512 rows, each an scf.for.
// The row maxima, used only inside the loop, shrink to one private element per chunk,
// allocated before the row loop (never inside it), on a cache line.
// CHECK-LABEL: func @max_then_subtract
// CHECK-NOT: memref.alloc()
// CHECK: scf.forall (%[[C:.*]]) in (8)
// CHECK:   %[[M:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1xf32>
// CHECK:   scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK-NOT: memref.alloca
// CHECK:     linalg.fill {{.*}}outs(%{{.*}} : memref<1xf32, strided<[1], offset: ?>>)
// CHECK:     memref.subview %{{.*}}[%[[R]], 0] [1, 1024] [1, 1]
// CHECK:     linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:     linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK: } {mlc.row_fusion = 4096 : i64}
// ONE-LABEL: func @max_then_subtract
// ONE: memref.alloca() {alignment = 64 : i64} : memref<1xf32>
// ONE: scf.for
// ONE-NOT: scf.forall
// ONE: } {mlc.row_fusion = 4096 : i64}
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @max_then_subtract(%x: memref<4096x1024xf32>, %out: memref<4096x1024xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %m = memref.alloc() : memref<4096xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<4096xf32>)
  linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<4096x1024xf32>) outs(%m : memref<4096xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %m : memref<4096x1024xf32>, memref<4096xf32>) outs(%out : memref<4096x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Not fused: the second kernel reads the first one's output whole (a column sum over all
// rows), so row r would need every row of it.
// CHECK-LABEL: func @reads_all_rows
// CHECK-NOT: scf.forall
// CHECK-NOT: scf.for
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#cols = affine_map<(d0, d1) -> (d1, d0)>
func.func @reads_all_rows(%x: memref<64x64xf32>, %t: memref<64x64xf32>, %out: memref<64x64xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x64xf32>) outs(%t : memref<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#cols, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// Not fused: a matmul is left whole for the matmul strategies (BLAS, tiled code).
// CHECK-LABEL: func @matmul_then_relu
// CHECK-NOT: scf.for
// CHECK: linalg.generic {{.*}}"reduction"
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
#e = affine_map<(m, n) -> (m, n)>
func.func @matmul_then_relu(%x: memref<64x64xf32>, %w: memref<64x64xf32>, %y: memref<64x64xf32>, %out: memref<64x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<64x64xf32>)
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<64x64xf32>, memref<64x64xf32>) outs(%y : memref<64x64xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#e, #e], iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<64x64xf32>) outs(%out : memref<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %zero : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Not fused: the fill of a matmul's accumulator, even after row-wise kernels it could join
// (layer norm, then x @ w1): it stays right before the matmul, where mlc-blas drops it
// (beta = 0; the packed kernel overwrites C) rather than zeros being written row by row for
// the GEMM to read back. The two row kernels before it are fused.
// CHECK-LABEL: func @fill_of_matmul_accumulator
// CHECK: scf.for
// CHECK-NOT: memref<1x128xf32
// CHECK: } {mlc.row_fusion = 64 : i64}
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : memref<64x128xf32>)
// CHECK-NEXT: linalg.generic {{.*}}"reduction"
#a2 = affine_map<(m, n, k) -> (m, k)>
#b2 = affine_map<(m, n, k) -> (k, n)>
#c2 = affine_map<(m, n, k) -> (m, n)>
#e2 = affine_map<(m, n) -> (m, n)>
#r2 = affine_map<(m, n) -> (m)>
func.func @fill_of_matmul_accumulator(%x: memref<64x256xf32>, %w: memref<256x128xf32>, %y: memref<64x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<64xf32>
  %n = memref.alloc() : memref<64x256xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<64xf32>)
  linalg.generic {indexing_maps = [#e2, #r2], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x256xf32>) outs(%s : memref<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %a, %acc : f32
    linalg.yield %t : f32
  }
  linalg.generic {indexing_maps = [#e2, #r2, #e2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<64x256xf32>, memref<64xf32>) outs(%n : memref<64x256xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.subf %a, %b : f32
    linalg.yield %t : f32
  }
  linalg.fill ins(%zero : f32) outs(%y : memref<64x128xf32>)
  linalg.generic {indexing_maps = [#a2, #b2, #c2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%n, %w : memref<64x256xf32>, memref<256x128xf32>) outs(%y : memref<64x128xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %t = arith.addf %acc, %m : f32
    linalg.yield %t : f32
  }
  memref.dealloc %s : memref<64xf32>
  memref.dealloc %n : memref<64x256xf32>
  return
}

// -----

// Not fused: a sliding window reads x[o + k], so the output loop is not a row of x.
// CHECK-LABEL: func @sliding_window
// CHECK-NOT: scf.for
#window = affine_map<(o, k) -> (o + k)>
#taps = affine_map<(o, k) -> (k)>
#outs = affine_map<(o, k) -> (o)>
func.func @sliding_window(%x: memref<5xf32>, %w: memref<3xf32>, %y: memref<3xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<3xf32>)
  linalg.generic {indexing_maps = [#window, #taps, #outs], iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : memref<5xf32>, memref<3xf32>) outs(%y : memref<3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not fused: a body that reads its row's position (linalg.index of a row loop) or loads
// from a buffer (a gather) would mean something else on a row subview.
// CHECK-LABEL: func @position_dependent
// CHECK-NOT: scf.for
#p = affine_map<(d0, d1) -> (d0, d1)>
func.func @position_dependent(%x: memref<8x4xf32>, %t: memref<8x4xf32>, %out: memref<8x4xf32>) {
  linalg.generic {indexing_maps = [#p, #p], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x4xf32>) outs(%t : memref<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#p], iterator_types = ["parallel", "parallel"]} outs(%out : memref<8x4xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %v = memref.load %t[%i, %j] : memref<8x4xf32>
    linalg.yield %v : f32
  }
  return
}

// -----

// CHECK-LABEL: func @row_index_not_fused
// CHECK-NOT: scf.for
#q = affine_map<(d0, d1) -> (d0, d1)>
func.func @row_index_not_fused(%x: memref<8x4xf32>, %t: memref<8x4xf32>, %out: memref<8x4xf32>) {
  linalg.generic {indexing_maps = [#q, #q], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x4xf32>) outs(%t : memref<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %a : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#q, #q], iterator_types = ["parallel", "parallel"]}
      ins(%t : memref<8x4xf32>) outs(%out : memref<8x4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i32
    %f = arith.sitofp %c : i32 to f32
    %r = arith.addf %a, %f : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Fused: a position within the row (linalg.index of a loop after the row loop) counts the
// same on a row subview. argmax's two passes (the row's max, then the first position
// holding it) read each row once, the second pass from cache.
// CHECK-LABEL: func @argmax_rows
// CHECK: scf.forall
// CHECK:   scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK:     linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:       arith.maximumf
// CHECK:     linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:       linalg.index 1 : index
// CHECK: } {mlc.row_fusion = 64 : i64}
#a = affine_map<(d0, d1) -> (d0, d1)>
#ar = affine_map<(d0, d1) -> (d0)>
func.func @argmax_rows(%x: memref<64x777xf32>, %out: memref<64xi32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %n = arith.constant 777 : i32
  %m = memref.alloc() : memref<64xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<64xf32>)
  linalg.generic {indexing_maps = [#a, #ar], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<64x777xf32>) outs(%m : memref<64xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %r = arith.maximumf %v, %acc fastmath<nsz> : f32
    linalg.yield %r : f32
  }
  linalg.fill ins(%n : i32) outs(%out : memref<64xi32>)
  linalg.generic {indexing_maps = [#a, #ar, #ar], iterator_types = ["parallel", "reduction"]}
      ins(%x, %m : memref<64x777xf32>, memref<64xf32>) outs(%out : memref<64xi32>) {
  ^bb0(%v: f32, %b: f32, %acc: i32):
    %eq = arith.cmpf oeq, %v, %b : f32
    %nan = arith.cmpf uno, %v, %v : f32
    %match = arith.ori %eq, %nan : i1
    %j = linalg.index 1 : index
    %pos = arith.index_cast %j : index to i32
    %cand = arith.select %match, %pos, %n : i32
    %r = arith.minsi %cand, %acc : i32
    linalg.yield %r : i32
  }
  return
}

// -----

// Not fused: the first kernel reads %t whole (a broadcast), the second then writes %t row
// by row; in one row loop, row 1 would read %t after row 0 changed it.
// CHECK-LABEL: func @write_after_whole_read
// CHECK-NOT: scf.for
#w = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1, 0)>
func.func @write_after_whole_read(%x: memref<8x8xf32>, %t: memref<8x1xf32>, %y: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [#w, #col, #w], iterator_types = ["parallel", "parallel"]}
      ins(%x, %t : memref<8x8xf32>, memref<8x1xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  }
  %one = arith.constant 1.0 : f32
  linalg.fill ins(%one : f32) outs(%t : memref<8x1xf32>)
  return
}

// -----

// Rank 3, a reduction over the last axis (softmax's max and subtract on (8, 512, 512)):
// rows over the first axis alone would be 1 MiB each, too big for a private row buffer,
// so the rows are (batch, position) pairs: one loop over 8 * 512 rows, each row's indices
// recovered from the row number, and the maxima shrink to a private 1x1 buffer.
// With two threads the 4096 rows are 8 chunks of an scf.forall.
// CHECK-LABEL: func @rank3_rows_over_two_dims
// CHECK: scf.forall (%{{.*}}) in (8)
// CHECK: } {mlc.row_fusion = 4096 : i64}
// ONE-LABEL: func @rank3_rows_over_two_dims
// ONE-NOT: memref.alloc()
// ONE: %[[M:.*]] = memref.alloca() {alignment = 64 : i64} : memref<1x1xf32>
// ONE: scf.for %[[R:.*]] = %{{.*}} to %c4096
// ONE:   %[[B:.*]] = arith.divui %[[R]], %{{.*}}
// ONE:   %[[S:.*]] = arith.remui %[[R]], %{{.*}}
// ONE:   memref.reinterpret_cast %[[M]] to offset: [%{{.*}}], sizes: [1, 1], strides: [512, 1]
// ONE:   memref.subview %{{.*}}[%[[B]], %[[S]], 0] [1, 1, 512] [1, 1, 1]
// ONE:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// ONE:   linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]
// ONE: } {mlc.row_fusion = 4096 : i64}
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @rank3_rows_over_two_dims(%x: memref<8x512x512xf32>, %out: memref<8x512x512xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %m = memref.alloc() : memref<8x512xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<8x512xf32>)
  linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<8x512x512xf32>) outs(%m : memref<8x512xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %m : memref<8x512x512xf32>, memref<8x512xf32>) outs(%out : memref<8x512x512xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// The same with a per-batch bias (indexed by d0 alone) and a (512, 512) mask read as
// (d1, d2), as attention's causal mask is: each row (b, s) reads bias[b] and mask row s,
// slices of one element and of one row.
// CHECK-LABEL: func @rank3_reads_slices_of_inputs
// CHECK: } {mlc.row_fusion = 4096 : i64}
// ONE-LABEL: func @rank3_reads_slices_of_inputs
// ONE: scf.for %[[R:.*]] = %{{.*}} to %c4096
// ONE:   %[[B:.*]] = arith.divui %[[R]], %{{.*}}
// ONE:   %[[S:.*]] = arith.remui %[[R]], %{{.*}}
// ONE:   memref.subview %{{.*}}[%[[B]]] [1] [1] : memref<8xf32> to memref<1xf32, strided<[1], offset: ?>>
// ONE:   memref.subview %{{.*}}[%[[S]], 0] [1, 512] [1, 1] : memref<512x512xf32> to memref<1x512xf32, strided<[512, 1], offset: ?>>
// ONE: } {mlc.row_fusion = 4096 : i64}
#id3b = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3b = affine_map<(d0, d1, d2) -> (d0, d1)>
#batch = affine_map<(d0, d1, d2) -> (d0)>
#mask = affine_map<(d0, d1, d2) -> (d1, d2)>
func.func @rank3_reads_slices_of_inputs(%x: memref<8x512x512xf32>, %bias: memref<8xf32>,
                                        %mask: memref<512x512xf32>, %out: memref<8x512x512xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  %m = memref.alloc() : memref<8x512xf32>
  linalg.fill ins(%ninf : f32) outs(%m : memref<8x512xf32>)
  linalg.generic {indexing_maps = [#id3b, #row3b], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : memref<8x512x512xf32>) outs(%m : memref<8x512xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#id3b, #row3b, #batch, #mask, #id3b], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %m, %bias, %mask : memref<8x512x512xf32>, memref<8x512xf32>, memref<8xf32>, memref<512x512xf32>)
      outs(%out : memref<8x512x512xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %k: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    %t = arith.addf %s, %c : f32
    %r = arith.addf %t, %k : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// A sliding window (x read at (d0, d1 + d2)) mixes the second loop with the third: rows
// over (b, s) would not be independent slices, so the rows stay over the batch axis.
// CHECK-LABEL: func @rank3_window_keeps_one_dim
// CHECK: } {mlc.row_fusion = 8 : i64}
// ONE-LABEL: func @rank3_window_keeps_one_dim
// ONE: scf.for %[[R:.*]] = %{{.*}} to %c8
// ONE-NOT: arith.divui
// ONE: } {mlc.row_fusion = 8 : i64}
#win = affine_map<(d0, d1, d2) -> (d0, d1 + d2)>
#out2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#in2 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#tap = affine_map<(d0, d1, d2) -> (d2)>
func.func @rank3_window_keeps_one_dim(%x: memref<8x1023xf32>, %w: memref<512xf32>, %s: memref<8x512xf32>,
                                      %y: memref<8x512x512xf32>, %out: memref<8x512x512xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<8x512xf32>)
  linalg.generic {indexing_maps = [#win, #tap, #out2], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<8x1023xf32>, memref<512xf32>) outs(%s : memref<8x512xf32>) {
  ^bb0(%a: f32, %t: f32, %acc: f32):
    %p = arith.mulf %a, %t : f32
    %r = arith.addf %p, %acc : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#in2, #out2, #in2], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%y, %s : memref<8x512x512xf32>, memref<8x512xf32>) outs(%out : memref<8x512x512xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Not fused: row n of the column maxima would read column n of %w (w[k, n] as (d1, d0)),
// one element per 1024 bytes; the kernels stay whole loop nests.
// CHECK-LABEL: func @column_read_not_fused
// CHECK-NOT: mlc.row_fusion
// ONE-LABEL: func @column_read_not_fused
// ONE-NOT: mlc.row_fusion
#colmax_in = affine_map<(d0, d1) -> (d1, d0)>
#colmax_out = affine_map<(d0, d1) -> (d0)>
func.func @column_read_not_fused(%w: memref<1024x256xf32>, %m: memref<256xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  linalg.fill ins(%ninf : f32) outs(%m : memref<256xf32>)
  linalg.generic {indexing_maps = [#colmax_in, #colmax_out], iterator_types = ["parallel", "reduction"]}
      ins(%w : memref<1024x256xf32>) outs(%m : memref<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.maximumf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// In the body of mlc-chain-tiling's loop over blocks (one batch index's [1, 256, 128]
// rows), the row max and the subtract run in one loop over the block's 256 rows (rows are
// the second dim), on one thread (the loop around is parallel already).
// CHECK-LABEL: func @in_a_chain_block
// CHECK: scf.forall (%{{.*}}) in (4)
// CHECK-NOT: scf.forall
// CHECK:   scf.for %[[R:.*]] = %{{.*}} to %{{.*}} step
// CHECK:     linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK:     linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel"]
// CHECK:   } {mlc.row_fusion = 256 : i64}
// CHECK: } {mlc.chain_tiling}
// ONE-LABEL: func @in_a_chain_block
// ONE: } {mlc.row_fusion = 256 : i64}
#id3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row3 = affine_map<(d0, d1, d2) -> (d0, d1)>
func.func @in_a_chain_block(%x: memref<4x256x128xf32>, %out: memref<4x256x128xf32>) {
  %ninf = arith.constant 0xFF800000 : f32
  scf.forall (%b) in (4) {
    %xs = memref.subview %x[%b, 0, 0] [1, 256, 128] [1, 1, 1] : memref<4x256x128xf32> to memref<1x256x128xf32, strided<[32768, 128, 1], offset: ?>>
    %os = memref.subview %out[%b, 0, 0] [1, 256, 128] [1, 1, 1] : memref<4x256x128xf32> to memref<1x256x128xf32, strided<[32768, 128, 1], offset: ?>>
    %m = memref.alloc() : memref<1x256xf32>
    linalg.fill ins(%ninf : f32) outs(%m : memref<1x256xf32>)
    linalg.generic {indexing_maps = [#id3, #row3], iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%xs : memref<1x256x128xf32, strided<[32768, 128, 1], offset: ?>>) outs(%m : memref<1x256xf32>) {
    ^bb0(%a: f32, %acc: f32):
      %r = arith.maximumf %a, %acc : f32
      linalg.yield %r : f32
    }
    linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
        ins(%xs, %m : memref<1x256x128xf32, strided<[32768, 128, 1], offset: ?>>, memref<1x256xf32>)
        outs(%os : memref<1x256x128xf32, strided<[32768, 128, 1], offset: ?>>) {
    ^bb0(%a: f32, %c: f32, %o: f32):
      %r = arith.subf %a, %c : f32
      linalg.yield %r : f32
    }
  } {mlc.chain_tiling}
  return
}

// -----

// A copy into a strided view whose rows are not the buffer's (a base-dilated, padded
// window operand: %pad[0, 2, 0] [1, 3, 2] [2, 1, 2] drops dim 0, so the copy's row r is
// the buffer's dim-1 row r) is not fused with a kernel reading the buffer by dim-0 rows:
// that kernel's row 0 needs every row the copy writes. The copy and the fill of the
// output (independent) may share a loop; the window kernel runs after it, whole.
// CHECK-LABEL: func @insert_rows_are_not_buffer_rows
// CHECK: scf.{{for|forall}}
// CHECK:   linalg.copy
// CHECK:   linalg.fill
// CHECK-NOT: linalg.generic
// CHECK: } {mlc.row_fusion = 3 : i64}
// CHECK: linalg.generic {{.*}}ins(%[[PAD:.*]], %{{.*}} : memref<3x5x5xi64>
#win = affine_map<(d0, d1, d2, d3) -> (d0, d1 + d3 * 2, d2)>
#tap = affine_map<(d0, d1, d2, d3) -> (d3)>
#out3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
func.func @insert_rows_are_not_buffer_rows(%x: memref<3x2xi64>, %init: i64, %out: memref<3x3x5xi64>) {
  %pad = memref.alloc() : memref<3x5x5xi64>
  %taps = memref.alloc() : memref<2xi64>
  linalg.fill ins(%init : i64) outs(%pad : memref<3x5x5xi64>)
  %inner = memref.subview %pad[0, 2, 0] [1, 3, 2] [2, 1, 2] : memref<3x5x5xi64> to memref<3x2xi64, strided<[5, 2], offset: 10>>
  linalg.copy ins(%x : memref<3x2xi64>) outs(%inner : memref<3x2xi64, strided<[5, 2], offset: 10>>)
  linalg.fill ins(%init : i64) outs(%out : memref<3x3x5xi64>)
  linalg.generic {indexing_maps = [#win, #tap, #out3], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%pad, %taps : memref<3x5x5xi64>, memref<2xi64>) outs(%out : memref<3x3x5xi64>) {
  ^bb0(%a: i64, %t: i64, %o: i64):
    %r = arith.muli %a, %o : i64
    linalg.yield %r : i64
  }
  memref.dealloc %pad : memref<3x5x5xi64>
  memref.dealloc %taps : memref<2xi64>
  return
}

// -----

// A group holds at most MAX_GROUP_OPS = 64 ops (bodies included): 18 independent 4-op kernels
// (an optimizer step's updates) are a loop of 16 and a loop of 2, not one loop LLVM would
// compile as one huge function.
// ONE-LABEL: func @group_budget
// ONE: scf.for
// ONE-COUNT-16: linalg.generic
// ONE-NOT: linalg.generic
// ONE: } {mlc.row_fusion = 8 : i64}
// ONE: scf.for
// ONE-COUNT-2: linalg.generic
// ONE-NOT: linalg.generic
// ONE: } {mlc.row_fusion = 8 : i64}
// ONE-NOT: linalg.generic
// ONE: return
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#sc2 = affine_map<(d0, d1) -> ()>
func.func @group_budget(%p0: memref<8x16xf32>, %p1: memref<8x16xf32>, %p2: memref<8x16xf32>, %p3: memref<8x16xf32>, %p4: memref<8x16xf32>, %p5: memref<8x16xf32>, %p6: memref<8x16xf32>, %p7: memref<8x16xf32>, %p8: memref<8x16xf32>, %p9: memref<8x16xf32>, %p10: memref<8x16xf32>, %p11: memref<8x16xf32>, %p12: memref<8x16xf32>, %p13: memref<8x16xf32>, %p14: memref<8x16xf32>, %p15: memref<8x16xf32>, %p16: memref<8x16xf32>, %p17: memref<8x16xf32>, %lr: memref<f32>, %o0: memref<8x16xf32>, %o1: memref<8x16xf32>, %o2: memref<8x16xf32>, %o3: memref<8x16xf32>, %o4: memref<8x16xf32>, %o5: memref<8x16xf32>, %o6: memref<8x16xf32>, %o7: memref<8x16xf32>, %o8: memref<8x16xf32>, %o9: memref<8x16xf32>, %o10: memref<8x16xf32>, %o11: memref<8x16xf32>, %o12: memref<8x16xf32>, %o13: memref<8x16xf32>, %o14: memref<8x16xf32>, %o15: memref<8x16xf32>, %o16: memref<8x16xf32>, %o17: memref<8x16xf32>) {
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p0 : memref<f32>, memref<8x16xf32>) outs(%o0 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p1 : memref<f32>, memref<8x16xf32>) outs(%o1 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p2 : memref<f32>, memref<8x16xf32>) outs(%o2 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p3 : memref<f32>, memref<8x16xf32>) outs(%o3 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p4 : memref<f32>, memref<8x16xf32>) outs(%o4 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p5 : memref<f32>, memref<8x16xf32>) outs(%o5 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p6 : memref<f32>, memref<8x16xf32>) outs(%o6 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p7 : memref<f32>, memref<8x16xf32>) outs(%o7 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p8 : memref<f32>, memref<8x16xf32>) outs(%o8 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p9 : memref<f32>, memref<8x16xf32>) outs(%o9 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p10 : memref<f32>, memref<8x16xf32>) outs(%o10 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p11 : memref<f32>, memref<8x16xf32>) outs(%o11 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p12 : memref<f32>, memref<8x16xf32>) outs(%o12 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p13 : memref<f32>, memref<8x16xf32>) outs(%o13 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p14 : memref<f32>, memref<8x16xf32>) outs(%o14 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p15 : memref<f32>, memref<8x16xf32>) outs(%o15 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p16 : memref<f32>, memref<8x16xf32>) outs(%o16 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#sc2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%lr, %p17 : memref<f32>, memref<8x16xf32>) outs(%o17 : memref<8x16xf32>) {
  ^bb0(%l: f32, %p: f32, %o: f32):
    %m = arith.mulf %l, %p : f32
    %r = arith.subf %p, %m : f32
    linalg.yield %r : f32
  }
  return
}
