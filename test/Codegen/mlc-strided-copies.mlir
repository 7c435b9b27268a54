// RUN: mlc-opt %s --mlc-strided-copies | FileCheck %s

// A copy into a strided view (the interior of a padded buffer) becomes a linalg.copy;
// a copy between two contiguous buffers stays a memref.copy (a memcpy).
// CHECK-LABEL: func @pad_interior
// CHECK: linalg.copy {{.*}}ins(%{{.*}} : memref<4x6xf32>) outs(%{{.*}} : memref<4x6xf32, strided<[8, 1], offset: 9>>)
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<4x6xf32> to memref<4x6xf32>
func.func @pad_interior(%x: memref<4x6xf32>, %padded: memref<6x8xf32>, %y: memref<4x6xf32>) {
  %inner = memref.subview %padded[1, 1] [4, 6] [1, 1] : memref<6x8xf32> to memref<4x6xf32, strided<[8, 1], offset: 9>>
  memref.copy %x, %inner : memref<4x6xf32> to memref<4x6xf32, strided<[8, 1], offset: 9>>
  memref.copy %x, %y : memref<4x6xf32> to memref<4x6xf32>
  return
}
