// RUN: mlc-opt %s --split-input-file --mlc-fold-widening | FileCheck %s

// int8 x int8 -> int32: both widening kernels fold into the contraction, which reads the
// int8 tensors and sign-extends in its body.
#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @int8_to_int32
// CHECK-NOT: arith.extsi
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4x8xi8>, tensor<8x5xi8>) outs(%arg2 : tensor<4x5xi32>)
// CHECK-NEXT: ^bb0(%[[P:.*]]: i8, %[[Q:.*]]: i8, %[[S:.*]]: i32):
// CHECK-DAG: %[[Q32:.*]] = arith.extsi %[[Q]] : i8 to i32
// CHECK-DAG: %[[P32:.*]] = arith.extsi %[[P]] : i8 to i32
// CHECK: arith.muli %[[P32]], %[[Q32]] : i32
// CHECK-NOT: linalg.generic
func.func @int8_to_int32(%x: tensor<4x8xi8>, %w: tensor<8x5xi8>, %acc: tensor<4x5xi32>) -> tensor<4x5xi32> {
  %e = tensor.empty() : tensor<4x8xi32>
  %x32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xi8>) outs(%e : tensor<4x8xi32>) {
  ^bb0(%v: i8, %o: i32):
    %r = arith.extsi %v : i8 to i32
    linalg.yield %r : i32
  } -> tensor<4x8xi32>
  %f = tensor.empty() : tensor<8x5xi32>
  %w32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<8x5xi8>) outs(%f : tensor<8x5xi32>) {
  ^bb0(%v: i8, %o: i32):
    %r = arith.extsi %v : i8 to i32
    linalg.yield %r : i32
  } -> tensor<8x5xi32>
  %m = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x32, %w32 : tensor<4x8xi32>, tensor<8x5xi32>) outs(%acc : tensor<4x5xi32>) {
  ^bb0(%p: i32, %q: i32, %s: i32):
    %pq = arith.muli %p, %q : i32
    %r = arith.addi %s, %pq : i32
    linalg.yield %r : i32
  } -> tensor<4x5xi32>
  return %m : tensor<4x5xi32>
}

// -----

// uint8 widens by zero extension (extui), f16 by extf; a widened tensor that something
// else also reads stays a kernel of its own (it is computed anyway): only %w folds.
#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @shared_widening
// CHECK: %[[X32:.*]] = linalg.generic
// CHECK: arith.extf {{.*}} : f16 to f32
// CHECK: linalg.generic {{.*}} ins(%[[X32]], %arg1 : tensor<4x8xf32>, tensor<8x5xf16>)
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %[[Q:.*]]: f16, %{{.*}}: f32):
// CHECK-NEXT: arith.extf %[[Q]] : f16 to f32
// CHECK: return
func.func @shared_widening(%x: tensor<4x8xf16>, %w: tensor<8x5xf16>, %acc: tensor<4x5xf32>) -> (tensor<4x5xf32>, tensor<4x8xf32>) {
  %e = tensor.empty() : tensor<4x8xf32>
  %x32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf16>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f16, %o: f32):
    %r = arith.extf %v : f16 to f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %f = tensor.empty() : tensor<8x5xf32>
  %w32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<8x5xf16>) outs(%f : tensor<8x5xf32>) {
  ^bb0(%v: f16, %o: f32):
    %r = arith.extf %v : f16 to f32
    linalg.yield %r : f32
  } -> tensor<8x5xf32>
  %m = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x32, %w32 : tensor<4x8xf32>, tensor<8x5xf32>) outs(%acc : tensor<4x5xf32>) {
  ^bb0(%p: f32, %q: f32, %s: f32):
    %pq = arith.mulf %p, %q : f32
    %r = arith.addf %s, %pq : f32
    linalg.yield %r : f32
  } -> tensor<4x5xf32>
  return %m, %x32 : tensor<4x5xf32>, tensor<4x8xf32>
}

// -----

// Zero extension stays zero extension (uint8), and the operands may differ (uint8 x int16).
#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @unsigned_times_int16
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4x8xi8>, tensor<8x5xi16>)
// CHECK-NEXT: ^bb0(%[[P:.*]]: i8, %[[Q:.*]]: i16, %{{.*}}: i32):
// CHECK-DAG: arith.extsi %[[Q]] : i16 to i32
// CHECK-DAG: arith.extui %[[P]] : i8 to i32
func.func @unsigned_times_int16(%x: tensor<4x8xi8>, %w: tensor<8x5xi16>, %acc: tensor<4x5xi32>) -> tensor<4x5xi32> {
  %e = tensor.empty() : tensor<4x8xi32>
  %x32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xi8>) outs(%e : tensor<4x8xi32>) {
  ^bb0(%v: i8, %o: i32):
    %r = arith.extui %v : i8 to i32
    linalg.yield %r : i32
  } -> tensor<4x8xi32>
  %f = tensor.empty() : tensor<8x5xi32>
  %w32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<8x5xi16>) outs(%f : tensor<8x5xi32>) {
  ^bb0(%v: i16, %o: i32):
    %r = arith.extsi %v : i16 to i32
    linalg.yield %r : i32
  } -> tensor<8x5xi32>
  %m = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x32, %w32 : tensor<4x8xi32>, tensor<8x5xi32>) outs(%acc : tensor<4x5xi32>) {
  ^bb0(%p: i32, %q: i32, %s: i32):
    %pq = arith.muli %p, %q : i32
    %r = arith.addi %s, %pq : i32
    linalg.yield %r : i32
  } -> tensor<4x5xi32>
  return %m : tensor<4x5xi32>
}

// -----

// An int -> float conversion (sitofp) is not a widening (it changes what the product
// means): both kernels stay.
#id = affine_map<(d0, d1) -> (d0, d1)>
#a = affine_map<(d0, d1, d2) -> (d0, d2)>
#b = affine_map<(d0, d1, d2) -> (d2, d1)>
#c = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @int_to_float
// CHECK: %[[X:.*]] = linalg.generic
// CHECK: arith.sitofp
// CHECK: %[[W:.*]] = linalg.generic
// CHECK: arith.sitofp
// CHECK: linalg.generic {{.*}} ins(%[[X]], %[[W]] : tensor<4x8xf32>, tensor<8x5xf32>)
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.mulf
func.func @int_to_float(%x: tensor<4x8xi8>, %w: tensor<8x5xi8>, %acc: tensor<4x5xf32>) -> tensor<4x5xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %x32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xi8>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: i8, %o: f32):
    %r = arith.sitofp %v : i8 to f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  %f = tensor.empty() : tensor<8x5xf32>
  %w32 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%w : tensor<8x5xi8>) outs(%f : tensor<8x5xf32>) {
  ^bb0(%v: i8, %o: f32):
    %r = arith.sitofp %v : i8 to f32
    linalg.yield %r : f32
  } -> tensor<8x5xf32>
  %m = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x32, %w32 : tensor<4x8xf32>, tensor<8x5xf32>) outs(%acc : tensor<4x5xf32>) {
  ^bb0(%p: f32, %q: f32, %s: f32):
    %pq = arith.mulf %p, %q : f32
    %r = arith.addf %s, %pq : f32
    linalg.yield %r : f32
  } -> tensor<4x5xf32>
  return %m : tensor<4x5xf32>
}
