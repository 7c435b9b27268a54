// Operator selection: OpenBLAS calls (prefix CHECK; the size rule lowered to 64^3 so the
// cases stay small), MLC's packed GEMM with BLAS off for
// AVX2 (prefix OFF; 6 x 16 f32 register tiles, two vector<8xf32> per row) and for AVX-512
// on two threads (prefix WIDE; 8 x 32 tiles, vector<16xf32>, rows split by an scf.forall).
// RUN: env MLC_BLAS=1 mlc-opt %s --split-input-file --mlc-blas="register-bits=256 threads=1 min-mnk=262144" | FileCheck %s
// RUN: env MLC_BLAS=0 mlc-opt %s --split-input-file --no-gemm-kernels --mlc-blas="register-bits=256 threads=1" | FileCheck %s --check-prefix=OFF
// RUN: env MLC_BLAS=0 mlc-opt %s --split-input-file --no-gemm-kernels --mlc-blas="register-bits=512 threads=2" | FileCheck %s --check-prefix=WIDE
// RUN: env MLC_BLAS=1 mlc-opt %s --split-input-file --no-gemm-kernels --mlc-blas="register-bits=256 threads=2 min-mnk=16777216 beside=1" | FileCheck %s --check-prefix=BESIDE
// RUN: env MLC_BLAS=1 mlc-opt %s --split-input-file --no-gemm-kernels --mlc-blas="register-bits=256 threads=2 min-mnk=16777216 beside=0" | FileCheck %s --check-prefix=POOL
// RUN: mlc-opt %s --split-input-file --no-gemm-kernels --mlc-blas="register-bits=512 threads=1 vnni=1" | FileCheck %s --check-prefix=VNNI
// RUN: mlc-opt %s --split-input-file --no-gemm-kernels --mlc-blas="register-bits=256 threads=1 vnni=0" | FileCheck %s --check-prefix=NOVNNI
// RUN: env MLC_BLAS=0 mlc-opt %s --split-input-file --mlc-blas="register-bits=512 threads=2" | FileCheck %s --check-prefix=KERNEL
// (The KERNEL prefix checks MLC's precompiled GEMM kernels, on by default; the others generate the
// packed kernel in the program, --no-gemm-kernels.)

