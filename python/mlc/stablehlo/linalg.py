"""cholesky and triangular_solve decomposed into hlo loops at import (real element types).

Both work on a batch of n x n matrices (the last two dims; leading dims are batch dims) and
run one scf.while iteration per row or column (loops.fori_loop), each a handful of
dynamic_slice / dot_general / dynamic_update_slice ops on the whole batch."""

from __future__ import annotations

import numpy as np
from mlir import ir

from ..dialects import hlo
from ..dtypes import numpy_dtype
from . import attributes as A
from .loops import fori_loop, i32
from .registry import custom_call_rule, rule


def _flag(op, name: str) -> bool:
    attr = A.get(op, name)
    return attr is not None and bool(ir.BoolAttr(attr).value)


def _float_operands(cv, op):
    for v in op.operands:
        if not isinstance(ir.RankedTensorType(v.type).element_type, ir.FloatType):
            raise cv.error(op, f"'{op.name}' of a non-float operand is not supported")
    return cv.operands(op)


def _shape(v: ir.Value) -> list[int]:
    return list(ir.RankedTensorType(v.type).shape)


def _full(like: ir.Value, value: float, shape=None) -> ir.Value:
    element = ir.RankedTensorType(like.type).element_type
    scalar = hlo.constant(np.asarray(value, numpy_dtype(element)))
    return hlo.broadcast_in_dim(scalar, shape if shape is not None else _shape(like), [])


def _swap_last(x: ir.Value) -> ir.Value:
    rank = len(_shape(x))
    return hlo.transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])


def _index_grid(shape, dim: int) -> ir.Value:
    return hlo.iota(shape, ir.IntegerType.get_signless(32), dim)


def _batched_matmul(a: ir.Value, b: ir.Value, contract_a: int, contract_b: int) -> ir.Value:
    batch = list(range(len(_shape(a)) - 2))
    return hlo.dot_general(a, b, batch, batch, [contract_a], [contract_b])


def cholesky_lower(a: ir.Value) -> ir.Value:
    """L with a = L L^T from a's lower triangle (the strict upper triangle is not read; the
    result's is 0), column by column: for j in 0..n-1, with v = a[:, j] - L L[j, :]^T (only
    columns < j of L are filled yet), L[j, j] = sqrt(v[j]) and L[i, j] = v[i] / L[j, j] for
    i > j. A matrix that is not positive definite gives NaNs from the first failing column on."""
    shape = _shape(a)
    batch, n = shape[:-2], shape[-1]
    zeros = [i32(0)] * len(batch)
    rows = _index_grid(batch + [n, 1], len(batch))

    def column(j, carried):
        (lower,) = carried
        a_col = hlo.dynamic_slice(a, zeros + [i32(0), j], batch + [n, 1])
        row_j = hlo.dynamic_slice(lower, zeros + [j, i32(0)], batch + [1, n])
        v = hlo.subtract(a_col, _batched_matmul(lower, row_j, len(shape) - 1, len(shape) - 1))
        diag = hlo.sqrt(hlo.dynamic_slice(v, zeros + [j, i32(0)], batch + [1, 1]))
        diag_full = hlo.broadcast_in_dim(diag, batch + [n, 1], list(range(len(shape))))
        j_full = hlo.broadcast_in_dim(j, batch + [n, 1], [])
        below = hlo.compare(rows, j_full, "GT", "SIGNED")
        at = hlo.compare(rows, j_full, "EQ", "SIGNED")
        new = hlo.select(below, hlo.divide(v, diag_full),
                         hlo.select(at, diag_full, _full(v, 0.0)))
        return [hlo.dynamic_update_slice(lower, new, zeros + [i32(0), j])]

    (result,) = fori_loop(n, [_full(a, 0.0)], column)
    return result


@rule("stablehlo.cholesky")
def cholesky(cv, op):
    """lower: L (a = L L^T, from a's lower triangle); otherwise U = (chol of a^T)^T with
    a = U^T U, from a's upper triangle. The other triangle of the result is 0."""
    (a,) = _float_operands(cv, op)
    if _flag(op, "lower"):
        return [cholesky_lower(a)]
    return [_swap_last(cholesky_lower(_swap_last(a)))]


def _triangle(a: ir.Value, lower: bool, unit_diagonal: bool) -> ir.Value:
    shape = _shape(a)
    rank = len(shape)
    rows, cols = _index_grid(shape, rank - 2), _index_grid(shape, rank - 1)
    keep = hlo.compare(rows, cols, "GE" if lower else "LE", "SIGNED")
    t = hlo.select(keep, a, _full(a, 0.0))
    if unit_diagonal:
        t = hlo.select(hlo.compare(rows, cols, "EQ", "SIGNED"), _full(a, 1.0), t)
    return t


def forward_substitution(m: ir.Value, b: ir.Value) -> ir.Value:
    """x with m x = b for lower-triangular m ([..., n, n]) and b ([..., n, k]), row by row:
    x[i] = (b[i] - m[i, :] x) / m[i, i] (rows >= i of x are still 0)."""
    shape, b_shape = _shape(m), _shape(b)
    batch, n, k = shape[:-2], shape[-1], b_shape[-1]
    zeros = [i32(0)] * len(batch)
    rank = len(shape)

    def row(i, carried):
        (x,) = carried
        m_row = hlo.dynamic_slice(m, zeros + [i, i32(0)], batch + [1, n])
        diag = hlo.dynamic_slice(m, zeros + [i, i], batch + [1, 1])
        b_row = hlo.dynamic_slice(b, zeros + [i, i32(0)], batch + [1, k])
        done = _batched_matmul(m_row, x, rank - 1, rank - 2)
        value = hlo.divide(hlo.subtract(b_row, done),
                           hlo.broadcast_in_dim(diag, batch + [1, k], list(range(rank))))
        return [hlo.dynamic_update_slice(x, value, zeros + [i, i32(0)])]

    (x,) = fori_loop(n, [_full(b, 0.0)], row)
    return x


