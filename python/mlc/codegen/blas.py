"""Pass `mlc-blas`: a large matmul becomes a call to the BLAS that numpy ships.

    linalg.generic {acc + lhs * rhs} ins(%a : memref<512x512xf32>, %b : ...) outs(%c : ...)
  ->
    func.call @scipy_cblas_sgemm64_(RowMajor, NoTrans, NoTrans, M, N, K, 1.0, a, lda,
                                    b, ldb, 1.0, c, ldc)

Operator selection, as XLA's CPU backend does for its Eigen/MKL/ACL calls: OpenBLAS's
packed, register-blocked, multithreaded sgemm is hard to beat for big GEMMs, while
generated code wins on small ones (no call and threading overhead) and keeps its fused
epilogue. The rule: f32 or f64, one M, N and K loop (batch loops become a loop of calls),
each matrix's rows or columns contiguous, and M*N*K >= `min_mnk` (default 64^3). Anything
else stays a linalg.generic for mlc-vectorize and the scalar path.

The library is numpy's own OpenBLAS (`numpy.libs/libscipy_openblas64_*.so`, ILP64: 64-bit
sizes), found and loaded when MLC compiles. MLC_BLAS=0 turns the rule off; a missing
library leaves the generated code, with one line under MLC_LOG_COMPILES. beta = 1: the
call accumulates into C exactly as the generic did; when a fill of 0 right before the
generic initializes C (the usual case), beta = 0 and the fill is dropped.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith, func, llvm, memref

from .. import config
from ..runtime.libraries import find_blas
from ..transforms.pass_base import Pass
from .contraction import Contraction, match_contraction
from .externs import declare_external
from .loops import nested_for

_ROW_MAJOR, _NO_TRANS, _TRANS = 101, 111, 112
_GEMM = {32: "scipy_cblas_sgemm64_", 64: "scipy_cblas_dgemm64_"}
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
    row_stride = _group_stride(strides, t.shape, position, rows)
    col_stride = _group_stride(strides, t.shape, position, cols)
    if row_stride is None or col_stride is None:
        return None
    batch_strides = tuple(strides[position[b]] for b in batch)
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


def _gemm_type(element: ir.Type) -> ir.FunctionType:
    """cblas_?gemm's C signature, ILP64: (order, transa, transb, m, n, k, alpha, a, lda, b,
    ldb, beta, c, ldc)."""
    i32, i64, ptr = ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64), ir.Type.parse("!llvm.ptr")
    return ir.FunctionType.get([i32, i32, i32, i64, i64, i64, element, ptr, i64, ptr, i64, element, ptr, i64], [])


def is_blas_call(op: ir.Operation) -> bool:
    """Whether `op` is a call mlc-blas made."""
    return op.name == "func.call" and ir.FlatSymbolRefAttr(op.attributes["callee"]).value in _GEMM.values()


def _emit_call(name: str, c: Contraction, a: _Matrix, b: _Matrix, out: _Matrix, m: tuple, n: tuple,
               beta: float = 1.0) -> None:
    """At the current insertion point: loops over the batch dims around one gemm call."""
    index, i32, i64 = ir.IndexType.get(), ir.IntegerType.get_signless(32), ir.IntegerType.get_signless(64)
    element = c.element_type
    element_bytes = element.width // 8
    ptr = ir.Type.parse("!llvm.ptr")

    def base_address(value):
        metadata = memref.extract_strided_metadata(value)
        offset = metadata[1]
        start = memref.extract_aligned_pointer_as_index(value)
        return arith.addi(start, arith.muli(offset, arith.constant(index, element_bytes)))

    def i32c(v):
        return arith.constant(i32, v)

    def i64c(v):
        return arith.constant(i64, v)

    starts = [base_address(x.value) for x in (a, b, out)]
    one = arith.constant(element, ir.FloatAttr.get(element, 1.0))
    beta_value = arith.constant(element, ir.FloatAttr.get(element, beta))
    trans = [i32c(_TRANS if x.transposed else _NO_TRANS) for x in (a, b)]

    def call(ivs, _terminator=None):
        addresses = []
        for x, start in zip((a, b, out), starts):
            address = start
            for iv, stride in zip(ivs, x.batch_strides):
                address = arith.addi(address, arith.muli(iv, arith.constant(index, stride * element_bytes)))
            addresses.append(llvm.inttoptr(ptr, arith.index_cast(i64, address)))
        func.call([], ir.FlatSymbolRefAttr.get(name),
                  [i32c(_ROW_MAJOR), trans[0], trans[1], i64c(c.size(m)), i64c(c.size(n)),
                   i64c(c.size(c.k)), one, addresses[0], i64c(a.leading), addresses[1], i64c(b.leading),
                   beta_value, addresses[2], i64c(out.leading)])

    if c.batch:  # one scf.for per batch loop around the call
        nested_for([(0, c.extents[d], 1) for d in c.batch], call)
    else:
        call(())


def _zero_fill_before(op):
    """The linalg.fill of 0 that initializes this matmul's output right before it, if any
    (the usual dot_general lowering); then the call can use beta = 0 and skip it."""
    previous = None
    for other in _block_ops(op):
        if other == op:
            break
        previous = other
    if previous is None or previous.name != "linalg.fill" or previous.operands[1] != op.operands[2]:
        return None
    value = previous.operands[0].owner
    if not hasattr(value, "attributes") or "value" not in value.attributes:
        return None
    constant = value.attributes["value"]
    return previous if isinstance(constant, ir.FloatAttr) and constant.value == 0.0 else None


def _block_ops(op) -> list:
    """The ops of the block holding `op` (its parent region's block that contains it)."""
    for region in op.parent.regions:
        for block in region.blocks:
            ops = [o.operation for o in block.operations]
            if op in ops:
                return ops
    return []


MIN_MNK = 64 * 64 * 64


def blas_available() -> bool:
    """Whether numpy's OpenBLAS is there; says why not under MLC_LOG_COMPILES."""
    if find_blas() is not None:
        return True
    if config.log_compiles():
        _log.warning("mlc: no BLAS library found (numpy's OpenBLAS); matmuls use generated code")
    return False


def blas_rule(c: Contraction, min_mnk: int = MIN_MNK) -> bool:
    """Operator selection: a float (f32/f64) matmul of at least `min_mnk` multiply-adds."""
    return (isinstance(c.element_type, ir.FloatType) and c.element_type.width in _GEMM
            and c.mnk >= min_mnk)


def blas_takes(c: Contraction) -> bool:
    """Whether mlc-blas will turn this contraction into a call (rule, switch and library);
    a contraction the rule wants but no library can take is reported (blas_available)."""
    return config.blas_enabled() and blas_rule(c) and blas_available()


@dataclass(frozen=True)
class Blas(Pass):
    """Replaces large f32/f64 matmul generics on buffers with calls to numpy's OpenBLAS gemm.

    Expects: the `buffers` stage. Produces: func.call to the ILP64 CBLAS gemm (declared
    private in the module) where the rule in the module docstring holds.
    """

    name = "mlc-blas"
    min_mnk: int = MIN_MNK

    def run(self, module: ir.Operation) -> None:
        if not config.blas_enabled():
            return
        candidates = []

        def visit(op):
            if op.name == "linalg.generic":
                c = match_contraction(op)
                if c is not None and blas_rule(c, self.min_mnk):
                    candidates.append((op, c))
                return ir.WalkResult.SKIP
            return ir.WalkResult.ADVANCE

        module.walk(visit)
        if not candidates or not blas_available():
            return
        for op, c in candidates:
            operands = gemm_operands(c, list(op.operands))
            if operands is None:
                continue
            name = _GEMM[c.element_type.width]
            declare_external(module, name, _gemm_type(c.element_type))
            zero_fill = _zero_fill_before(op)
            with ir.InsertionPoint(op), op.location:
                _emit_call(name, c, *operands, beta=0.0 if zero_fill is not None else 1.0)
            op.erase()
            if zero_fill is not None:  # beta = 0 overwrites C: the zeroing pass is not needed
                zero_fill.erase()
