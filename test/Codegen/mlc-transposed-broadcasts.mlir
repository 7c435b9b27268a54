// RUN: mlc-opt %s --split-input-file --mlc-transposed-broadcasts | FileCheck %s

// A register-tiled matmul's A rows: broadcast along n, transposed to (m, n, 1), the unit
// dim dropped. One broadcast of the rows remains (each row a splat when lowered).
// CHECK-LABEL: func @matmul_rows
// CHECK-NEXT: %[[B:.*]] = vector.broadcast %arg0 : vector<4x1xf32> to vector<4x8xf32>
// CHECK-NEXT: return %[[B]]
func.func @matmul_rows(%a: vector<4x1xf32>) -> vector<4x8xf32> {
  %b = vector.broadcast %a : vector<4x1xf32> to vector<8x4x1xf32>
  %t = vector.transpose %b, [1, 0, 2] : vector<8x4x1xf32> to vector<4x8x1xf32>
  %s = vector.shape_cast %t : vector<4x8x1xf32> to vector<4x8xf32>
  return %s : vector<4x8xf32>
}

// -----

// The transpose alone: the value is reshaped to put its dims where the transpose puts them.
// CHECK-LABEL: func @transpose_only
// CHECK-NEXT: %[[C:.*]] = vector.shape_cast %arg0 : vector<4xf32> to vector<4x1xf32>
// CHECK-NEXT: %[[B:.*]] = vector.broadcast %[[C]] : vector<4x1xf32> to vector<4x8xf32>
// CHECK-NEXT: return %[[B]]
func.func @transpose_only(%a: vector<4xf32>) -> vector<4x8xf32> {
  %b = vector.broadcast %a : vector<4xf32> to vector<8x4xf32>
  %t = vector.transpose %b, [1, 0] : vector<8x4xf32> to vector<4x8xf32>
  return %t : vector<4x8xf32>
}

// -----

// A scalar broadcast, transposed: a broadcast of the scalar.
// CHECK-LABEL: func @scalar
// CHECK-NEXT: %[[B:.*]] = vector.broadcast %arg0 : f32 to vector<2x3xf32>
// CHECK-NEXT: return %[[B]]
func.func @scalar(%a: f32) -> vector<2x3xf32> {
  %b = vector.broadcast %a : f32 to vector<3x2xf32>
  %t = vector.transpose %b, [1, 0] : vector<3x2xf32> to vector<2x3xf32>
  return %t : vector<2x3xf32>
}

// -----

// Kept: the transpose reorders the value's own dims (2 and 3), and a transpose of
// something that is not a broadcast.
// CHECK-LABEL: func @kept
// CHECK: vector.broadcast %arg0 : vector<2x3xf32> to vector<5x2x3xf32>
// CHECK-NEXT: vector.transpose %{{.*}}, [2, 0, 1]
// CHECK-NEXT: vector.transpose %arg1, [1, 0]
func.func @kept(%a: vector<2x3xf32>, %c: vector<4x8xf32>) -> (vector<3x5x2xf32>, vector<8x4xf32>) {
  %b = vector.broadcast %a : vector<2x3xf32> to vector<5x2x3xf32>
  %t = vector.transpose %b, [2, 0, 1] : vector<5x2x3xf32> to vector<3x5x2xf32>
  %u = vector.transpose %c, [1, 0] : vector<4x8xf32> to vector<8x4xf32>
  return %t, %u : vector<3x5x2xf32>, vector<8x4xf32>
}

// -----

// Dropping unit dims of a broadcast: the dims go from the broadcast value too. A
// shape_cast that does more than drop unit dims is kept.
// CHECK-LABEL: func @squeezed
// CHECK-NEXT: %[[B:.*]] = vector.broadcast %arg0 : vector<1x4xf32> to vector<3x4xf32>
// CHECK-NEXT: %[[K:.*]] = vector.broadcast %arg1 : vector<2x1x1xf32> to vector<2x1x6xf32>
// CHECK-NEXT: %[[S:.*]] = vector.shape_cast %[[K]] : vector<2x1x6xf32> to vector<12xf32>
// CHECK-NEXT: return %[[B]], %[[S]]
func.func @squeezed(%a: vector<1x4xf32>, %c: vector<2x1x1xf32>) -> (vector<3x4xf32>, vector<12xf32>) {
  %b = vector.broadcast %a : vector<1x4xf32> to vector<3x1x4xf32>
  %s = vector.shape_cast %b : vector<3x1x4xf32> to vector<3x4xf32>
  %k = vector.broadcast %c : vector<2x1x1xf32> to vector<2x1x6xf32>
  %r = vector.shape_cast %k : vector<2x1x6xf32> to vector<12xf32>
  return %s, %r : vector<3x4xf32>, vector<12xf32>
}