@rule("stablehlo.triangular_solve")
def triangular_solve(cv, op):
    """x with op(a) x = b (left_side) or x op(a) = b, op(a) = a or a^T (ADJOINT is a^T for
    real types), reading only a's `lower` (or upper) triangle, its diagonal taken as 1 when
    unit_diagonal. Reduced to one lower-triangular left solve: m = op(triangle(a)); a right
    side solve is m^T x^T = b^T; an upper m is made lower by reversing its rows and columns
    (and b's rows, and the solution's)."""
    a, b = _float_operands(cv, op)
    transpose = A.get(op, "transpose_a")
    transposed = transpose is not None and A.enum_value(transpose) != "NO_TRANSPOSE"
    return [solve(a, b, _flag(op, "left_side"), _flag(op, "lower"), transposed,
                  _flag(op, "unit_diagonal"))]


def solve(a, b, left: bool, lower: bool, transposed: bool, unit: bool) -> ir.Value:
    m = _triangle(a, lower, unit)
    m_lower = lower
    if transposed:
        m, m_lower = _swap_last(m), not m_lower
    if not left:
        m, b, m_lower = _swap_last(m), _swap_last(b), not m_lower
    rank = len(_shape(a))
    if not m_lower:
        m, b = hlo.reverse(m, [rank - 2, rank - 1]), hlo.reverse(b, [rank - 2])
    x = forward_substitution(m, b)
    if not m_lower:
        x = hlo.reverse(x, [rank - 2])
    return x if left else _swap_last(x)


# JAX's CPU lowering calls LAPACK through custom calls; their flags are LAPACK's characters
# (as ui8 in mhlo.backend_config) and describe the logical (row-major) matrices.
def _lapack_flags(cv, op) -> dict[str, str]:
    config = A.get(op, "mhlo.backend_config")
    if not isinstance(config, ir.DictAttr):
        raise cv.error(op, f"'{op.name}' without its LAPACK flags (mhlo.backend_config)")
    return {config[i].name: chr(ir.IntegerAttr(config[i].attr).value) for i in range(len(config))}


@custom_call_rule("lapack_spotrf_ffi", "lapack_dpotrf_ffi")
def lapack_potrf(cv, op):
    """LAPACK potrf: (factor, info). The factor is cholesky's of the `uplo` triangle, the
    other triangle keeping the input's values (LAPACK does not touch it); info per matrix
    is 0, or the 1-based index of the first column whose pivot is not > 0 (NaN included)."""
    (a,) = _float_operands(cv, op)
    lower = _lapack_flags(cv, op).get("uplo", "L") == "L"
    factor = cholesky_lower(a) if lower else _swap_last(cholesky_lower(_swap_last(a)))
    shape = _shape(a)
    batch, n = shape[:-2], shape[-1]
    rank = len(shape)
    rows, cols = _index_grid(shape, rank - 2), _index_grid(shape, rank - 1)
    mine = hlo.compare(rows, cols, "GE" if lower else "LE", "SIGNED")
    factor = hlo.select(mine, factor, a)
    on_diagonal = hlo.compare(rows, cols, "EQ", "SIGNED")
    zero_a = hlo.constant(np.zeros((), numpy_dtype(ir.RankedTensorType(a.type).element_type)))
    diagonal = hlo.reduce(hlo.select(on_diagonal, factor, _full(a, 0.0)), zero_a,
                          [rank - 1], "add")  # [..., n]
    bad = hlo.not_(hlo.compare(diagonal, _full(diagonal, 0.0), "GT", "FLOAT"))
    info_type = ir.RankedTensorType(op.results[1].type).element_type

    def int_full(value, shape):
        scalar = hlo.constant(np.asarray(value, numpy_dtype(info_type)))
        return hlo.broadcast_in_dim(scalar, shape, []) if shape else scalar

    column = hlo.iota(batch + [n], info_type, len(batch))
    # The first bad column j has the largest n - j among the bad ones.
    score = hlo.select(bad, hlo.subtract(int_full(n, batch + [n]), column), int_full(0, batch + [n]))
    best = hlo.reduce(score, int_full(0, []), [len(batch)], "max")
    zeros = int_full(0, batch)
    info = hlo.select(hlo.compare(best, zeros, "GT", "SIGNED"),
                      hlo.subtract(int_full(n + 1, batch), best), zeros)
    return [factor, info]


@custom_call_rule("lapack_strsm_ffi", "lapack_dtrsm_ffi")
def lapack_trsm(cv, op):
    """LAPACK trsm: triangular_solve with side/uplo/trans_x/diag read from LAPACK's flags
    ('L'eft, 'L'ower, 'N'/'T'/'C' transpose, 'U'nit diagonal)."""
    a, b = _float_operands(cv, op)
    flags = _lapack_flags(cv, op)
    return [solve(a, b, left=flags.get("side", "L") == "L", lower=flags.get("uplo", "L") == "L",
                  transposed=flags.get("trans_x", "N") != "N", unit=flags.get("diag", "N") == "U")]
