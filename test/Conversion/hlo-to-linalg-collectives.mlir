// hlo.all_reduce: the identity on one process; under a job (forced here with
// MLC_COLLECTIVES=mpi) a check that all processes agree (MPI_Iallreduce, completed by
// @mlc_collective_wait under the collective timeout, 300 s by default), then MPI_Allreduce
// in place on the operand's buffer, with MPICH's handles. Bufferization copies the
// operand first only when it is still needed (INPLACE): a caller's read-only argument is
// copied into the result's out-param (and mlc-out-of-place-collectives then makes the
// argument MPI's send buffer instead), a dead temporary is reduced where it is.
// RUN: not mlc-opt %s --hlo-to-linalg --split-input-file 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: env MLC_COLLECTIVES=mpi mlc-opt %s --hlo-to-linalg | FileCheck %s --check-prefix=MPI
// RUN: env MLC_COLLECTIVES=mpi mlc-opt %s --emit=buffers | FileCheck %s --check-prefix=INPLACE
// RUN: env MLC_COLLECTIVES=mpi mlc-opt %s --emit=llvm | FileCheck %s --check-prefix=LLVM

// A result type made for 2 processes (@gather below) does not compile for one (the
// diagnostic comes first, on stderr).
// ONE: error: 'hlo.all_gather' op all_gather was built for 2 processes, this job has 1

// ONE-LABEL: func @sum
// ONE-NOT: MPI
// ONE: return %arg0

