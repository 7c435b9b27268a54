"""matmul, dot, tensordot and einsum as hlo.dot_general (plus a transpose to numpy's
output order where dot_general's batch/lhs/rhs order differs)."""

from __future__ import annotations

from ..dialects import hlo
from .core import asarray, broadcast_to, result_dtype, astype, wrap
from .promotion import promote_types
from .shapes import expand_dims, squeeze, transpose
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
    a2 = expand_dims(a, 0) if a.ndim == 1 else a
    b2 = expand_dims(b, -1) if b.ndim == 1 else b
    if a2.shape[-1] != b2.shape[-2]:
        raise ValueError(f"matmul: contracted dimensions differ: {a.shape} @ {b.shape}")
    batch_shape = tuple(__import__("numpy").broadcast_shapes(a2.shape[:-2], b2.shape[:-2]))
    a2 = broadcast_to(a2, batch_shape + a2.shape[-2:])
    b2 = broadcast_to(b2, batch_shape + b2.shape[-2:])
    nb = len(batch_shape)
    out = dot_general(a2, b2, ((nb + 1,), (nb,)), (tuple(range(nb)), tuple(range(nb))),
                      preferred_element_type)
    if a.ndim == 1:
        out = squeeze(out, -2)
    if b.ndim == 1:
        out = squeeze(out, -1)
    return out


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


def einsum(subscripts: str, *operands, preferred_element_type=None) -> Tracer:
    """Contractions of one or two operands that dot_general (and a transpose) can express."""
    subscripts = subscripts.replace(" ", "")
    if "..." in subscripts:
        raise NotImplementedError("einsum with '...' is not supported")
    inputs, arrow, output = subscripts.partition("->")
    terms = inputs.split(",")
    if len(terms) != len(operands) or len(terms) not in (1, 2):
        raise NotImplementedError("einsum supports one or two operands")
    if not arrow:
        counts = {c: inputs.count(c) for c in inputs if c != ","}
        output = "".join(sorted(c for c, n in counts.items() if n == 1))
    ops = [asarray(x) for x in operands]
    for term, x in zip(terms, ops):
        if len(term) != x.ndim or len(set(term)) != len(term):
            raise NotImplementedError(f"einsum term {term!r} for shape {x.shape} (repeated indices "
                                      f"are diagonals, which are not supported)")
    from .reductions import sum as reduce_sum
    if len(ops) == 1:
        (term,), (x,) = terms, ops
        summed = [d for d, c in enumerate(term) if c not in output]
        kept = "".join(c for c in term if c in output)
        if preferred_element_type is not None:
            x = astype(x, promote_types(x.dtype, preferred_element_type))
        x = reduce_sum(x, tuple(summed)) if summed else x
        x = x if preferred_element_type is None else astype(x, preferred_element_type)
        return transpose(x, [kept.index(c) for c in output])
    (ta, tb), (a, b) = terms, ops
    batch = [c for c in ta if c in tb and c in output]
    contract = [c for c in ta if c in tb and c not in output]
    # Letters in one operand only but not in the output are summed first.
    a_only = [d for d, c in enumerate(ta) if c not in tb and c not in output]
    b_only = [d for d, c in enumerate(tb) if c not in ta and c not in output]
    if preferred_element_type is not None:  # partial sums below in the preferred type too
        wide = promote_types(result_dtype(a, b), preferred_element_type)
        a, b = astype(a, wide), astype(b, wide)
    if a_only:
        a, ta = reduce_sum(a, tuple(a_only)), "".join(c for d, c in enumerate(ta) if d not in a_only)
    if b_only:
        b, tb = reduce_sum(b, tuple(b_only)), "".join(c for d, c in enumerate(tb) if d not in b_only)
    out = dot_general(a, b, ([ta.index(c) for c in contract], [tb.index(c) for c in contract]),
                      ([ta.index(c) for c in batch], [tb.index(c) for c in batch]), preferred_element_type)
    produced = batch + [c for c in ta if c not in tb] + [c for c in tb if c not in ta]
    return transpose(out, [produced.index(c) for c in output])
