"""Simplification of shape ops: identities removed, chains composed, constants spread."""

from __future__ import annotations

from mlir import ir

from ...dialects import hlo
from ...dialects.hlo.ops import OPS
from ..patterns import attrs, operand_if_same_type, pattern, producer, splat, splat_like


@pattern("hlo.transpose")
def transpose_identity(op, ctx):
    """hlo.transpose(x, permutation = identity) -> x"""
    perm = attrs(op)["permutation"]
    return [op.operands[0]] if perm == sorted(perm) else None


@pattern("hlo.transpose")
def transpose_transpose(op, ctx):
    """hlo.transpose(hlo.transpose(x, p), q) -> hlo.transpose(x, p[q])   (x itself when p[q] is identity)"""
    inner = producer(op.operands[0], "hlo.transpose")
    if inner is None:
        return None
    p, q = attrs(inner)["permutation"], attrs(op)["permutation"]
    composed = [p[i] for i in q]
    x = inner.operands[0]
    return [x] if composed == sorted(composed) else [hlo.transpose(x, composed)]


@pattern("hlo.reshape")
def reshape_same_shape(op, ctx):
    """hlo.reshape(x) : T -> T  ->  x"""
    return operand_if_same_type(op)


@pattern("hlo.reshape")
def reshape_reshape(op, ctx):
    """hlo.reshape(hlo.reshape(x)) -> hlo.reshape(x)"""
    inner = producer(op.operands[0], "hlo.reshape")
    if inner is None:
        return None
    x = inner.operands[0]
    shape = list(ir.RankedTensorType(op.result.type).shape)
    return [x] if x.type == op.result.type else [hlo.reshape(x, shape)]


@pattern("hlo.broadcast_in_dim")
def broadcast_same_type(op, ctx):
    """hlo.broadcast_in_dim(x, dims = 0..n-1) : T -> T  ->  x"""
    dims = attrs(op)["broadcast_dimensions"]
    return operand_if_same_type(op) if dims == list(range(len(dims))) else None


@pattern("hlo.broadcast_in_dim")
def broadcast_splat(op, ctx):
    """hlo.broadcast_in_dim(splat c) -> splat c of the result shape"""
    value = splat(op.operands[0])
    return [splat_like(op.result.type, value)] if value is not None else None


@pattern("hlo.broadcast_in_dim")
def broadcast_broadcast(op, ctx):
    """hlo.broadcast_in_dim(hlo.broadcast_in_dim(x, d1), d2) -> hlo.broadcast_in_dim(x, d2[d1])"""
    inner = producer(op.operands[0], "hlo.broadcast_in_dim")
    if inner is None:
        return None
    d1, d2 = attrs(inner)["broadcast_dimensions"], attrs(op)["broadcast_dimensions"]
    x = inner.operands[0]
    shape = list(ir.RankedTensorType(op.result.type).shape)
    return [hlo.broadcast_in_dim(x, shape, [d2[d] for d in d1])]


@pattern("hlo.slice")
def slice_whole(op, ctx):
    """hlo.slice(x) covering all of x with unit strides -> x"""
    a = attrs(op)
    x = op.operands[0]
    whole = (a["start_indices"] == [0] * len(a["start_indices"])
             and a["strides"] == [1] * len(a["strides"])
             and a["limit_indices"] == list(ir.RankedTensorType(x.type).shape))
    return [x] if whole else None


@pattern("hlo.slice")
def slice_slice(op, ctx):
    """hlo.slice(hlo.slice(x, s1, l1, t1), s2, l2, t2) -> hlo.slice(x, s1 + s2*t1, ..., t1*t2)
    (an empty dimension: start = limit = 0, since s1 + s2*t1 may lie past x's end there)"""
    inner = producer(op.operands[0], "hlo.slice")
    if inner is None:
        return None
    a, b = attrs(inner), attrs(op)
    sizes = ir.RankedTensorType(op.result.type).shape
    starts = [s1 + s2 * t1 if n else 0
              for s1, s2, t1, n in zip(a["start_indices"], b["start_indices"], a["strides"], sizes)]
    strides = [t1 * t2 for t1, t2 in zip(a["strides"], b["strides"])]
    limits = [s + (n - 1) * t + 1 if n else s for s, n, t in zip(starts, sizes, strides)]
    return [hlo.slice(inner.operands[0], starts, limits, strides)]


