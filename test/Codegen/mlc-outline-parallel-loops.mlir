// RUN: mlc-opt %s --split-input-file --mlc-outline-parallel-loops="threads=2" | FileCheck %s

// An scf.forall becomes a call into MLC's thread pool: its body is outlined into a function
// of (context, block), the values it reads are stored in the context, and the 64 iterations
// are cut into 4 blocks per thread (8 blocks of 8). A memref of static layout crosses as
// its aligned pointer; the body rebuilds its descriptor from the type.
// CHECK-LABEL: func @rows
// CHECK: %[[CTX:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(f32, ptr)>
// CHECK: %[[P0:.*]] = llvm.insertvalue %arg1, %{{.*}}[0]
// CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %arg0 : memref<64xf32> to !llvm.struct
// CHECK: %[[A:.*]] = llvm.extractvalue %[[D]][1]
// CHECK: %[[P1:.*]] = llvm.insertvalue %[[A]], %[[P0]][1]
// CHECK: llvm.store %[[P1]], %[[CTX]]
// CHECK: %[[F:.*]] = constant @rows_parallel_0
// CHECK-DAG: %[[BLOCKS:.*]] = arith.constant 8 : i64
// CHECK-DAG: %[[THREADS:.*]] = arith.constant 2 : i64
// CHECK: call @mlc_parallel_for(%[[F]], %[[CTX]], %[[BLOCKS]], %[[THREADS]])
// CHECK-NOT: scf.forall
// CHECK: func private @rows_parallel_0(%[[C:.*]]: !llvm.ptr, %[[B:.*]]: i64)
// CHECK: %[[S:.*]] = llvm.load %[[C]]
// CHECK: %[[V:.*]] = llvm.extractvalue %[[S]][0]
// CHECK: %[[PTR:.*]] = llvm.extractvalue %[[S]][1]
// CHECK: %[[D0:.*]] = llvm.insertvalue %[[PTR]], %{{.*}}[0]
// CHECK: %[[D1:.*]] = llvm.insertvalue %[[PTR]], %[[D0]][1]
// CHECK: %[[OFF:.*]] = llvm.mlir.constant(0 : i64)
// CHECK: %[[D2:.*]] = llvm.insertvalue %[[OFF]], %[[D1]][2]
// CHECK: %[[SIZE:.*]] = llvm.mlir.constant(64 : i64)
// CHECK: %[[D3:.*]] = llvm.insertvalue %[[SIZE]], %[[D2]][3, 0]
// CHECK: %[[STRIDE:.*]] = llvm.mlir.constant(1 : i64)
// CHECK: %[[D4:.*]] = llvm.insertvalue %[[STRIDE]], %[[D3]][4, 0]
// CHECK: %[[M:.*]] = builtin.unrealized_conversion_cast %[[D4]] : !llvm.struct<{{.*}}> to memref<64xf32>
// CHECK: %[[BI:.*]] = arith.index_cast %[[B]] : i64 to index
// CHECK: %[[LO:.*]] = arith.muli %[[BI]], %c8
// CHECK: %[[END:.*]] = arith.addi %[[LO]], %c8
// CHECK: %[[HI:.*]] = arith.minui %[[END]], %c64
// CHECK: scf.for %[[I:.*]] = %[[LO]] to %[[HI]]
// CHECK: memref.store %[[V]], %[[M]][%[[I]]]
func.func @rows(%x: memref<64xf32>, %v: f32) {
  scf.forall (%i) in (64) {
    memref.store %v, %x[%i] : memref<64xf32>
  }
  return
}

// -----

// Several dimensions are one linear range, delinearized in the body (innermost fastest);
// lower bounds and steps are applied; an index crosses the context as i64; a constant is
// cloned into the body, not stored.
// CHECK-LABEL: func @grid
// CHECK: llvm.alloca %{{.*}} x !llvm.struct<(i64, ptr)>
// CHECK: arith.index_cast %arg1 : index to i64
// CHECK: call @mlc_parallel_for
// CHECK: func private @grid_parallel_0
// CHECK: %[[N:.*]] = arith.index_cast %{{.*}} : i64 to index
// CHECK: %[[CST:.*]] = arith.constant 1.0
// CHECK: scf.for %[[L:.*]] = 
// CHECK: %[[J:.*]] = arith.remui %[[L]], %c8
// CHECK: %[[Q:.*]] = arith.divui %[[L]], %c8
// CHECK: %[[S:.*]] = arith.muli %[[Q]], %c2
// CHECK: %[[I:.*]] = arith.addi %[[S]], %c2
// CHECK: %[[K:.*]] = arith.addi %[[I]], %[[N]]
// CHECK: memref.store %[[CST]], %{{.*}}[%[[K]], %[[J]]]
func.func @grid(%x: memref<10x8xf32>, %n: index) {
  %c1 = arith.constant 1.0 : f32
  scf.forall (%i, %j) = (2, 0) to (10, 8) step (2, 1) {
    %k = arith.addi %i, %n : index
    memref.store %c1, %x[%k, %j] : memref<10x8xf32>
  }
  return
}

// -----