// MPI-DAG: llvm.func internal @mlc_collective_wait(%{{.*}}: !llvm.ptr, %{{.*}}: f64, %{{.*}}: !llvm.ptr) attributes {no_inline}
// MPI-DAG: llvm.func @MPI_Iallreduce(!llvm.ptr, !llvm.ptr, i32, i32, i32, i32, !llvm.ptr) -> i32
// MPI-DAG: llvm.func @MPI_Allreduce(!llvm.ptr, !llvm.ptr, i32, i32, i32, i32) -> i32
// MPI-LABEL: func @sum
// MPI-DAG: %[[COUNT:.*]] = arith.constant 6 : i32
// MPI-DAG: %[[FLOAT:.*]] = arith.constant 1275069450 : i32
// MPI-DAG: %[[SUM:.*]] = arith.constant 1476395011 : i32
// MPI-DAG: %[[WORLD:.*]] = arith.constant 1140850688 : i32
// MPI-DAG: %[[BUF:.*]] = bufferization.to_buffer %arg0 : tensor<2x3xf32> to memref<2x3xf32>
// MPI: llvm.call @MPI_Allreduce(%{{.*}}, %{{.*}}, %[[COUNT]], %[[FLOAT]], %[[SUM]], %[[WORLD]])
// MPI: bufferization.to_tensor %[[BUF]] restrict
// INPLACE-LABEL: func @sum(%arg0: memref<2x3xf32>, %arg1: memref<2x3xf32>)
// INPLACE: llvm.call @mlc_collective_wait
// INPLACE-NOT: memref.copy
// INPLACE: %[[RECV:.*]] = memref.extract_aligned_pointer_as_index %arg1
// INPLACE: %[[SEND:.*]] = memref.extract_aligned_pointer_as_index %arg0
// INPLACE: %[[S:.*]] = arith.index_cast %[[SEND]]
// INPLACE: %[[SP:.*]] = llvm.inttoptr %[[S]]
// INPLACE: llvm.call @MPI_Allreduce(%[[SP]],
// INPLACE-NEXT: return
func.func @sum(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "hlo.all_reduce"(%a) {kind = "add"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// A dead operand: the product is written into the out-param and reduced there, no copy.
// INPLACE-LABEL: func @dead(%arg0: memref<2x3xf32>, %arg1: memref<2x3xf32>)
// INPLACE: linalg.generic {{.*}} outs(%arg1 : memref<2x3xf32>)
// INPLACE-NOT: memref.copy
// INPLACE-NOT: memref.alloc(
// INPLACE: memref.extract_aligned_pointer_as_index %arg1
// INPLACE: llvm.call @MPI_Allreduce
// INPLACE-NEXT: return
func.func @dead(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %d = "hlo.multiply"(%a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %0 = "hlo.all_reduce"(%d) {kind = "add"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// The agreement check first: (count, datatype, collective, kind, shape key, 0) and their
// negations, all reduced with MAX (nonblocking, waited for under the timeout); every
// collective's check has these 12 values, so two different collectives' checks match.
// MPI-LABEL: func @max_i64
// MPI-DAG: arith.constant 1275070522 : i32
// MPI-DAG: arith.constant 1476395009 : i32
// MPI-DAG: %[[TIMEOUT:.*]] = arith.constant 3.000000e+02 : f64
// MPI-DAG: %[[CHECK:.*]] = memref.alloca() : memref<12xi64>
// MPI: llvm.call @MPI_Iallreduce
// MPI: llvm.call @mlc_collective_wait(%{{.*}}, %[[TIMEOUT]], %{{.*}}) {no_inline}
// A mismatch aborts the job and never goes on to the data call, even when MPI_Abort
// returns before mpiexec has ended the process (_exit).
// MPI: scf.if
// MPI: llvm.call @MPI_Abort
// MPI-NEXT: llvm.call @_exit(%{{.*}}) : (i32) -> ()
// MPI: llvm.call @MPI_Allreduce
func.func @max_i64(%a: tensor<5xi64>) -> tensor<5xi64> {
  %0 = "hlo.all_reduce"(%a) {kind = "max"} : (tensor<5xi64>) -> tensor<5xi64>
  return %0 : tensor<5xi64>
}

// -----

// all_gather along dim 1 on 2 processes: MPI_Allgather into [2, 2, 3], then the process
// dim moves next to dim 1 and merges with it.
// MPI-LABEL: func @gather
// MPI: %[[RECV:.*]] = memref.alloc() : memref<2x2x3xf32>
// MPI: llvm.call @MPI_Allgather
// MPI: %[[ALL:.*]] = bufferization.to_tensor %[[RECV]] restrict
// MPI: linalg.transpose ins(%[[ALL]] : tensor<2x2x3xf32>) outs(%{{.*}} : tensor<2x2x3xf32>) permutation = [1, 0, 2]
// MPI: tensor.expand_shape {{.*}} into tensor<2x6xf32>
func.func @gather(%a: tensor<2x3xf32>) -> tensor<2x6xf32> {
  %0 = "hlo.all_gather"(%a) {all_gather_dim = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}


// -----

// collective_broadcast: MPI_Bcast from root 0 (the 4th argument), in place on the
// operand's buffer (here a read-only argument: copied into the out-param first).
// MPI-LABEL: func @broadcast
// MPI-DAG: %[[ROOT:.*]] = arith.constant 0 : i32
// MPI-DAG: %[[BUF:.*]] = bufferization.to_buffer %arg0 : tensor<3xi32> to memref<3xi32>
// MPI: llvm.call @MPI_Bcast(%{{.*}}, %{{.*}}, %{{.*}}, %[[ROOT]], %{{.*}})
// MPI: bufferization.to_tensor %[[BUF]] restrict
// INPLACE-LABEL: func @broadcast(%arg0: memref<3xi32>, %arg1: memref<3xi32>)
// INPLACE: memref.copy %arg0, %arg1
// INPLACE: llvm.call @MPI_Bcast
// ONE-LABEL: func @broadcast
// ONE-NOT: MPI
// ONE: return %arg0
func.func @broadcast(%a: tensor<3xi32>) -> tensor<3xi32> {
  %0 = "hlo.collective_broadcast"(%a) : (tensor<3xi32>) -> tensor<3xi32>
  return %0 : tensor<3xi32>
}

// -----

// The compiled kernel calls MPI itself (and nothing declares a C wrapper for it).
// LLVM-DAG: llvm.func @MPI_Allreduce(!llvm.ptr, !llvm.ptr, i32, i32, i32, i32) -> i32
// LLVM-DAG: llvm.func @MPI_Test(!llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
// LLVM-DAG: llvm.func @sched_yield() -> i32
// LLVM-DAG: llvm.func @MPI_Abort(i32, i32) -> i32
// LLVM-DAG: llvm.func @_exit(i32)
// LLVM-NOT: _mlir_ciface_MPI_
// LLVM: llvm.call @MPI_Allreduce
