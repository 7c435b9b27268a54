// RUN: mlc-opt %s --split-input-file --mlc-buffer-deallocation | FileCheck %s

// A heap buffer is freed after its last use (upstream's buffer-deallocation-pipeline).
// CHECK-LABEL: func @allocates
// CHECK: %[[T:.*]] = memref.alloc() : memref<64xf32>
// CHECK: memref.load %[[T]]
// CHECK-NEXT: memref.store
// CHECK-NEXT: memref.dealloc %[[T]] : memref<64xf32>
// CHECK-NEXT: return
func.func @allocates(%arg0: memref<64xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %t = memref.alloc() : memref<64xf32>
  memref.copy %arg0, %t : memref<64xf32> to memref<64xf32>
  %v = memref.load %t[%c0] : memref<64xf32>
  memref.store %v, %arg0[%c1] : memref<64xf32>
  return
}

// -----

// A buffer allocated on one branch only: freed when that branch ran (ownership).
// CHECK-LABEL: func @branches
// CHECK: %[[V:.*]] = scf.if %[[FLAG:.*]] -> (memref<64xf32>)
// CHECK: memref.copy %[[V]], %{{.*}}
// CHECK: %[[BASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[V]]
// CHECK: scf.if %[[FLAG]]
// CHECK-NEXT: memref.dealloc %[[BASE]]
func.func @branches(%arg0: memref<64xf32>, %out: memref<64xf32>, %flag: i1) {
  %0 = scf.if %flag -> memref<64xf32> {
    %t = memref.alloc() : memref<64xf32>
    memref.copy %arg0, %t : memref<64xf32> to memref<64xf32>
    scf.yield %t : memref<64xf32>
  } else {
    scf.yield %arg0 : memref<64xf32>
  }
  memref.copy %0, %out : memref<64xf32> to memref<64xf32>
  return
}

// -----

// Nothing on the heap (a stack buffer needs no freeing): only the pipeline's cleanups run
// (canonicalize, cse): i * 1 folds, the two equal loads are one.
// CHECK-LABEL: func @nothing_allocated
// CHECK-NOT: arith.muli
// CHECK: %[[V:.*]] = memref.load %arg0[%arg1]
// CHECK-NOT: memref.load
// CHECK: arith.addf %[[V]], %[[V]]
// CHECK-NOT: memref.dealloc
func.func @nothing_allocated(%arg0: memref<64xf32>, %i: index) {
  %c1 = arith.constant 1 : index
  %j = arith.muli %i, %c1 : index
  %v = memref.load %arg0[%j] : memref<64xf32>
  %w = memref.load %arg0[%j] : memref<64xf32>
  %s = arith.addf %v, %w : f32
  memref.store %s, %arg0[%c1] : memref<64xf32>
  return
}
