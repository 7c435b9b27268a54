// RUN: mlc-opt %s --split-input-file --mlc-select-min-max | FileCheck %s

// A scalar NaN-propagating max: the larger by an ordered compare, the two zeros by and-ing
// their bits (+0), a NaN by adding the operands.
// CHECK-LABEL: func @scalar_max
// CHECK-NOT: arith.maximumf
// CHECK: %[[GT:.*]] = arith.cmpf ogt, %arg0, %arg1 : f32
// CHECK: %[[PICK:.*]] = arith.select %[[GT]], %arg0, %arg1 : f32
// CHECK: %[[A:.*]] = arith.bitcast %arg0 : f32 to i32
// CHECK: %[[B:.*]] = arith.bitcast %arg1 : f32 to i32
// CHECK: %[[AND:.*]] = arith.andi %[[A]], %[[B]] : i32
// CHECK: %[[ZEROS:.*]] = arith.bitcast %[[AND]] : i32 to f32
// CHECK: %[[EQ:.*]] = arith.cmpf oeq, %arg0, %arg1 : f32
// CHECK: %[[R1:.*]] = arith.select %[[EQ]], %[[ZEROS]], %[[PICK]] : f32
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %arg0, %arg1 : f32
// CHECK: %[[SUM:.*]] = arith.addf %arg0, %arg1 : f32
// CHECK: %[[R:.*]] = arith.select %[[NAN]], %[[SUM]], %[[R1]] : f32
// CHECK: return %[[R]]
func.func @scalar_max(%a: f32, %b: f32) -> f32 {
  %r = arith.maximumf %a, %b : f32
  return %r : f32
}

// -----

// min: olt and the zeros' bits or-ed (-0); a one-lane vector (a short reduction's) too.
// CHECK-LABEL: func @one_lane_min
// CHECK-NOT: arith.minimumf
// CHECK: arith.cmpf olt, %arg0, %arg1 : vector<1xf64>
// CHECK: arith.ori %{{.*}}, %{{.*}} : vector<1xi64>
func.func @one_lane_min(%a: vector<1xf64>, %b: vector<1xf64>) -> vector<1xf64> {
  %r = arith.minimumf %a, %b : vector<1xf64>
  return %r : vector<1xf64>
}

// -----

// Vectors of several lanes stay (LLVM lowers them with blends, no branch).
// CHECK-LABEL: func @vector_kept
// CHECK: arith.maximumf %arg0, %arg1 : vector<8xf32>
func.func @vector_kept(%a: vector<8xf32>, %b: vector<8xf32>) -> vector<8xf32> {
  %r = arith.maximumf %a, %b : vector<8xf32>
  return %r : vector<8xf32>
}