@pattern("hlo.slice")
def slice_of_concat(op, ctx):
    """hlo.slice(tensor.concat(a, b, ...)) -> hlo.slice(a) when the slice lies within one operand"""
    concat = producer(op.operands[0], "tensor.concat")
    if concat is None:
        return None
    dim = ir.IntegerAttr(concat.attributes["dim"]).value
    a = attrs(op)
    lo, hi = a["start_indices"][dim], a["limit_indices"][dim]
    offset = 0
    for part in concat.operands:
        size = ir.RankedTensorType(part.type).shape[dim]
        if offset <= lo and hi <= offset + size:
            starts, limits = list(a["start_indices"]), list(a["limit_indices"])
            starts[dim], limits[dim] = lo - offset, hi - offset
            return [hlo.slice(part, starts, limits, a["strides"])]
        offset += size
    return None


@pattern("hlo.slice")
def slice_of_argsort(op, ctx):
    """hlo.slice(hlo.argsort(x, d), [0, k) along d, whole elsewhere, unit strides)
    -> hlo.argsort(x, d, limit = k), when the slice is the argsort's only use: the first k
    of a sort (top-k, `argsort(-x)[:k]`) is a selection, not a sort."""
    sort = producer(op.operands[0], "hlo.argsort")
    if sort is None or len(list(op.operands[0].uses)) != 1:
        return None
    a, b = attrs(op), attrs(sort)
    dim = b["dimension"]
    shape = list(ir.RankedTensorType(op.operands[0].type).shape)
    limits = list(a["limit_indices"])
    k = limits[dim]
    limits[dim] = shape[dim]
    if a["strides"] != [1] * len(shape) or a["start_indices"] != [0] * len(shape) or limits != shape:
        return None
    index_type = ir.RankedTensorType(op.result.type).element_type
    return [hlo.argsort(sort.operands[0], dim, bool(b.get("descending", False)), index_type, limit=k)]


@pattern("tensor.concat")
def concat_single(op, ctx):
    """tensor.concat(x) -> x"""
    return [op.operands[0]] if len(op.operands) == 1 else None


@pattern("hlo.reverse")
def reverse_reverse(op, ctx):
    """hlo.reverse(hlo.reverse(x, d), d) -> x"""
    inner = producer(op.operands[0], "hlo.reverse")
    if inner is None or sorted(attrs(inner)["dimensions"]) != sorted(attrs(op)["dimensions"]):
        return None
    return [inner.operands[0]]


@pattern("hlo.reverse")
def reverse_trivial(op, ctx):
    """hlo.reverse(x, dims of size <= 1 only) -> x"""
    shape = ir.RankedTensorType(op.result.type).shape
    return [op.operands[0]] if all(shape[d] <= 1 for d in attrs(op)["dimensions"]) else None


@pattern("hlo.pad")
def pad_nothing(op, ctx):
    """hlo.pad(x, v, low = 0, high = 0, interior = 0) -> x"""
    a = attrs(op)
    if any(a["edge_padding_low"]) or any(a["edge_padding_high"]) or any(a["interior_padding"]):
        return None
    return [op.operands[0]]


# Ops a reshape may move below: they work element by element, on operands of one shape.
_ELEMENTWISE = ("elementwise-unary", "elementwise-binary", "compare", "select", "clamp", "convert",
                "predicate")


