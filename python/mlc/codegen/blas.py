"""Pass `mlc-blas`: operator selection for every matmul on buffers: a call to the BLAS
that numpy ships, or MLC's own packed GEMM (packed_gemm.py).

    linalg.generic {acc + lhs * rhs} ins(%a : memref<512x512xf32>, %b : ...) outs(%c : ...)
  ->
    func.call @scipy_cblas_sgemm64_(RowMajor, NoTrans, NoTrans, M, N, K, 1.0, a, lda,
                                    b, ldb, 1.0, c, ldc)
  or
    memref.alloc {mlc.packed_gemm} ... scf.for ... (pack A and B, 6x16 register tiles)

Operator selection, as XLA's CPU backend does for its Eigen/MKL/ACL calls. Both paths take
any contraction whose loops group into one M, N and K dimension (`contraction.py`; batch
loops become an scf.for around the GEMM) with each matrix's rows or columns contiguous
(transposes are flags / packing orders; hlo-to-linalg transposes an operand once when
its dims are interleaved, dot.py), for every element type the kernel has (f16 -> f32,
f32, f64, i8/i16/i32 -> i32, i64).

The rule (`strategy`), from benchmarks/results/gemm.md (median of 3 runs of interleaved
rounds against OpenBLAS called the same way; a shared machine):
  - "blas": f32/f64, BLAS on (CompileOptions.blas / MLC_BLAS) and the library found, and
    M*N*K >= MIN_MNK = 2^25 (e.g. 256 x 256 x 512, 32 x 1024 x 1024) for f64, and for f32
    where vectors are narrower than OWN_F32_MIN_BITS = 512 (f32 on AVX-512: the packed
    kernel at every size, `size_floor`; the last paragraph of this list), or at most
    FEW_ROWS = 8 rows and M*N*K >= PACKED_MIN_MNK = 2^22 (where the packed kernel would run
    them; 8 x 1024 x 512). Above MIN_MNK the packed kernel measured 0.85-1.21x OpenBLAS
    on one thread and 0.81-1.23x on two (512^3 to 2048^3 square, skinny shapes): there
    BLAS stays, the reference implementation and a little faster on skinny M and on f64;
    below it the packed kernel was faster (1.2x at 64^3, 1.7x at 128^3, 3.5x at 256^3: no
    library call, no thread start-up, no per-call buffer set-up), so it takes them.
    Few rows, from the small-M section of gemm.md as measured on the earlier AVX2 host
    (`--small-m`: M = 4..256 against eight
    K x N weights from 512 x 512 to 3072 x 768, f32, medians of 3 runs): up to 8 rows
    OpenBLAS was faster than the packed kernel for every weight, on one thread 1.10-1.68x
    at M = 4 and 1.35-1.71x at M = 8 (process CPU time), on two 1.68-2.94x at M = 8 (best
    wall): the kernel's 6-row register tile leaves rows idle (8 = 6 + 2) and packing the
    K x N panel of B is paid for a few rows only. From 12 rows on no threshold holds for
    every weight: OpenBLAS 1.01-1.39x ahead up to M = 64 on seven of the eight, but on
    256 x 1536 the packed kernel takes 0.36-0.74 of its time (M = 12..64; 0.88-0.89 at
    128, 256), and from M = 128 they are within 0.88-1.09x. So the size rule stays there:
    the corpus's gru_cell (64 x 256 x 1536 packed: 0.71 of OpenBLAS's time; 64 x 512 x
    1536 OpenBLAS: the packed kernel 1.04x slower) is chosen right on one thread (the
    block 4.10 ms, 4.27 all packed, numpy 4.50; medians of 150 interleaved calls). On two
    threads its medians flip between runs (2.99-5.22 ms by the rule, 2.94-4.29 all packed,
    back-to-back batches on an idle host): OpenBLAS's threads and MLC's share two cores
    (process CPU 6.8-9.4 ms by the rule against 4.4-5.7), which no shape rule fixes.
  - "tiled": below PACKED_MIN_MNK = 2^22 (up to 128^3) when mlc-tile-matmul's register
    tile fits (contraction.register_tile): the tile divides the extents, or leaves one
    smaller tile at the end of M (any rows) and of N (a power of two of columns:
    contraction.column_tile; N = 10 is 8 + 2, N = 127 = 7 x 16 + 15 does not fit). There
    the unpacked 4 x 16 tiles were as fast or a little faster (15.2 against 14.5 GFLOP/s at
    64^3, 30.1 against 28.0 at 128^3; 3 of 4 runs): packing does not pay for so little
    reuse, the tiles fuse an epilogue, and they compile faster (no packing loops). With
    remainders, medians of 300 calls against the packed kernel on one / two threads (us):
    64x256x10 33 / 39 / 39, 64x512x10 51 / 61 / 77, 17x127x33 23 / 25 / 25, 301x40x50
    59 / 75 / 94, 7x90x517 39 / 77 / 98, 127x127x127 159 / 154 / 181, 200x100x150
    196 / 222 / 250. With a fusible elementwise epilogue up to 256^3 when the tile divides
    (tile_matmul.EPILOGUE_TILED_MAX_MNK: tiles + fused epilogue 31-35 against packed + a
    separate loop 18-32 GFLOP/s at 256^3, 4 of 4 runs). Not f16: the register tiles would
    sum in f16, the packed kernel sums in f32.
  - vector contractions (no M or no N loop: linalg-fold-unit-extent-dims removed the unit
    dim of x[1, K] @ w[K, N], or the operands were 1-D): one gemv call per batch (the
    matrix passed transposed when it is K-major), at any size. The loop nest left for them
    read w by columns: 1 x 1024 x 4096 took 46 ms against numpy's 0.7 (gemv: 0.48 ms;
    OpenBLAS's gemm with M = 1 took 1.1 ms, its gemm with N = 1 12 ms). With BLAS off,
    the packed kernel from PACKED_MIN_MNK (0.79 ms there), the loop nest below it.
  - tried and not kept (2026-12-04): the packed kernel above MIN_MNK too, for 128 rows or
    more on 512-bit hosts. Alone, in separate processes (min / median of 5 alternating
    runs, ms), the blocks gained: mlp_block 11.76 / 12.21 -> 11.34 / 12.24, mixer_block
    6.57 / 7.90 -> 6.20 / 6.25, decoder_block 10.39 / 13.53 -> 9.80 / 10.60 (no OpenBLAS
    threads stalling beside MLC's). But a user timing MLC right after numpy's own matmul
    meets OpenBLAS's workers still spinning: 1024^3 then ran 20.8 ms against numpy's 11.0
    (MLC's two threads then share the core the spinning worker leaves; jax.jit 13.6-14.4
    against 10.3 alone), where the call it replaced costs what numpy's does. Splitting a
    loop into 4x more blocks than workers did not help (a 4M-element tanh right after a
    numpy matmul 1.6-2.1 ms either way, 1.0-1.7 alone). Kept as calls.
  - measured, not yet adopted (2026-12-04, evening; AVX-512 host idle, medians of 200-400
    calls per process, 2 processes per version): on two threads OpenBLAS called from MLC
    beat MLC's own kernels below MIN_MNK too, and stayed steady when a numpy matmul ran
    before each call (numpy's OpenBLAS workers spinning), where the packed kernel slowed:
    256^3 0.19 ms against 0.20-0.33 (0.20-0.33 after numpy's call), 128x512x256 0.19
    against 0.20-0.34, 128x256x256 0.10 against 0.12-0.17, 200x300x100 0.07 against 0.15,
    64x512x64 0.037 against 0.043 (register tiles), equal at 64^3 and below (the call's
    own cost). MIN_MNK = 2^20 would follow, but a BLAS call also makes its function's other
    loops sequential (mlc-sequential-beside-blas) and would put chain-tiled per-head
    contractions (attention) into calls from inside parallel loops: to decide with the
    corpus, not from these rows alone. Tried on the corpus blocks (MIN_MNK = 2^20, MLC
    alone, medians of 3 x 40 calls, 2 alternating processes each): attention 8.6-8.7 ms
    against 8.8-12.5 (steadier), decoder_block 10.0-10.1 against 10.3-11.1,
    resnet_bottleneck 2.27 against 2.42-2.47, but attention_core 4.4-4.5 against 3.2-3.4
    (its per-head products now BLAS calls, mlc-chain-tiling declines the chain and the
    softmax runs unfused) and mlp_token 0.21-0.25 against 0.19-0.21; gru, lstm, mixer,
    patch_embed within noise. With the old floor kept for contractions inside a parallel
    loop (a chain's per-head products; the floor then applied by mlc-blas and
    mlc-tile-matmul alike), attention_core was back at 3.2-3.5 ms and the others as above.
    Not adopted yet: the AVX2 host's small-M rows above (256 x 1536 weights, M = 12..64:
    the packed kernel 0.36-0.74 of OpenBLAS's time, one thread) contradicted it. gemm.md's
    small-M section re-measured on this Zen 4 host (`--small-m --repeat 1`, late evening):
    one thread, the packed kernel 0.57-0.99 of OpenBLAS's wall time on seven of the eight
    weights (M = 4..256); two threads, 0.69-1.44 by the best call (slower at M <= 32 on the
    256- and 512-row weights) but 0.93-2.06 by the median: the packed kernel's two-thread
    calls vary where OpenBLAS's do not. What to fix first is that variance of the parallel
    dispatch (the async runtime's workers waking), then the floor per thread count.
    Re-measured on MLC's own pool (2026-12-05, night, gemm.md): the two-thread median ratio
    to OpenBLAS 1.44 -> 0.91 over the 80 small-M shapes, the packed kernel ahead on 55 (was
    11); the rule itself is to be re-decided on the corpus (not yet).
  - measured on the pool, not adopted yet (2026-12-05, night): the packed kernel at every
    size (MIN_MNK = infinity) in the corpus (`corpus.py`, its 0.25 s pause after numpy's
    calls; two alternating runs of each): every GEMM block at or above jax.jit, where the
    calls are at 0.80-0.99x: mlp_block 1.04 / 1.01x jax (calls 0.80 / 0.93), mlp_block_768
    1.00 / 1.00 (0.89 / 0.88), decoder_block 1.07 / 1.10 (0.87 / 0.85), swiglu_ffn 1.04 /
    1.03 (0.85 / 0.99), mixer_block 1.07 / 1.06 (0.92 / 0.98), lstm_cell 1.13 / 1.13,
    gru_cell 1.08 / 1.15, attention 1.36 / 1.37 (1.29 / 1.10). But called right after a
    numpy 512^3 matmul (numpy's OpenBLAS workers still spinning), mlp_block took 23 ms
    against 12.5 with the calls (median of 30, two processes each), and the first call after
    0.3 s idle was not steadier. What would make it safe: MLC's threads not competing with
    another library's spinning workers (or that library's workers told to sleep).
  - adopted (2026-12-05): f32 on 512-bit vectors has no size floor (OWN_F32_MIN_BITS). What
    made it safe: numpy's OpenBLAS now runs its jobs on MLC's pool (parallel_runtime.c,
    mlc_openblas_threads), so no OpenBLAS worker spins beside MLC's threads. Corpus blocks
    alone after 10 numpy calls per round (medians of 150 calls, two alternating runs, ms,
    BLAS calls -> packed): mlp_block 11.60 / 11.60 -> 10.60 / 10.71, mlp_block_768 25.4 /
    25.7 -> 24.3 / 23.8, attention 8.74 / 8.85 -> 7.53 / 7.54, swiglu_ffn 13.3 / 13.4 ->
    11.2 / 10.5, mixer_block 8.0 / 8.1 -> 5.5 / 5.3, lstm_cell 1.41 / 1.42 -> 1.11 / 1.14,
    gru_cell 0.92 / 0.93 -> 0.80 / 0.82, patch_embed 5.19 / 5.38 -> 4.46 / 5.19;
    attention_core 3.15 / 3.19 -> 3.11 / 3.45 and decoder_block 10.1 / 10.3 -> 9.2 / 10.7
    within noise; mlp_block called right after each numpy matmul 11.7 -> 11.2 ms (it was 21.5
    with OpenBLAS's own workers spinning). gemm.md re-measured with OpenBLAS on the pool
    (one run): the packed kernel 0.98-1.36x OpenBLAS on every f32 shape on one thread,
    1.02-1.36x on two. f64 keeps MIN_MNK (0.81-0.95x on two threads before the pool;
    gemm.md's two f64 shapes now 1.02-1.13x, but six more, two alternating processes,
    GFLOP/s packed against calls: 512^3 95-104 / 71-95, 1024x64x1024 98-101 / 85,
    4096x256x256 95 / 74-76, and 32x1024x1024 63-68 / 71-73, 256x1024x4096 80-82 / 92-93,
    2048^3 53-92 / 101-102: no size rule holds), as does f32 on AVX2 (0.85-1.21x above it
    there, not re-measured).
  - beside BLAS (`_beside_blas`): in a function that calls BLAS, a contraction the packed
    kernel would split between threads (at least PACKED_PARALLEL_MIN_MNK
    multiply-adds) is a call too: mlc-sequential-beside-blas runs that function's loops on
    one thread, where the packed kernel's lead measured on all threads is gone.
  - widened operands (mlc-fold-widening: int8 x int8 -> int32, f16 x f16 -> f32 read as
    stored): "packed" at any size but a small vector contraction's (only the packed kernel
    widens while packing; BLAS takes f32/f64 operands only). With 16-bit or narrower
    integers into int32 and VNNI on the host (target.int16_pair_dot), the int16-pair
    kernel: 1024^3 int8 -> int32 5.2 ms (414 GOP/s) against 24 ms for widened int32
    copies and the int32 kernel, 2048^3 52 against 124 ms (AVX-512 Zen 4, 2 threads;
    benchmarks/results/gemm.md).
  - "packed": everything else, and everything with BLAS off or no library.

The library is numpy's own OpenBLAS (`numpy.libs/libscipy_openblas64_*.so`, ILP64: 64-bit
sizes), found and loaded when MLC compiles; a missing library leaves the packed kernel,
with one line under MLC_LOG_COMPILES. beta = 1: the call accumulates into C exactly as
the generic did; when a fill of 0 right before the generic initializes C (the usual case),
beta = 0 and the fill is dropped (the packed kernel then overwrites C in its first K block).
"""