// -----

// A register-tiled matmul's operands read with broadcast dims in their permutation maps:
// A's column of 4 rows (one element per row, repeated along n), B's row of 8 (repeated
// along m), a bias row. Each becomes a read of its own elements and a broadcast.
// CHECK-LABEL: func @broadcast_reads
// CHECK-DAG: %[[A:.*]] = vector.transfer_read %arg0[%arg3, %arg4], %{{.*}} {in_bounds = [true], permutation_map = #{{.*}}} : memref<64x512xf32>, vector<4xf32>
// CHECK-DAG: %[[B:.*]] = vector.transfer_read %arg1[%arg4, %c0], %{{.*}} {in_bounds = [true]} : memref<512x10xf32>, vector<8xf32>
// CHECK-DAG: %[[C:.*]] = vector.transfer_read %arg2[%c0], %{{.*}} {in_bounds = [true]} : memref<10xf32>, vector<8xf32>
// CHECK-DAG: %[[AC:.*]] = vector.shape_cast %[[A]] : vector<4xf32> to vector<4x1xf32>
// CHECK-DAG: vector.broadcast %[[AC]] : vector<4x1xf32> to vector<4x8xf32>
// CHECK-DAG: vector.broadcast %[[B]] : vector<8xf32> to vector<4x8xf32>
// CHECK-DAG: vector.broadcast %[[C]] : vector<8xf32> to vector<4x8xf32>
// CHECK-NOT: vector.transpose
// CHECK: return
func.func @broadcast_reads(%a: memref<64x512xf32>, %b: memref<512x10xf32>, %bias: memref<10xf32>, %i: index, %k: index)
    -> (vector<4x8xf32>, vector<4x8xf32>, vector<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %ra = vector.transfer_read %a[%i, %k], %pad {in_bounds = [true, true, true], permutation_map = affine_map<(d0, d1) -> (d0, 0, d1)>} : memref<64x512xf32>, vector<4x8x1xf32>
  %rb = vector.transfer_read %b[%k, %c0], %pad {in_bounds = [true, true, true], permutation_map = affine_map<(d0, d1) -> (0, d1, d0)>} : memref<512x10xf32>, vector<4x8x1xf32>
  %rc = vector.transfer_read %bias[%c0], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0) -> (0, d0)>} : memref<10xf32>, vector<4x8xf32>
  %sa = vector.shape_cast %ra : vector<4x8x1xf32> to vector<4x8xf32>
  %sb = vector.shape_cast %rb : vector<4x8x1xf32> to vector<4x8xf32>
  return %sa, %sb, %rc : vector<4x8xf32>, vector<4x8xf32>, vector<4x8xf32>
}

// -----

// Kept: a masked read, a read that may go out of bounds (a dynamic column), a read whose
// dims are transposed.
// CHECK-LABEL: func @reads_kept
// CHECK-NOT: vector.broadcast
// CHECK: vector.transfer_read %arg0[%arg1, %c0], %{{.*}}, %arg2 {{.*}} : memref<512x10xf32>, vector<4x8x1xf32>
// CHECK-NEXT: vector.transfer_read %arg0[%arg1, %arg1], %{{.*}} {in_bounds = [true, false, true]{{.*}} : memref<512x10xf32>, vector<4x8x1xf32>
// CHECK-NEXT: vector.transfer_read %arg3[%c0, %c0], {{.*}} : memref<8x8xf32>, vector<4x8x8xf32>
// CHECK-NOT: vector.broadcast
func.func @reads_kept(%b: memref<512x10xf32>, %k: index, %m: vector<1x8xi1>, %t: memref<8x8xf32>)
    -> (vector<4x8x1xf32>, vector<4x8x1xf32>, vector<4x8x8xf32>) {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %r0 = vector.transfer_read %b[%k, %c0], %pad, %m {in_bounds = [true, true, true], permutation_map = affine_map<(d0, d1) -> (0, d1, d0)>} : memref<512x10xf32>, vector<4x8x1xf32>
  %r1 = vector.transfer_read %b[%k, %k], %pad {in_bounds = [true, false, true], permutation_map = affine_map<(d0, d1) -> (0, d1, d0)>} : memref<512x10xf32>, vector<4x8x1xf32>
  %r2 = vector.transfer_read %t[%c0, %c0], %pad {in_bounds = [true, true, true], permutation_map = affine_map<(d0, d1) -> (0, d1, d0)>} : memref<8x8xf32>, vector<4x8x8xf32>
  return %r0, %r1, %r2 : vector<4x8x1xf32>, vector<4x8x1xf32>, vector<4x8x8xf32>
}