def reshape_below_elementwise(op, ctx):
    """f(hlo.reshape(x), hlo.reshape(y), splat c) -> hlo.reshape(f(x, y, splat c))
    (x, y of one shape, each reshape used only here; XLA's ReshapeMover). An elementwise
    op then works on the reduce's shape (mean = reshape(sum) * 1/n becomes
    reshape(sum * 1/n)), so it runs once per row in the reduction's epilogue instead of
    once per element behind the broadcast that follows."""
    reshapes = [producer(v, "hlo.reshape") for v in op.operands]
    shapes = {tuple(ir.RankedTensorType(r.operands[0].type).shape) for r in reshapes if r is not None}
    if len(shapes) != 1:
        return None  # no reshape to move, or reshapes from different shapes
    for v, r in zip(op.operands, reshapes):
        if (r is None and splat(v) is None) or (r is not None and len(list(v.uses)) != 1):
            return None
    source_shape = list(shapes.pop())

    def moved(v, r):
        if r is not None:
            return r.operands[0]
        if list(ir.RankedTensorType(v.type).shape) == source_shape:
            return v
        return splat_like(ir.RankedTensorType.get(source_shape, ir.RankedTensorType(v.type).element_type), splat(v))

    operands = [moved(v, r) for v, r in zip(op.operands, reshapes)]
    result = ir.RankedTensorType(op.result.type)
    name = op.name.removeprefix("hlo.")
    moved_op = hlo._build(name, operands, attrs(op),
                          ir.RankedTensorType.get(source_shape, result.element_type))
    return [hlo.reshape(moved_op, list(result.shape))]


def transpose_below_elementwise(op, ctx):
    """f(hlo.transpose(x, p), hlo.broadcast_in_dim(v, d), splat c) -> hlo.transpose(f(x, hlo.broadcast_in_dim(v, p[d]), splat c), p)

    Every transposed operand has the same p and no other user; 0-d operands are kept
    (XLA's ReshapeMover). Transposes sink toward the results, where two meet and cancel:
    softmax(x.T).T reads x in place, its reductions along x's columns (with
    hlo.reduce(hlo.transpose(x)) -> hlo.reduce(x))."""
    transposes = [producer(v, "hlo.transpose") for v in op.operands]
    perms = {tuple(attrs(t)["permutation"]) for t in transposes if t is not None}
    if len(perms) != 1:
        return None  # no transpose to move, or transposes of different permutations
    for v, t in zip(op.operands, transposes):
        if t is not None:
            if len(list(v.uses)) != 1:
                return None
        elif ir.RankedTensorType(v.type).rank and splat(v) is None and producer(v, "hlo.broadcast_in_dim") is None:
            return None
    p = list(perms.pop())
    result = ir.RankedTensorType(op.result.type)
    source_shape = [0] * len(p)
    for i, d in enumerate(p):  # result dim i is dim p[i] of x
        source_shape[d] = result.shape[i]

    def moved(v, t):
        vt = ir.RankedTensorType(v.type)
        if t is not None:
            return t.operands[0]
        if not vt.rank:
            return v
        if splat(v) is not None:
            return splat_like(ir.RankedTensorType.get(source_shape, vt.element_type), splat(v))
        bcast = producer(v, "hlo.broadcast_in_dim")
        return hlo.broadcast_in_dim(bcast.operands[0], source_shape,
                                    [p[d] for d in attrs(bcast)["broadcast_dimensions"]])

    operands = [moved(v, t) for v, t in zip(op.operands, transposes)]
    moved_op = hlo._build(op.name.removeprefix("hlo."), operands, attrs(op),
                          ir.RankedTensorType.get(source_shape, result.element_type))
    return [hlo.transpose(moved_op, p)]


for _name, _opdef in OPS.items():
    if _opdef.family in _ELEMENTWISE:
        pattern(_opdef.full_name)(reshape_below_elementwise)
        pattern(_opdef.full_name)(transpose_below_elementwise)