from __future__ import annotations

import dataclasses

import logging
from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith, func, llvm, memref, scf

from .. import config
from ..runtime.libraries import find_blas
from ..transforms.pass_base import Pass
from .contraction import Contraction, match_contraction, register_tile
from .epilogue import match_epilogue
from .externs import declare_external
from .loops import block_ops, delinearize, in_parts, inside_parallel_loop, nested_for
from .packed_gemm import GemmProblem, Operand, blocking, emit_gemm
from . import gemm_library, target
from .target import int16_pair_dot, num_threads, vector_register_bits

_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112
_GEMM = {32: "scipy_cblas_sgemm64_", 64: "scipy_cblas_dgemm64_"}
_GEMV = {32: "scipy_cblas_sgemv64_", 64: "scipy_cblas_dgemv64_"}
_log = logging.getLogger("mlc")


@dataclass(frozen=True)
class _Matrix:
    """How one operand holds a logical matrix X[rows, cols]: transposed or not, its leading
    dimension (elements between rows), and its stride for each batch loop."""

    value: ir.Value
    transposed: bool
    leading: int
    batch_strides: tuple[int, ...]


def _group_stride(strides, shape, position, group) -> int | None:
    """The stride of a loop group read as one dimension: its loops must be consecutive
    operand dimensions, in order, each spanning exactly the next (a collapsible reshape)."""
    places = [position[d] for d in group]
    if places != list(range(places[0], places[0] + len(places))):
        return None
    for outer, inner in zip(places, places[1:]):
        if strides[outer] != strides[inner] * shape[inner]:
            return None
    return strides[places[-1]]