// Only the outermost loop is shared: a nested scf.forall stays in the body (for scf-forall-to-for).
// Fewer iterations than blocks: one block per iteration, and then the block index is the
// iteration (no loop in the body).
// CHECK-LABEL: func @nested
// CHECK-DAG: %[[BLOCKS:.*]] = arith.constant 3 : i64
// CHECK: call @mlc_parallel_for(%{{.*}}, %{{.*}}, %[[BLOCKS]], %{{.*}})
// CHECK: func private @nested_parallel_0(%{{.*}}: !llvm.ptr, %[[B:.*]]: i64)
// CHECK-NOT: scf.for
// CHECK: %[[I:.*]] = arith.index_cast %[[B]] : i64 to index
// CHECK-NOT: scf.for
// CHECK: scf.forall (%[[J:.*]]) in (16)
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
func.func @nested(%x: memref<3x16xf32>, %v: f32) {
  scf.forall (%i) in (3) {
    scf.forall (%j) in (16) {
      memref.store %v, %x[%i, %j] : memref<3x16xf32>
    }
  }
  return
}

// -----

// One iteration has nothing to share: left as it is, no call.
// CHECK-LABEL: func @single
// CHECK-NOT: mlc_parallel_for
// CHECK: scf.forall
func.func @single(%x: memref<1xf32>, %v: f32) {
  scf.forall (%i) in (1) {
    memref.store %v, %x[%i] : memref<1xf32>
  }
  return
}

// -----

// A forall inside a sequential loop: the context is allocated once at the function's
// entry, not on every iteration.
// CHECK-LABEL: func @in_loop
// CHECK-NEXT: llvm.mlir.constant(1 : i64)
// CHECK-NEXT: llvm.alloca
// CHECK: scf.for
// CHECK: llvm.store
// CHECK: call @mlc_parallel_for
func.func @in_loop(%x: memref<4x64xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  scf.for %r = %c0 to %c4 step %c1 {
    scf.forall (%i) in (64) {
      memref.store %v, %x[%r, %i] : memref<4x64xf32>
    }
  }
  return
}

// -----

// A vector of indices (a gather's offsets) crosses the context as a vector of i64.
// CHECK-LABEL: func @vector_of_indices
// CHECK: arith.index_cast %{{.*}} : vector<4xindex> to vector<4xi64>
// CHECK: llvm.insertvalue
// CHECK: func private @vector_of_indices_parallel_0
// CHECK: arith.index_cast %{{.*}} : vector<4xi64> to vector<4xindex>
func.func @vector_of_indices(%x: memref<64x4xindex>) {
  %v = arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
  %c1 = arith.constant 1 : index
  %w = vector.broadcast %c1 : index to vector<4xindex>
  %u = arith.addi %v, %w : vector<4xindex>
  %c0 = arith.constant 0 : index
  scf.forall (%i) in (64) {
    vector.store %u, %x[%i, %c0] : memref<64x4xindex>, vector<4xindex>
  }
  return
}

// -----

// A buffer the body allocates (a row-fusion temporary) is allocated once per block, before
// the block's loop: an alloca inside the loop would stay on the stack until the function
// returns, one per iteration.
// CHECK-LABEL: func private @row_buffer_parallel_0
// CHECK: %[[BUF:.*]] = memref.alloca() : memref<512xf32>
// CHECK: scf.for
// CHECK: memref.store %{{.*}}, %[[BUF]]
// CHECK: memref.copy %[[BUF]]
func.func @row_buffer(%x: memref<64x512xf32>, %v: f32) {
  %c0 = arith.constant 0 : index
  scf.forall (%i) in (64) {
    %buf = memref.alloca() : memref<512xf32>
    memref.store %v, %buf[%c0] : memref<512xf32>
    %row = memref.subview %x[%i, 0] [1, 512] [1, 1] : memref<64x512xf32> to memref<512xf32, strided<[1], offset: ?>>
    memref.copy %buf, %row : memref<512xf32> to memref<512xf32, strided<[1], offset: ?>>
  }
  return
}

// -----

// A memref whose offset is only known at run time (a subview at a computed row) crosses the
// context as its whole descriptor.
// CHECK-LABEL: func @dynamic_offset
// CHECK: llvm.alloca %{{.*}} x !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>)>
// CHECK: func private @dynamic_offset_parallel_0
// CHECK: %[[S:.*]] = llvm.load
// CHECK: %[[D:.*]] = llvm.extractvalue %[[S]][0] : !llvm.struct<(struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>)>
// CHECK: builtin.unrealized_conversion_cast %[[D]] : !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)> to memref<16xf32, strided<[1], offset: ?>>
func.func @dynamic_offset(%x: memref<64x16xf32>, %r: index) {
  %row = memref.subview %x[%r, 0] [1, 16] [1, 1] : memref<64x16xf32> to memref<16xf32, strided<[1], offset: ?>>
  %c1 = arith.constant 1.0 : f32
  scf.forall (%i) in (16) {
    memref.store %c1, %row[%i] : memref<16xf32, strided<[1], offset: ?>>
  }
  return
}
