// RUN: env MLC_BLAS=1 mlc-opt %s --split-input-file --mlc-blas | FileCheck %s
// RUN: env MLC_BLAS=0 mlc-opt %s --split-input-file --mlc-blas | FileCheck %s --check-prefix=OFF

// A 128^3 matmul becomes one call to numpy's OpenBLAS sgemm (row-major, no transposes,
// alpha = beta = 1: the call accumulates into C like the generic did).
// CHECK: func.func private @scipy_cblas_sgemm64_(i32, i32, i32, i64, i64, i64, f32, !llvm.ptr, i64, !llvm.ptr, i64, f32, !llvm.ptr, i64)
// CHECK-LABEL: func @matmul
// CHECK-NOT: linalg.generic
// CHECK: call @scipy_cblas_sgemm64_(%c101{{.*}}, %c111{{.*}}, %c111{{.*}}, %c128{{.*}}, %c128{{.*}}, %c128{{.*}}, %cst{{.*}}, %{{.*}}, %c128{{.*}}, %{{.*}}, %c128{{.*}}, %cst{{.*}}, %{{.*}}, %c128{{.*}})
// OFF-LABEL: func @matmul
// OFF: linalg.generic
// OFF-NOT: call
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @matmul(%x: memref<128x128xf32>, %w: memref<128x128xf32>, %y: memref<128x128xf32>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<128x128xf32>, memref<128x128xf32>) outs(%y : memref<128x128xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A transposed rhs (x @ w^T, w stored [n, k]) is a Trans flag with ldb = k, and a batch
// loop becomes an scf.for around the call, offsetting each pointer by its batch stride.
// CHECK-LABEL: func @batched_transposed
// CHECK: scf.for %{{.*}} = %c0{{.*}} to %c4{{.*}}
// CHECK: call @scipy_cblas_dgemm64_(%c101{{.*}}, %c111{{.*}}, %c112{{.*}}, %c64{{.*}}, %c96{{.*}}, %c80{{.*}}, %cst{{.*}}, %{{.*}}, %c80{{.*}}, %{{.*}}, %c80{{.*}}, %cst{{.*}}, %{{.*}}, %c96{{.*}})
#ba = affine_map<(b, m, n, k) -> (b, m, k)>
#bb = affine_map<(b, m, n, k) -> (b, n, k)>
#bc = affine_map<(b, m, n, k) -> (b, m, n)>
func.func @batched_transposed(%x: memref<4x64x80xf64>, %w: memref<4x96x80xf64>, %y: memref<4x64x96xf64>) {
  linalg.generic {indexing_maps = [#ba, #bb, #bc], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<4x64x80xf64>, memref<4x96x80xf64>) outs(%y : memref<4x64x96xf64>) {
  ^bb0(%p: f64, %q: f64, %acc: f64):
    %m = arith.mulf %p, %q : f64
    %s = arith.addf %acc, %m : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// Left as generated code: too small for the call to pay (16^3 < 64^3), and an integer matmul.
// CHECK-LABEL: func @small_and_integer
// CHECK-NOT: call
// CHECK: linalg.generic
// CHECK: linalg.generic
#sa = affine_map<(m, n, k) -> (m, k)>
#sb = affine_map<(m, n, k) -> (k, n)>
#sc = affine_map<(m, n, k) -> (m, n)>
func.func @small_and_integer(%x: memref<16x16xf32>, %y: memref<16x16xf32>, %i: memref<128x128xi32>, %j: memref<128x128xi32>) {
  linalg.generic {indexing_maps = [#sa, #sb, #sc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %x : memref<16x16xf32>, memref<16x16xf32>) outs(%y : memref<16x16xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#sa, #sb, #sc], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%i, %i : memref<128x128xi32>, memref<128x128xi32>) outs(%j : memref<128x128xi32>) {
  ^bb0(%p: i32, %q: i32, %acc: i32):
    %m = arith.muli %p, %q : i32
    %s = arith.addi %acc, %m : i32
    linalg.yield %s : i32
  }
  return
}
