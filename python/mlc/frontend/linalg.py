"""matmul, dot, tensordot and einsum as hlo.dot_general (plus a transpose to numpy's
output order where dot_general's batch/lhs/rhs order differs)."""

from __future__ import annotations

from ..dialects import hlo
from .core import asarray, broadcast_to, result_dtype, astype, wrap
from .promotion import promote_types
from .tracing import Tracer, emit


def dot_general(lhs, rhs, contracting, batch=((), ()), preferred_element_type=None) -> Tracer:
    """With preferred_element_type, the products and their sum are computed in it (or in
    the operands' type where that is wider, then converted): int8 x int8 -> int32 does
    not wrap, f16 x f16 -> f32 accumulates in f32."""
    lhs, rhs = asarray(lhs), asarray(rhs)
    dtype = result_dtype(lhs, rhs)
    if preferred_element_type is not None:
        dtype = promote_types(dtype, preferred_element_type)
    lhs, rhs = astype(lhs, dtype), astype(rhs, dtype)
    out = wrap(emit(hlo.dot_general, lhs.value, rhs.value, list(batch[0]), list(batch[1]),
                    list(contracting[0]), list(contracting[1])))
    return out if preferred_element_type is None else astype(out, preferred_element_type)


def matmul(a, b, preferred_element_type=None) -> Tracer:
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: input operand does not have enough dimensions (use multiply for scalars)")
    b_contracted = max(b.ndim - 2, 0)
    if a.shape[-1] != b.shape[b_contracted]:
        raise ValueError(f"matmul: contracted dimensions differ: {a.shape} @ {b.shape}")
    if a.ndim == 1 or b.ndim == 1:
        # A vector operand is contracted as it is (no unit dim added then squeezed): the
        # product's loops are then the vector's, and a matrix-vector product is a row
        # reduction along the matrix's rows (a (1000, 777) @ (777,) with a unit dim ran as
        # one-lane multiply-adds: 473 us; as a reduction, 37 us, BLAS's gemv 35).
        return dot_general(a, b, ((a.ndim - 1,), (b_contracted,)), preferred_element_type=preferred_element_type)
    batch_shape = tuple(__import__("numpy").broadcast_shapes(a.shape[:-2], b.shape[:-2]))
    a = broadcast_to(a, batch_shape + a.shape[-2:])
    b = broadcast_to(b, batch_shape + b.shape[-2:])
    nb = len(batch_shape)
    return dot_general(a, b, ((nb + 1,), (nb,)), (tuple(range(nb)), tuple(range(nb))), preferred_element_type)


def dot(a, b, preferred_element_type=None) -> Tracer:
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        from .math import multiply
        return multiply(a, b) if preferred_element_type is None else multiply(
            astype(a, preferred_element_type), astype(b, preferred_element_type))
    if b.ndim == 1:
        return dot_general(a, b, ((a.ndim - 1,), (0,)), preferred_element_type=preferred_element_type)
    return dot_general(a, b, ((a.ndim - 1,), (b.ndim - 2,)), preferred_element_type=preferred_element_type)


def tensordot(a, b, axes=2, preferred_element_type=None) -> Tracer:
    a, b = asarray(a), asarray(b)
    if isinstance(axes, int):
        a_axes = tuple(range(a.ndim - axes, a.ndim))
        b_axes = tuple(range(axes))
    else:
        a_axes, b_axes = ([axes[0]] if isinstance(axes[0], int) else axes[0],
                          [axes[1]] if isinstance(axes[1], int) else axes[1])
        a_axes = tuple(x % a.ndim for x in a_axes)
        b_axes = tuple(x % b.ndim for x in b_axes)
    return dot_general(a, b, (a_axes, b_axes), preferred_element_type=preferred_element_type)


def einsum(subscripts: str, *operands, optimize="greedy", precision=None,
           preferred_element_type=None) -> Tracer:
    """numpy's einsum: any number of operands, '...' (broadcast, right-aligned), repeated
    letters in a term (a diagonal), implicit output (the letters used once, sorted, after
    the '...' dims). Each operand first takes its diagonals and sums the letters no one
    else needs; then pairs are contracted with dot_general in `optimize`'s order: "greedy"
    (default, True: the pair with the smallest result first), False/"none" (left to
    right), or an explicit path [(i, j), ...] (numpy's einsum_path format, with or without
    its leading "einsum_path")."""
    from .einsum import plan
    return plan(subscripts, operands, optimize, preferred_element_type)
