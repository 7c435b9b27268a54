// RUN: mlc-opt %s --mlc-out-of-place-collectives --split-input-file | FileCheck %s

// A whole-buffer copy right before an in-place all-reduce (MPI_IN_PLACE = (void*)-1) into
// its buffer: the copy's source becomes the send buffer and the copy goes.
// CHECK-LABEL: func @copied_argument
// CHECK-NOT: memref.copy
// CHECK: %[[RECV:.*]] = memref.extract_aligned_pointer_as_index %arg1
// CHECK: %[[R:.*]] = arith.index_cast %[[RECV]] : index to i64
// CHECK: %[[RP:.*]] = llvm.inttoptr %[[R]] : i64 to !llvm.ptr
// CHECK: %[[SEND:.*]] = memref.extract_aligned_pointer_as_index %arg0
// CHECK: %[[S:.*]] = arith.index_cast %[[SEND]] : index to i64
// CHECK: %[[SP:.*]] = llvm.inttoptr %[[S]] : i64 to !llvm.ptr
// CHECK: llvm.call @MPI_Allreduce(%[[SP]], %[[RP]],
llvm.func @MPI_Allreduce(!llvm.ptr, !llvm.ptr, i32, i32, i32, i32) -> i32
func.func @copied_argument(%arg0: memref<2x3xf32>, %arg1: memref<2x3xf32>) {
  %c-1 = arith.constant -1 : i64
  %count = arith.constant 6 : i32
  %op = arith.constant 1476395011 : i32
  %in_place = llvm.inttoptr %c-1 : i64 to !llvm.ptr
  memref.copy %arg0, %arg1 : memref<2x3xf32> to memref<2x3xf32>
  %p = memref.extract_aligned_pointer_as_index %arg1 : memref<2x3xf32> -> index
  %i = arith.index_cast %p : index to i64
  %ptr = llvm.inttoptr %i : i64 to !llvm.ptr
  %r = llvm.call @MPI_Allreduce(%in_place, %ptr, %count, %op, %op, %op) : (!llvm.ptr, !llvm.ptr, i32, i32, i32, i32) -> i32
  return
}

// -----

// Something that may touch memory between the copy and the call: left alone.
// CHECK-LABEL: func @store_between
// CHECK: %[[IN_PLACE:.*]] = llvm.inttoptr %c-1_i64 : i64 to !llvm.ptr
// CHECK: memref.copy %arg0, %arg1
// CHECK: memref.store
// CHECK: llvm.call @MPI_Allreduce(%[[IN_PLACE]],
llvm.func @MPI_Allreduce(!llvm.ptr, !llvm.ptr, i32, i32, i32, i32) -> i32
func.func @store_between(%arg0: memref<2x3xf32>, %arg1: memref<2x3xf32>, %v: f32) {
  %c-1 = arith.constant -1 : i64
  %c0 = arith.constant 0 : index
  %count = arith.constant 6 : i32
  %in_place = llvm.inttoptr %c-1 : i64 to !llvm.ptr
  memref.copy %arg0, %arg1 : memref<2x3xf32> to memref<2x3xf32>
  memref.store %v, %arg1[%c0, %c0] : memref<2x3xf32>
  %p = memref.extract_aligned_pointer_as_index %arg1 : memref<2x3xf32> -> index
  %i = arith.index_cast %p : index to i64
  %ptr = llvm.inttoptr %i : i64 to !llvm.ptr
  %r = llvm.call @MPI_Allreduce(%in_place, %ptr, %count, %count, %count, %count) : (!llvm.ptr, !llvm.ptr, i32, i32, i32, i32) -> i32
  return
}

// -----

// A copy into a strided view (a part of a bigger buffer): left alone.
// CHECK-LABEL: func @strided_destination
// CHECK: %[[IN_PLACE:.*]] = llvm.inttoptr %c-1_i64 : i64 to !llvm.ptr
// CHECK: memref.copy
// CHECK: llvm.call @MPI_Allreduce(%[[IN_PLACE]],
llvm.func @MPI_Allreduce(!llvm.ptr, !llvm.ptr, i32, i32, i32, i32) -> i32
func.func @strided_destination(%arg0: memref<3xf32>, %arg1: memref<3xf32, strided<[1], offset: 2>>) {
  %c-1 = arith.constant -1 : i64
  %count = arith.constant 3 : i32
  %in_place = llvm.inttoptr %c-1 : i64 to !llvm.ptr
  memref.copy %arg0, %arg1 : memref<3xf32> to memref<3xf32, strided<[1], offset: 2>>
  %p = memref.extract_aligned_pointer_as_index %arg1 : memref<3xf32, strided<[1], offset: 2>> -> index
  %i = arith.index_cast %p : index to i64
  %ptr = llvm.inttoptr %i : i64 to !llvm.ptr
  %r = llvm.call @MPI_Allreduce(%in_place, %ptr, %count, %count, %count, %count) : (!llvm.ptr, !llvm.ptr, i32, i32, i32, i32) -> i32
  return
}

// -----

// Already out of place (the send buffer is not MPI_IN_PLACE): unchanged.
// CHECK-LABEL: func @out_of_place
// CHECK: memref.copy %arg0, %arg1
// CHECK: llvm.call @MPI_Allreduce(%{{.*}}, %{{.*}},
llvm.func @MPI_Allreduce(!llvm.ptr, !llvm.ptr, i32, i32, i32, i32) -> i32
func.func @out_of_place(%arg0: memref<3xf32>, %arg1: memref<3xf32>, %send: !llvm.ptr) {
  %count = arith.constant 3 : i32
  memref.copy %arg0, %arg1 : memref<3xf32> to memref<3xf32>
  %p = memref.extract_aligned_pointer_as_index %arg1 : memref<3xf32> -> index
  %i = arith.index_cast %p : index to i64
  %ptr = llvm.inttoptr %i : i64 to !llvm.ptr
  %r = llvm.call @MPI_Allreduce(%send, %ptr, %count, %count, %count, %count) : (!llvm.ptr, !llvm.ptr, i32, i32, i32, i32) -> i32
  return
}
