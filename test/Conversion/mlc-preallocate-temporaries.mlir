// RUN: mlc-opt %s --split-input-file --mlc-preallocate-temporaries | FileCheck %s

// Two temporaries live at the same time get disjoint, 64-byte aligned offsets; a third,
// allocated after the first one's last use, reuses the first one's bytes.
// CHECK-LABEL: func @main
// CHECK-SAME: %[[S:[a-z0-9]+]]: memref<80xi8>
// CHECK-SAME: mlc.scratch_bytes = 80 : i64
// CHECK-NOT: memref.alloc
// CHECK: memref.view %[[S]][%c0{{.*}}][] : memref<80xi8> to memref<16xf32>
// CHECK: memref.view %[[S]][%c64{{.*}}][] : memref<80xi8> to memref<4xf32>
// CHECK: memref.view %[[S]][%c0{{.*}}][] : memref<80xi8> to memref<8xf64>
func.func @main(%x: memref<16xf32>, %out: memref<16xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  %b = memref.alloc() : memref<4xf32>
  %sub = memref.subview %a[0] [4] [1] : memref<16xf32> to memref<4xf32, strided<[1]>>
  memref.copy %sub, %b : memref<4xf32, strided<[1]>> to memref<4xf32>
  memref.copy %a, %out : memref<16xf32> to memref<16xf32>
  %c = memref.alloc() : memref<8xf64>
  func.call @use(%b, %c) : (memref<4xf32>, memref<8xf64>) -> ()
  return
}
func.func private @use(memref<4xf32>, memref<8xf64>)

// -----

// A use through a view extends the live range: %a is read through %e after %b exists.
// CHECK-LABEL: func @through_views
// CHECK: memref.view %{{.*}}[%c0{{.*}}][] : memref<128xi8> to memref<16xf32>
// CHECK: memref.view %{{.*}}[%c64{{.*}}][] : memref<128xi8> to memref<16xf32>
func.func @through_views(%x: memref<16xf32>, %out: memref<4x4xf32>) {
  %a = memref.alloc() : memref<16xf32>
  memref.copy %x, %a : memref<16xf32> to memref<16xf32>
  %e = memref.expand_shape %a [[0, 1]] output_shape [4, 4] : memref<16xf32> into memref<4x4xf32>
  %b = memref.alloc() : memref<16xf32>
  memref.copy %x, %b : memref<16xf32> to memref<16xf32>
  memref.copy %e, %out : memref<4x4xf32> to memref<4x4xf32>
  func.call @use(%b) : (memref<16xf32>) -> ()
  return
}
func.func private @use(memref<16xf32>)

// -----

// Left alone: allocs inside loops, i1 buffers (no byte layout), private functions.
// CHECK-LABEL: func @untouched
// CHECK-NOT: mlc.scratch_bytes
// CHECK: memref.alloc() : memref<4xi1>
// CHECK: scf.for
// CHECK:   memref.alloc() : memref<4xf32>
func.func @untouched(%n: index) {
  %m = memref.alloc() : memref<4xi1>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %t = memref.alloc() : memref<4xf32>
    func.call @use(%t, %m) : (memref<4xf32>, memref<4xi1>) -> ()
  }
  return
}

// CHECK-LABEL: func private @helper
// CHECK: memref.alloc
func.func private @helper() {
  %t = memref.alloc() : memref<4xf32>
  func.call @use2(%t) : (memref<4xf32>) -> ()
  return
}
func.func private @use(memref<4xf32>, memref<4xi1>)
func.func private @use2(memref<4xf32>)