def _matrix(value: ir.Value, dims: tuple[int, ...], rows: tuple[int, ...], cols: tuple[int, ...],
            batch: tuple[int, ...]) -> _Matrix | None:
    t = ir.MemRefType(value.type)
    strides, _ = t.get_strides_and_offset()
    if min(strides) < 0:  # dynamic (ShapedType's sentinel)
        return None
    position = {d: i for i, d in enumerate(dims)}
    row_stride = _group_stride(strides, t.shape, position, rows) if rows else None
    col_stride = _group_stride(strides, t.shape, position, cols) if cols else None
    if (rows and row_stride is None) or (cols and col_stride is None):
        return None
    if not rows:  # one row (a vector contraction): any stride between its elements
        ncols = 1
        for d in cols:
            ncols *= t.shape[position[d]]
        row_stride = ncols * col_stride if col_stride == 1 else 1
    elif not cols:  # one column: rows `row_stride` apart, each one element wide
        col_stride = 1
    # A batch loop the operand lacks (a weight broadcast along the batch) has stride 0.
    batch_strides = tuple(strides[position[b]] if b in position else 0 for b in batch)
    if col_stride == 1:
        return _Matrix(value, False, max(row_stride, 1), batch_strides)
    if row_stride == 1:
        return _Matrix(value, True, max(col_stride, 1), batch_strides)
    return None