// A 128x256 by 256x128 matmul becomes one call to numpy's OpenBLAS sgemm (row-major, no transposes,
// alpha = beta = 1: the call accumulates into C like the generic did).
// CHECK: func.func private @scipy_cblas_sgemm64_(i32, i32, i32, i64, i64, i64, f32, !llvm.ptr, i64, !llvm.ptr, i64, f32, !llvm.ptr, i64)
// CHECK-LABEL: func @matmul
// CHECK-NOT: linalg.generic
// CHECK: call @scipy_cblas_sgemm64_(%c101{{.*}}, %c111{{.*}}, %c111{{.*}}, %c128{{.*}}, %c128{{.*}}, %c256{{.*}}, %cst{{.*}}, %{{.*}}, %c256{{.*}}, %{{.*}}, %c128{{.*}}, %cst{{.*}}, %{{.*}}, %c128{{.*}})
// OFF-LABEL: func @matmul
// OFF-NOT: call
// OFF: memref.alloc() {alignment = 64 : i64, mlc.packed_gemm} : memref<{{[0-9]+}}xf32>
// OFF: vector.transfer_read {{.*}} vector<16xf32>
// OFF: scf.for {{.*}} iter_args({{.*}}) -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>)
// OFF-COUNT-24: arith.addf {{.*}} fastmath<contract> : vector<8xf32>
// OFF: vector.transfer_write
// OFF-NOT: linalg.generic
// OFF: memref.dealloc
// WIDE-LABEL: func @matmul
// WIDE: scf.forall (%{{.*}}) in (2)
// WIDE: memref.alloc() {alignment = 64 : i64, mlc.packed_gemm}
// WIDE: iter_args({{.*}}) -> (vector<16xf32>,
// WIDE-COUNT-32: arith.addf {{.*}} fastmath<contract> : vector<16xf32>
// With the precompiled kernels the f32 packed GEMM is a call of the kernel for its layout
// (nn: neither operand transposed), thread split (m: rows) and count, and vector width:
// M, N, K, then each matrix's base buffer, offset and leading dimension, then beta_zero
// (false: C is accumulated into).
// KERNEL: func.func private @mlc_gemm_f32_nn_m2_v512(index, index, index, memref<f32>, index, index, memref<f32>, index, index, memref<f32>, index, index, i1)
// KERNEL-LABEL: func @matmul
// KERNEL-NOT: mlc.packed_gemm
// KERNEL: call @mlc_gemm_f32_nn_m2_v512(%c128{{.*}}, %c128{{.*}}, %c256{{.*}}, %{{.*}}, %{{.*}}, %c256{{.*}}, %{{.*}}, %{{.*}}, %c128{{.*}}, %{{.*}}, %{{.*}}, %c128{{.*}}, %false)
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @matmul(%x: memref<128x256xf32>, %w: memref<256x128xf32>, %y: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<128x256xf32>, memref<256x128xf32>) outs(%y : memref<128x128xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A transposed rhs (x @ w^T, w stored [n, k]) is a Trans flag with ldb = k, and a batch
// loop becomes an scf.for around the call, offsetting each pointer by its batch stride
// (128 x 260 x 160 per batch: above the register tiles' 2^22 multiply-adds).
// CHECK-LABEL: func @batched_transposed
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}}
// CHECK: call @scipy_cblas_dgemm64_(%c101{{.*}}, %c111{{.*}}, %c112{{.*}}, %c128{{.*}}, %c260{{.*}}, %c160{{.*}}, %cst{{.*}}, %{{.*}}, %c160{{.*}}, %{{.*}}, %c160{{.*}}, %cst{{.*}}, %{{.*}}, %c260{{.*}})
// The packed kernel on a transposed B reads it in memory order: 4 rows of 4 k values as
// vectors, transposed in registers (2 stages of 4 shuffles) into the 8-wide panel; the
// last panel (260 = 32 x 8 + 4) and the k values past a multiple of 4 element by element.
// An f64 4-lane microkernel.
// OFF-LABEL: func @batched_transposed
// With the kernels: 4 matrices on 2 threads, each thread takes whole ones (an scf.forall over
// the threads, a loop over its batch indices) and calls the one-thread f64 kernel for B
// stored transposed (nt), each matrix's offset moved by its batch stride.
// KERNEL-LABEL: func @batched_transposed
// KERNEL: scf.forall (%{{.*}}) in (2)
// KERNEL: scf.for
// KERNEL-NOT: mlc.packed_gemm
// KERNEL: func.call @mlc_gemm_f64_nt_n1_v512(%c128{{.*}}, %c260{{.*}}, %c160{{.*}}, %{{.*}}, %{{.*}}, %c160{{.*}}, %{{.*}}, %{{.*}}, %c160{{.*}}, %{{.*}}, %{{.*}}, %c260{{.*}}, %false)
// OFF: scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}}
// OFF: memref.reinterpret_cast {{.*}} sizes: [260, 160], strides: [160, 1]
// OFF: mlc.packed_gemm
// OFF: scf.if
// OFF-COUNT-4: vector.transfer_read {{.*}} {in_bounds = [true]} : memref<260x160xf64, strided<[160, 1], offset: ?>>, vector<4xf64>
// OFF-NEXT: vector.shuffle %{{.*}}, %{{.*}} [0, 1, 4, 5] : vector<4xf64>, vector<4xf64>
// OFF-NEXT: vector.shuffle %{{.*}}, %{{.*}} [2, 3, 6, 7] : vector<4xf64>, vector<4xf64>
// OFF-COUNT-2: vector.shuffle
// OFF-NEXT: vector.shuffle %{{.*}}, %{{.*}} [0, 4, 2, 6] : vector<4xf64>, vector<4xf64>
// OFF-NEXT: vector.shuffle %{{.*}}, %{{.*}} [1, 5, 3, 7] : vector<4xf64>, vector<4xf64>
// OFF: } else {
// OFF: memref.load {{.*}} memref<260x160xf64
// OFF: arith.addf {{.*}} fastmath<contract> : vector<4xf64>
#ba = affine_map<(b, m, n, k) -> (b, m, k)>
#bb = affine_map<(b, m, n, k) -> (b, n, k)>
#bc = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batched_transposed(%x: memref<4x128x160xf64>, %w: memref<4x260x160xf64>, %y: memref<4x128x260xf64>) {
  linalg.generic {indexing_maps = [#ba, #bb, #bc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<4x128x160xf64>, memref<4x260x160xf64>) outs(%y : memref<4x128x260xf64>) {
  ^bb0(%p: f64, %q: f64, %acc: f64):
    %m = arith.mulf %p, %q : f64
    %s = arith.addf %acc, %m : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// A small matmul (below 2^22 multiply-adds) is left to mlc-tile-matmul's register tiles
// (they fuse epilogues); a bigger integer one is packed (i32 multiply-adds), BLAS or not.
// CHECK-LABEL: func @small_and_integer
// CHECK-NOT: call
// CHECK: linalg.generic
// CHECK: mlc.packed_gemm
// CHECK: arith.muli {{.*}} : vector<8xi32>
// CHECK-NOT: linalg.generic
// OFF-LABEL: func @small_and_integer
// OFF: linalg.generic
// OFF: mlc.packed_gemm
#sa = affine_map<(m, n, k) -> (m, k)>
#sb = affine_map<(m, n, k) -> (k, n)>
#sc = affine_map<(m, n, k) -> (m, n)>
func.func @small_and_integer(%x: memref<16x16xf32>, %y: memref<16x16xf32>, %i: memref<256x256xi32>, %j: memref<256x256xi32>) {
  linalg.generic {indexing_maps = [#sa, #sb, #sc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %x : memref<16x16xf32>, memref<16x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#sa, #sb, #sc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%i, %i : memref<256x256xi32>, memref<256x256xi32>) outs(%j : memref<256x256xi32>) {
  ^bb0(%p: i32, %q: i32, %acc: i32):
    %m = arith.muli %p, %q : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// 137 x 253 x 171 (5.9M multiply-adds: above the register tiles' 2^22, below BLAS's 2^25): the
// packed kernel with BLAS off; the size rule lowered to 64^3 (prefix CHECK) calls BLAS. The
// zero fill before the matmul is dropped: beta = 0, and the packed kernel overwrites C
// instead of adding to it (no transfer_read of C). Ragged extents: rows past M are guarded
// (scf.if), the last B panel and the C columns past N are masked transfers (no in_bounds).
// CHECK-LABEL: func @zero_filled_ragged
// CHECK-NOT: linalg.fill
// CHECK: call @scipy_cblas_sgemm64_
// M < N: the kernel whose threads split the columns; the dropped fill is beta_zero = true.
// KERNEL-LABEL: func @zero_filled_ragged
// KERNEL-NOT: linalg.
// KERNEL: call @mlc_gemm_f32_nn_n2_v512(%c137{{.*}}, %c171{{.*}}, %c253{{.*}}, %{{.*}}, %{{.*}}, %c253{{.*}}, %{{.*}}, %{{.*}}, %c171{{.*}}, %{{.*}}, %{{.*}}, %c171{{.*}}, %true)
// OFF-LABEL: func @zero_filled_ragged
// OFF-NOT: linalg.
// OFF: vector.transfer_read %{{.*}}, %{{.*}} : memref<253x171xf32, strided<[171, 1], offset: ?>>, vector<16xf32>
// OFF: arith.select {{.*}} : f32
// OFF: arith.addf {{.*}} fastmath<contract>
// OFF: scf.if
// OFF-NOT: vector.transfer_read
// OFF: vector.transfer_write %{{.*}}, %{{.*}} : vector<8xf32>, memref<137x171xf32
#za = affine_map<(m, n, k) -> (m, k)>
#zb = affine_map<(m, n, k) -> (k, n)>
#zc = affine_map<(m, n, k) -> (m, n)>
func.func @zero_filled_ragged(%x: memref<137x253xf32>, %w: memref<253x171xf32>, %y: memref<137x171xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%y : memref<137x171xf32>)
  linalg.generic {indexing_maps = [#za, #zb, #zc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<137x253xf32>, memref<253x171xf32>) outs(%y : memref<137x171xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A vector contraction (x[1, K] @ w[K, N] after the unit dim was folded: no M loop) is one
// gemv call on w transposed (w is K-major for y[n] = sum_k x[k] w[k, n]); the fill of 0
// before it becomes beta = 0. With BLAS off and 2^22 multiply-adds, the packed kernel.
// CHECK-LABEL: func @vector_matrix
// CHECK-NOT: linalg
// CHECK: call @scipy_cblas_sgemv64_(%c101{{.*}}, %c112{{.*}}, %c1024{{.*}}, %c4096{{.*}}, %cst{{.*}}, %{{.*}}, %c4096{{.*}}, %{{.*}}, %c1{{.*}}, %cst{{.*}}, %{{.*}}, %c1{{.*}})
// OFF-LABEL: func @vector_matrix
// OFF-NOT: call
// OFF: mlc.packed_gemm
#v = affine_map<(n, k) -> (k)>
#w = affine_map<(n, k) -> (k, n)>
#y = affine_map<(n, k) -> (n)>
func.func @vector_matrix(%x: memref<1024xf32>, %w: memref<1024x4096xf32>, %y: memref<4096xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<4096xf32>)
  linalg.generic {indexing_maps = [#v, #w, #y], iterator_types = ["parallel", "reduction"]}
      ins(%x, %w : memref<1024xf32>, memref<1024x4096xf32>) outs(%y : memref<4096xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A matrix-vector product with a row-major matrix (y[m] = sum_k a[m, k] x[k]): gemv with no
// transpose; a small one with BLAS off stays a loop nest (no packed kernel).
// CHECK-LABEL: func @matrix_vector
// CHECK: call @scipy_cblas_sgemv64_(%c101{{.*}}, %c111{{.*}}, %c64{{.*}}, %c32{{.*}}, %cst{{.*}}, %{{.*}}, %c32{{.*}}, %{{.*}}, %c1{{.*}}, %cst{{.*}}, %{{.*}}, %c1{{.*}})
// OFF-LABEL: func @matrix_vector
// OFF-NOT: mlc.packed_gemm
// OFF: linalg.generic
#a2 = affine_map<(m, k) -> (m, k)>
#x2 = affine_map<(m, k) -> (k)>
#y2 = affine_map<(m, k) -> (m)>
func.func @matrix_vector(%a: memref<64x32xf32>, %x: memref<32xf32>, %y: memref<64xf32>) {
  linalg.generic {indexing_maps = [#a2, #x2, #y2], iterator_types = ["parallel", "reduction"]}
      ins(%a, %x : memref<64x32xf32>, memref<32xf32>) outs(%y : memref<64xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Beside BLAS: with 2 threads and the size rule at 2^24, the 128x256x512 matmul is a call
// and the 128x256x256 one (2^23: packed, split between threads from 2^23) would run on one
// thread beside it (mlc-sequential-beside-blas), so it is a call too. Alone in its function
// the same matmul keeps the packed kernel on both threads.
// Where OpenBLAS's jobs run on MLC's pool (POOL, beside=0) the function's loops stay
// parallel: the 2^23 matmul keeps the packed kernel on both threads.
// POOL-LABEL: func @two_matmuls
// POOL: scf.forall
// POOL: mlc.packed_gemm
// POOL: call @scipy_cblas_sgemm64_({{.*}}, %c128{{.*}}, %c256{{.*}}, %c512{{.*}},
// BESIDE-LABEL: func @two_matmuls
// BESIDE-NOT: mlc.packed_gemm
// BESIDE: call @scipy_cblas_sgemm64_({{.*}}, %c128{{.*}}, %c256{{.*}}, %c256{{.*}},
// BESIDE: call @scipy_cblas_sgemm64_({{.*}}, %c128{{.*}}, %c256{{.*}}, %c512{{.*}},
// BESIDE-NOT: mlc.packed_gemm
// BESIDE-LABEL: func @alone
// BESIDE-NOT: call
// BESIDE: scf.forall
// BESIDE: mlc.packed_gemm
#am = affine_map<(m, n, k) -> (m, k)>
#bm = affine_map<(m, n, k) -> (k, n)>
#cm = affine_map<(m, n, k) -> (m, n)>
func.func @two_matmuls(%x: memref<128x256xf32>, %w: memref<256x256xf32>, %y: memref<128x256xf32>,
                       %x2: memref<128x512xf32>, %v: memref<512x256xf32>, %z: memref<128x256xf32>) {
  linalg.generic {indexing_maps = [#am, #bm, #cm], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<128x256xf32>, memref<256x256xf32>) outs(%y : memref<128x256xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#am, #bm, #cm], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x2, %v : memref<128x512xf32>, memref<512x256xf32>) outs(%z : memref<128x256xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}
func.func @alone(%x: memref<128x256xf32>, %w: memref<256x256xf32>, %y: memref<128x256xf32>) {
  linalg.generic {indexing_maps = [#am, #bm, #cm], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<128x256xf32>, memref<256x256xf32>) outs(%y : memref<128x256xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// int8 x uint8 -> int32 widened in the body (mlc-fold-widening): the packed kernel reads
// the 8-bit buffers. With VNNI each packed int32 word holds two k values as int16 (k in
// the low half, k + 1 shifted into the high one), uint8 zero-extended, and one vpdpwssd
// per vector sums both products (vector<16xi32> of 32 int16: AVX-512); without VNNI the
// operands are packed as int32 and multiplied and added lane by lane.
// VNNI-LABEL: func @int8_widened
// VNNI: memref.alloc() {alignment = 64 : i64, mlc.packed_gemm} : memref<{{[0-9]+}}xi32>
// VNNI: arith.extui {{.*}} : vector<32xi8> to vector<32xi32>
// VNNI: arith.shli
// VNNI: arith.ori
// VNNI: vector.bitcast {{.*}} : vector<16xi32> to vector<32xi16>
// VNNI: llvm.call_intrinsic "llvm.x86.avx512.vpdpwssd.512"({{.*}}) : (vector<16xi32>, vector<32xi16>, vector<32xi16>) -> vector<16xi32>
// VNNI-NOT: arith.muli {{.*}} : vector
// NOVNNI-LABEL: func @int8_widened
// NOVNNI-NOT: vpdpwssd
// NOVNNI: arith.extui {{.*}} : vector<16xi8> to vector<16xi32>
// NOVNNI: arith.muli {{.*}} : vector<8xi32>
// NOVNNI-NOT: vpdpwssd
#a8 = affine_map<(m, n, k) -> (m, k)>
#b8 = affine_map<(m, n, k) -> (k, n)>
#c8 = affine_map<(m, n, k) -> (m, n)>
func.func @int8_widened(%x: memref<67x201xi8>, %w: memref<201x45xi8>, %y: memref<67x45xi32>) {
  linalg.generic {indexing_maps = [#a8, #b8, #c8], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<67x201xi8>, memref<201x45xi8>) outs(%y : memref<67x45xi32>) {
  ^bb0(%p: i8, %q: i8, %acc: i32):
    %p32 = arith.extsi %p : i8 to i32
    %q32 = arith.extui %q : i8 to i32
    %m = arith.muli %p32, %q32 : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  }
  return
}

// -----

// The packed kernel takes the matmul's elementwise consumer (bias + relu) as its epilogue
// when K fits one KC block (256 here): each C tile goes from the registers through the
// consumer's body into its output, C (a temporary) is never written and the consumer is
// gone (C a function argument would stay: the caller reads it). With BLAS
// (prefix CHECK) the consumer stays a loop of its own after the call.
// CHECK-LABEL: func @bias_relu_epilogue
// CHECK: call @scipy_cblas_sgemm64_
// CHECK: linalg.generic
// OFF-LABEL: func @bias_relu_epilogue
// OFF: mlc.packed_gemm
// OFF: vector.transfer_read %arg2{{.*}} : memref<128xf32>, vector<8xf32>
// OFF: arith.addf {{.*}} : vector<8xf32>
// OFF: arith.maximumf {{.*}} : vector<8xf32>
// OFF: vector.transfer_write {{.*}}, %arg3{{.*}} {{{.*}}mlc.packed_epilogue{{.*}}} : vector<8xf32>, memref<128x128xf32>
// OFF-NOT: linalg.generic
// OFF: return
#ea = affine_map<(m, n, k) -> (m, k)>
#eb = affine_map<(m, n, k) -> (k, n)>
#ec = affine_map<(m, n, k) -> (m, n)>
#eid = affine_map<(m, n) -> (m, n)>
#ecol = affine_map<(m, n) -> (n)>
func.func @bias_relu_epilogue(%x: memref<128x256xf32>, %w: memref<256x128xf32>, %b: memref<128xf32>,
                              %out: memref<128x128xf32>) {
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<128x128xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<128x128xf32>)
  linalg.generic {indexing_maps = [#ea, #eb, #ec], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<128x256xf32>, memref<256x128xf32>) outs(%y : memref<128x128xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#eid, #ecol, #eid], iterator_types = ["parallel", "parallel"]}
      ins(%y, %b : memref<128x128xf32>, memref<128xf32>) outs(%out : memref<128x128xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %s = arith.addf %v, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %y : memref<128x128xf32>
  return
}

// -----

// Both operands stored transposed (A as [K, M], B as [N, K]): the kernel variant "tt",
// each leading dimension the stored row length (M = 200 for A, K = 300 for B).
// KERNEL-LABEL: func @transposed_f32
// KERNEL: call @mlc_gemm_f32_tt_m2_v512(%c200{{.*}}, %c100{{.*}}, %c300{{.*}}, %{{.*}}, %{{.*}}, %c200{{.*}}, %{{.*}}, %{{.*}}, %c300{{.*}}, %{{.*}}, %{{.*}}, %c100{{.*}}, %true)
// OFF-LABEL: func @transposed_f32
// OFF: mlc.packed_gemm
#ta = affine_map<(m, n, k) -> (k, m)>
#tb = affine_map<(m, n, k) -> (n, k)>
#tc = affine_map<(m, n, k) -> (m, n)>
func.func @transposed_f32(%x: memref<300x200xf32>, %w: memref<100x300xf32>, %y: memref<200x100xf32>) {
  %z = arith.constant 0.0 : f32
  linalg.fill ins(%z : f32) outs(%y : memref<200x100xf32>)
  linalg.generic {indexing_maps = [#ta, #tb, #tc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<300x200xf32>, memref<100x300xf32>) outs(%y : memref<200x100xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}
