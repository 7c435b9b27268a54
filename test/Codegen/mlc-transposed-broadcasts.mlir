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
