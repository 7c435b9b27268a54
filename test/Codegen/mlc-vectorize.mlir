// Both vector widths MLC targets (AVX2, AVX-512), whatever the host: F32 and F64 are the
// lanes of two registers, F32 / F64 elements.
// RUN: mlc-opt %s --split-input-file --mlc-vectorize="register-bits=256 threads=1" | FileCheck %s -D\$F32=16 -D\$F64=8
// RUN: mlc-opt %s --split-input-file --mlc-vectorize="register-bits=256 threads=2" | FileCheck %s --check-prefix=THREADS -D\$F32=16
// RUN: mlc-opt %s --split-input-file --mlc-vectorize="register-bits=512 threads=1" | FileCheck %s -D\$F32=32 -D\$F64=16
// RUN: mlc-opt %s --split-input-file --mlc-vectorize="register-bits=512 threads=2" | FileCheck %s --check-prefix=THREADS -D\$F32=32
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

// Left scalar: a body with an op the vectorizer would not widen (a memref load).
// CHECK-LABEL: func @gather_body
// CHECK: linalg.generic
// CHECK-NOT: vector.
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