def gemm_operands(c: Contraction, operands) -> tuple[_Matrix, _Matrix, _Matrix, tuple, tuple] | None:
    """(A, B, C, M, N) for a row-major gemm computing this contraction, or None if a
    matrix has neither contiguous rows nor columns. A transposed C is computed as
    C^T = B^T A^T."""
    lhs, rhs, out = operands
    m, n = c.m, c.n
    out_matrix = _matrix(out, c.out_dims, m, n, c.batch)
    if out_matrix is None:
        return None
    if out_matrix.transposed:  # C^T[n, m] = B^T[n, k] A^T[k, m]
        lhs, rhs, m, n = rhs, lhs, n, m
        lhs_dims, rhs_dims = c.rhs_dims, c.lhs_dims
        out_matrix = _matrix(out, c.out_dims, m, n, c.batch)
    else:
        lhs_dims, rhs_dims = c.lhs_dims, c.rhs_dims
    a = _matrix(lhs, lhs_dims, m, c.k, c.batch)
    b = _matrix(rhs, rhs_dims, c.k, n, c.batch)
    if a is None or b is None or out_matrix is None or out_matrix.transposed:
        return None
    return a, b, out_matrix, m, n


def gemm_plan(c: Contraction, operands) -> tuple[Contraction, tuple] | None:
    """The contraction as a loop of gemms, and gemm_operands for it. A loop in M or N that
    only one operand has (x(b, k, m) @ w(k, n) after mlc-tile-matmul folded w's broadcast
    along b: b joins M) may not form one strided matrix dimension with the others; then the
    outer loops of that group become batch loops (w read with stride 0 along them)."""
    found = gemm_operands(c, operands)
    if found is not None:
        return c, found
    for _ in range(len(c.m) + len(c.n)):
        if len(c.m) > 1:
            c = dataclasses.replace(c, m=c.m[1:], batch=c.batch + c.m[:1])
        elif len(c.n) > 1:
            c = dataclasses.replace(c, n=c.n[1:], batch=c.batch + c.n[:1])
        else:
            return None
        found = gemm_operands(c, operands)
        if found is not None:
            return c, found
    return None


def _gemm_type(element: ir.Type) -> ir.FunctionType:
    """cblas_?gemm's C signature, ILP64: (order, transa, transb, m, n, k, alpha, a, lda, b,
    ldb, beta, c, ldc)."""
    i32, i64, ptr = ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64), ir.Type.parse("!llvm.ptr")
    return ir.FunctionType.get([i32, i32, i32, i64, i64, i64, element, ptr, i64, ptr, i64, element, ptr, i64], [])


def _gemv_type(element: ir.Type) -> ir.FunctionType:
    """cblas_?gemv's C signature, ILP64: (order, trans, m, n, alpha, a, lda, x, incx, beta,
    y, incy)."""
    i32, i64, ptr = ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64), ir.Type.parse("!llvm.ptr")
    return ir.FunctionType.get([i32, i32, i64, i64, element, ptr, i64, ptr, i64, element, ptr, i64], [])


def is_blas_call(op: ir.Operation) -> bool:
    """Whether `op` is a call mlc-blas made."""
    return op.name == "func.call" and (ir.FlatSymbolRefAttr(op.attributes["callee"]).value
                                       in (*_GEMM.values(), *_GEMV.values()))


def gemv_plan(c: Contraction, operands) -> tuple | None:
    """(matrix, vector, output, rows) for a gemv computing this vector contraction, or None:
    the matrix as [rows, K] (transposed when stored K-major), the vector's and the output's
    element strides (incx, incy) and batch strides. x[K] @ w[K, N] has rows = N."""
    lhs, rhs, out = operands
    if not c.m:
        matrix_value, matrix_dims, vector_value, vector_dims, rows = rhs, c.rhs_dims, lhs, c.lhs_dims, c.n
    else:
        matrix_value, matrix_dims, vector_value, vector_dims, rows = lhs, c.lhs_dims, rhs, c.rhs_dims, c.m
    matrix = _matrix(matrix_value, matrix_dims, rows, c.k, c.batch)
    vector = _matrix(vector_value, vector_dims, c.k, (), c.batch)  # [K, 1]: its leading dim is incx
    result = _matrix(out, c.out_dims, rows, (), c.batch)           # [rows, 1]: incy
    if matrix is None or vector is None or result is None or vector.transposed or result.transposed:
        return None
    return matrix, vector, result, rows


def _base_address(value: ir.Value, element_bytes: int) -> ir.Value:
    """The address of a memref's first element, as an index."""
    index = ir.IndexType.get()
    metadata = memref.extract_strided_metadata(value)
    start = memref.extract_aligned_pointer_as_index(value)
    return arith.addi(start, arith.muli(metadata[1], arith.constant(index, element_bytes)))


def _emit_batched_call(name: str, c: Contraction, operands: tuple, arguments) -> None:
    """At the current insertion point: `name(*arguments(addresses))` in one scf.for per
    batch loop, the addresses of `operands` (_Matrix) advanced by their batch strides."""
    index, i64 = ir.IndexType.get(), ir.IntegerType.get_signless(64)
    element_bytes = c.element_type.width // 8
    ptr = ir.Type.parse("!llvm.ptr")
    starts = [_base_address(x.value, element_bytes) for x in operands]

    def call(ivs, _terminator=None):
        addresses = []
        for x, start in zip(operands, starts):
            address = start
            for iv, stride in zip(ivs, x.batch_strides):
                address = arith.addi(address, arith.muli(iv, arith.constant(index, stride * element_bytes)))
            addresses.append(llvm.inttoptr(ptr, arith.index_cast(i64, address)))
        func.call([], ir.FlatSymbolRefAttr.get(name), arguments(addresses))

    if c.batch:
        nested_for([(0, c.extents[d], 1) for d in c.batch], call)
    else:
        call(())


def _blas_scalars(c: Contraction, beta: float) -> tuple[ir.Value, ir.Value]:
    """alpha = 1 and beta, in the contraction's element type."""
    element = c.element_type
    return (arith.constant(element, ir.FloatAttr.get(element, 1.0)),
            arith.constant(element, ir.FloatAttr.get(element, beta)))


def _emit_gemv(name: str, c: Contraction, matrix: _Matrix, vector: _Matrix, result: _Matrix, rows: tuple,
               beta: float) -> None:
    """At the current insertion point: loops over the batch dims around one gemv call,
    y[rows] = A[rows, K] x[K] (+ beta y); A stored K-major is passed as its transpose."""
    i32, i64 = ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64)
    one, beta_value = _blas_scalars(c, beta)
    # Row-major A is M x N with y = A x (NoTrans) or y = A^T x (Trans, x of length M).
    m, n = (c.size(c.k), c.size(rows)) if matrix.transposed else (c.size(rows), c.size(c.k))
    trans = _TRANS if matrix.transposed else _NO_TRANS
    _emit_batched_call(name, c, (matrix, vector, result), lambda addresses: [
        arith.constant(i32, _ROW_MAJOR), arith.constant(i32, trans), arith.constant(i64, m), arith.constant(i64, n),
        one, addresses[0], arith.constant(i64, matrix.leading), addresses[1], arith.constant(i64, vector.leading),
        beta_value, addresses[2], arith.constant(i64, result.leading)])


def _emit_call(name: str, c: Contraction, a: _Matrix, b: _Matrix, out: _Matrix, m: tuple, n: tuple,
               beta: float = 1.0) -> None:
    """At the current insertion point: loops over the batch dims around one gemm call."""
    i32, i64 = ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64)
    one, beta_value = _blas_scalars(c, beta)
    trans = [arith.constant(i32, _TRANS if x.transposed else _NO_TRANS) for x in (a, b)]
    _emit_batched_call(name, c, (a, b, out), lambda addresses: [
        arith.constant(i32, _ROW_MAJOR), trans[0], trans[1], arith.constant(i64, c.size(m)),
        arith.constant(i64, c.size(n)), arith.constant(i64, c.size(c.k)), one, addresses[0],
        arith.constant(i64, a.leading), addresses[1], arith.constant(i64, b.leading), beta_value, addresses[2],
        arith.constant(i64, out.leading)])


def _packed_epilogue(op, c: Contraction, operands, zero_fill, register_bits: int):
    """The elementwise consumer MLC's packed GEMM applies to its tiles (epilogue.py: bias,
    activation, residual; XLA's output fusion) when C is one row-major [M, N] matrix (no
    batch loop), K fits one KC block and the consumer reads C element by element, else
    None. The kernel then writes the consumer's output and never C. Measured (f32, AVX-512,
    two threads, p25 of interleaved calls, relu(x @ w + b) against the packed kernel and a
    separate loop): 256x512x512 0.776 -> 0.762 ms, 128x256x1024 0.413 -> 0.400, 512x512x2048
    6.24 -> 5.84; with K in four blocks (512x2048x512) C's partial sums still go to memory and
    the last block's update twice in the code: -1% at run time, +25 ms of compile time, so
    not there."""
    _, _, out, m, n = operands
    t = ir.MemRefType(op.operands[2].type)
    if c.batch or out.transposed or t.rank != 2 or len(m) != 1 or len(n) != 1 or \
            list(t.shape) != [c.size(m), c.size(n)]:
        return None
    compute = compute_type(c.element_type)
    if compute is None or c.size(c.k) > blocking(compute, register_bits).kc:
        return None
    return match_epilogue(op, [zero_fill] if zero_fill is not None else [], [op.operands[0], op.operands[1]])


def _emit_packed(c: Contraction, a: _Matrix, b: _Matrix, out: _Matrix, m: tuple, n: tuple,
                 beta_zero: bool, register_bits: int, threads: int, unsigned=(), vnni: int = -1,
                 epilogue=None, *, module: ir.Operation) -> None:
    """At the current insertion point: loops over the batch dims around MLC's packed GEMM
    on 2-D views of the three operands: a call of its precompiled kernel (gemm_library.py,
    declared in `module`) where one takes the problem, else the kernel emitted here
    (packed_gemm.emit_gemm). `unsigned`: the operand buffers whose integers widen by zero
    extension; `vnni`: the int16-pair kernel for narrow integer sources (-1: where the host
    has it, 0: never, 1: always)."""
    index = ir.IndexType.get()
    offsets = [memref.extract_strided_metadata(x.value)[1] for x in (a, b, out)]
    batches = c.size(c.batch)
    if c.mnk * batches < PACKED_PARALLEL_MIN_MNK:
        threads = 1
    compute = compute_type(c.element_type)
    pairs = (vnni == 1 or (vnni == -1 and int16_pair_dot(register_bits))) and register_bits in (256, 512) \
        and all(_fits_int16(x.value, x.value in unsigned) for x in (a, b)) \
        and isinstance(compute, ir.IntegerType) and compute.width == 32
    by_batch = threads > 1 and _split_batches(batches, c.size(m), c.size(n), threads, register_bits, compute)
    problem = GemmProblem(c.size(m), c.size(n), c.size(c.k), compute, register_bits,
                          1 if by_batch else threads, beta_zero, pairs, epilogue)

    def gemm(ivs, _terminator=None):
        views = []
        for x, offset in zip((a, b, out), offsets):
            for iv, stride in zip(ivs, x.batch_strides):
                offset = arith.addi(offset, arith.muli(iv, arith.constant(index, stride)))
            strides = (1, x.leading) if x.transposed else (x.leading, 1)
            views.append(Operand(x.value, offset, *strides, unsigned=x.value in unsigned))
        kernel = gemm_library.variant_for(problem, *views)
        if kernel is not None:
            gemm_library.emit_call(module, kernel, problem, *views)
        else:
            emit_gemm(problem, *views)

    if by_batch:
        # Each thread takes whole matrices: one parallel region for all of them (not one
        # per batch index), and each B packed once instead of once per thread.
        extents = [c.extents[d] for d in c.batch]
        chunk = -(-batches // threads)

        def part(t):
            lo = arith.muli(t, arith.constant(index, chunk))
            hi = arith.minui(arith.addi(lo, arith.constant(index, chunk)), arith.constant(index, batches))
            loop = scf.ForOp(lo, hi, arith.constant(index, 1))
            with ir.InsertionPoint(loop.body):
                gemm(tuple(delinearize(loop.induction_variable, extents)))
                scf.YieldOp([])
        in_parts(-(-batches // chunk), part)
    elif c.batch:
        nested_for([(0, c.extents[d], 1) for d in c.batch], gemm)
    else:
        gemm(())


def _split_batches(batches: int, m: int, n: int, threads: int, register_bits: int, compute) -> bool:
    """Whether the threads share a batched GEMM's matrices (whole ones each) rather than each
    matrix's rows: when that keeps them as evenly busy (8 matrices on 2 threads: 4 each; 3
    on 2 would leave one thread idle a third of the time, while 512 rows split evenly)."""
    if batches < threads:
        return False
    even_batches = batches / (threads * -(-batches // threads))
    bl = blocking(compute, register_bits)
    units = max(-(-m // bl.mr), -(-n // bl.nr))
    even_rows = units / (threads * -(-units // threads))
    return even_batches >= even_rows


def _fits_int16(buffer: ir.Value, unsigned: bool) -> bool:
    """Whether every element of `buffer` is an int16 value: integers of at most 16 bits,
    or of at most 8 if they widen by zero extension."""
    el = ir.MemRefType(buffer.type).element_type
    return isinstance(el, ir.IntegerType) and el.width <= (8 if unsigned else 16)


def _zero_fill_before(op):
    """The fill of 0 that initializes this matmul's output before it, if any (the usual
    dot_general lowering: a linalg.fill, a generic after linalg-generalize-named-ops), with
    only view and constant ops in between; then the call can use beta = 0 and skip it."""
    previous = None
    for other in block_ops(op):
        if other == op:
            break
        if other.name not in _NO_MEMORY_EFFECT:
            previous = other
    if previous is None or not len(previous.operands) or \
            previous.operands[len(previous.operands) - 1] != op.operands[2]:
        return None
    if previous.name == "linalg.generic":
        body = list(previous.regions[0].blocks[0].operations)
        if len(previous.operands) != 2 or len(body) != 1 or \
                body[0].operands[0] != previous.regions[0].blocks[0].arguments[0]:
            return None
    elif previous.name != "linalg.fill":
        return None
    value = previous.operands[0].owner
    if not hasattr(value, "attributes") or "value" not in value.attributes:
        return None
    constant = value.attributes["value"]
    return previous if isinstance(constant, (ir.FloatAttr, ir.IntegerAttr)) and constant.value == 0 else None


_NO_MEMORY_EFFECT = ("arith.constant", "memref.view", "memref.subview", "memref.extract_strided_metadata",
                     "memref.extract_aligned_pointer_as_index", "memref.reinterpret_cast", "memref.cast")


MIN_MNK = 1 << 25  # 256 x 256 x 512: below, the packed kernel was faster than the call
# f32 where vectors are this wide (AVX-512): the packed kernel at every size, no MIN_MNK
# (few rows and vector contractions stay calls). Measured 2026-12-05 with OpenBLAS's jobs on
# MLC's pool: module docstring.
OWN_F32_MIN_BITS = 512
PACKED_MIN_MNK = 1 << 22  # below (up to 128^3), mlc-tile-matmul's register tiles when the tile fits
# The packed kernel splits between threads from this many multiply-adds (every batch's
# counted): wherever it is used. Measured on MLC's thread pool (2026-12-05, p25 of 300
# interleaved calls, one thread against two): 128x256x128 (2^22) 83.7 against 48.6 us,
# 256x256x128 159 against 87, 128x512x256 313 against 165. (On MLIR's async runtime, used
# before, waking the workers cost 40-70 us and one thread won up to 2^22: 97 against 136 us;
# the floor was 2^23.) It is also the size from which a contraction in a function that
# calls BLAS becomes a call (`_beside_blas`: the function's loops run on one thread).
PACKED_PARALLEL_MIN_MNK = 1 << 22
FEW_ROWS = 8  # up to this many rows, OpenBLAS from PACKED_MIN_MNK: the 6-row tiles and B's packing pay for little


def blas_available() -> bool:
    """Whether numpy's OpenBLAS is there; says why not under MLC_LOG_COMPILES."""
    if find_blas() is not None:
        return True
    if config.log_compiles():
        _log.warning("mlc: no BLAS library found (numpy's OpenBLAS); matmuls use generated code")
    return False


def size_floor(width: int, register_bits: int = 0) -> int | None:
    """The multiply-adds from which a float matmul of this element width is a BLAS call by
    size alone: MIN_MNK, or None (never) for f32 on hosts with OWN_F32_MIN_BITS vectors."""
    if width == 32 and (register_bits or vector_register_bits()) >= OWN_F32_MIN_BITS:
        return None
    return MIN_MNK


def blas_rule(c: Contraction, min_mnk: int = 0, register_bits: int = 0) -> bool:
    """Operator selection: a float (f32/f64) matmul of at least `min_mnk` multiply-adds
    (default: size_floor), or of at most FEW_ROWS rows and at least PACKED_MIN_MNK (module
    docstring: the measurements behind MIN_MNK, OWN_F32_MIN_BITS and FEW_ROWS)."""
    if not (isinstance(c.element_type, ir.FloatType) and c.element_type.width in _GEMM) or c.widened:
        return False
    if c.is_vector:  # x[1, K] @ w[K, N]: a call at any size (the loop nest reads w by columns)
        return True
    floor = min_mnk or size_floor(c.element_type.width, register_bits)
    if floor is not None and c.mnk >= floor:
        return True
    return c.size(c.m) <= FEW_ROWS and c.mnk >= PACKED_MIN_MNK


def compute_type(element: ir.Type) -> ir.Type | None:
    """The type MLC's packed kernel multiplies and sums in for this element type: f32 for
    f16/bf16/f32, f64, i32 for i8/i16/i32, i64; None for the others (i1, f8 ...)."""
    if isinstance(element, ir.FloatType):
        if element.width == 64:
            return element
        if element.width in (16, 32):
            return ir.F32Type.get()
        return None
    if isinstance(element, ir.IntegerType) and element.width in (8, 16, 32, 64):
        return element if element.width == 64 else ir.IntegerType.get_signless(32)
    return None


def strategy(c: Contraction, register_bits: int = 0, min_mnk: int = 0) -> str:
    """Operator selection for one contraction: "blas" (an OpenBLAS call), "packed" (MLC's
    packed GEMM, packed_gemm.py), "loop" (a small vector contraction left to mlc-vectorize)
    or "tiled" (mlc-tile-matmul's register tiles, which also
    fuse an elementwise epilogue, for small matmuls the tile fits, with one peeled
    remainder tile in M and in N; the generic loop nest for the few element types the
    packed kernel lacks).
    The rule and the measurements behind it: module docstring."""
    if config.blas_enabled() and blas_rule(c, min_mnk, register_bits) and blas_available():
        return "blas"
    if c.is_vector:  # the loop nest for small ones; big ones would read w by columns
        return "packed" if c.mnk >= PACKED_MIN_MNK else "loop"
    if c.widened:  # only the packed kernel widens while it packs (and has VNNI)
        return "packed"
    compute = compute_type(c.element_type)
    if compute is None:
        return "tiled"
    if isinstance(c.element_type, ir.FloatType) and compute != c.element_type:
        return "packed"  # f16: only the packed kernel sums in f32
    small = c.mnk < PACKED_MIN_MNK
    if small and register_tile(c, register_bits or vector_register_bits()) is not None:
        return "tiled"
    return "packed"


def _function_of(op) -> ir.Operation:
    parent = op.parent
    while parent.name != "func.func":
        parent = parent.parent
    return parent


def _beside_blas(candidates: list, threads: int) -> list:
    """packed -> blas for a contraction the packed kernel would split between threads, in
    a function that calls BLAS anyway, where OpenBLAS keeps its own workers (not where its
    jobs run on MLC's pool: target.blas_on_pool, the Blas pass's `beside` option).

    Such a function runs its loops on one thread (mlc-sequential-beside-blas: OpenBLAS's
    workers spin after a call), so the packed kernel there loses the threads its measured
    lead below MIN_MNK assumed, while OpenBLAS keeps them. The corpus's gru_cell (64x512x1536
    by the rule -> BLAS, 64x256x1536 -> packed, on one thread beside it): 1.10-1.18 ms,
    numpy 1.03-1.07; both on BLAS 0.90-0.94 ms (AVX-512 host, medians of 300 calls).
    Only where BLAS takes the element type (f32/f64: f16 sums in f32 on the packed kernel)."""

    if threads <= 1 or not blas_available() or not config.blas_enabled():
        return candidates
    with_blas = {_function_of(op) for op, _, choice in candidates if choice == "blas"}
    if not with_blas:
        return candidates

    def moved(op, c: Contraction, choice: str) -> str:
        if (choice == "packed" and _function_of(op) in with_blas and not c.is_vector and not c.widened
                and isinstance(c.element_type, ir.FloatType) and c.element_type.width in _GEMM
                and c.mnk * c.size(c.batch) >= PACKED_PARALLEL_MIN_MNK):
            return "blas"
        return choice

    return [(op, c, moved(op, c, choice)) for op, c, choice in candidates]


def blas_takes(c: Contraction) -> bool:
    """Whether mlc-blas will turn this contraction into a call (rule, switch and library);
    a contraction the rule wants but no library can take is reported (blas_available)."""
    return config.blas_enabled() and blas_rule(c) and blas_available()


@dataclass(frozen=True)
class Blas(Pass):
    """Replaces large f32/f64 matmul generics on buffers with calls to numpy's OpenBLAS gemm
    (gemv for a vector contraction), the rest of the matmuls with MLC's packed GEMM: a call
    of its precompiled kernel for f32/f64 (gemm_library.py, CompileOptions.gemm_kernels), else
    the kernel emitted in place.

    Expects: the `buffers` stage. Produces: func.call to the ILP64 CBLAS gemm (declared
    private in the module) where the rule in the module docstring holds, func.call to
    `mlc_gemm_f32_*`/`mlc_gemm_f64_*` (declared private) or packed loops for the others.
    """

    name = "mlc-blas"
    min_mnk: int = 0  # 0 = MIN_MNK
    register_bits: int = 0  # the packed kernel's vector width; 0 = the target's
    threads: int = 0  # the packed kernel's threads; 0 = num_threads()
    vnni: int = -1  # the int16-pair (VNNI) packed kernel: -1 where the host has it, 0 never, 1 always
    beside: int = -1  # _beside_blas: target.sequential_beside_blas's setting (-1: unless OpenBLAS is on MLC's pool)

    def run(self, module: ir.Operation) -> None:
        candidates = []

        def visit(op):
            if op.name == "linalg.generic":
                c = match_contraction(op, vectors=True)
                if c is not None:
                    choice = strategy(c, self.register_bits, self.min_mnk)
                    if choice in ("blas", "packed"):
                        candidates.append((op, c, choice))
                return ir.WalkResult.SKIP
            return ir.WalkResult.ADVANCE

        module.walk(visit)
        bits = self.register_bits or vector_register_bits()
        threads = self.threads or num_threads()
        if target.sequential_beside_blas(self.beside):
            candidates = _beside_blas(candidates, threads)
        for op, c, choice in candidates:
            gemv = c.is_vector and choice == "blas"
            operands = list(op.operands)
            unsigned = {x for x, zero_extends in zip(operands, c.unsigned) if zero_extends}
            plan = gemv_plan(c, operands) if gemv else gemm_plan(c, operands)
            if plan is None:
                continue
            zero_fill = _zero_fill_before(op)
            beta = 0.0 if zero_fill is not None else 1.0
            with ir.InsertionPoint(op), op.location:
                if gemv:
                    name = _GEMV[c.element_type.width]
                    declare_external(module, name, _gemv_type(c.element_type))
                    _emit_gemv(name, c, *plan, beta=beta)
                elif choice == "blas":
                    c, operands = plan
                    name = _GEMM[c.element_type.width]
                    declare_external(module, name, _gemm_type(c.element_type))
                    _emit_call(name, c, *operands, beta=beta)
                else:
                    c, operands = plan
                    epilogue = _packed_epilogue(op, c, operands, zero_fill, bits)
                    _emit_packed(c, *operands, beta_zero=zero_fill is not None, register_bits=bits,
                                 threads=1 if inside_parallel_loop(op) else threads, unsigned=unsigned,
                                 vnni=self.vnni, epilogue=epilogue, module=module)
                    if epilogue is not None:
                        epilogue.finish()
            op.erase()
            if zero_fill is not None:  # beta = 0 overwrites C: the zeroing pass is not needed
                zero_fill.erase()
