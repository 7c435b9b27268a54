"""Pass `mlc-transposed-broadcasts`: a transpose of a broadcast that keeps the order of the
broadcast value's own dimensions becomes a broadcast of that value; a vector read that
broadcasts (0 in its permutation map) becomes a read of its own elements and a broadcast.

    %b = vector.broadcast %x : vector<4x1xf32> to vector<8x4x1xf32>
    %t = vector.transpose %b, [1, 0, 2] : vector<8x4x1xf32> to vector<4x8x1xf32>
  ->
    %y = vector.shape_cast %x : vector<4x1xf32> to vector<4x1x1xf32>
    %t = vector.broadcast %y : vector<4x1x1xf32> to vector<4x8x1xf32>

Why: the vectorizer reads a register-tiled matmul's A operand (indexed by (m, k) in the
loop space (m, n, k)) as a broadcast along n then a transpose (what transfer_read's
permutation-map lowering makes of the broadcast dimension). convert-vector-to-llvm
lowers a transpose element by element: 32 extracts and inserts per K step of a 4x8
tile, 256 of a 4x32 one, which LLVM then folds back into 4 splats. As a broadcast, each
row of A is one splat from the start: mlp_loss's `llvm` stage 1,913 -> 989 lines, its
first call's MLIR passes 44 -> 37 ms and LLVM 21 -> 19 ms; run times unchanged (17 small
matmul programs, alternating processes).

The rule holds when the dimensions of %x larger than 1 appear in the transpose's result
in the order they have in %x: the result is then %x's elements laid out along those
dimensions, repeated along the others. A scalar %x is broadcast to the result directly.

The same reads, when the vectorizer left the broadcast in the transfer_read's permutation
map (a matmul tile with a fused epilogue: `(d0, d1) -> (d0, 0, d1)` for A, `(0, d1, d0)`
for B, `(0, d0)` for a bias row), were unrolled by convert-vector-to-scf element by element
(168 extract/insert pairs for a 64x256x512 MLP layer): they are split into a read of the
elements and a broadcast first. A 2-layer MLP's `llvm` stage 1,656 -> 702 lines, its first
call 58-86 -> 49-80 ms of CPU (alternating processes); the object code of the corpus's 19
blocks and the benchmark table's 10 rows is byte for byte the same as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import vector

from ..transforms.pass_base import Pass, apply_patterns


def _broadcast_source(value: ir.Value):
    """The operand of the vector.broadcast defining `value`, else None."""
    if type(value) is ir.BlockArgument:
        return None
    owner = value.owner
    op = owner.operation if isinstance(owner, (ir.OpView, ir.Operation)) else None
    if op is None or op.name != "vector.broadcast":
        return None
    return op.operands[0]


def _broadcast_operand(op):
    """(x, x's shape ([] for a scalar), the broadcast's shape, op's result type) when op's
    operand is vector.broadcast(x) of a scalar or a vector of rank >= 1, else None."""
    source = _broadcast_source(op.operands[0])
    if source is None:
        return None
    if isinstance(source.type, ir.VectorType):
        source_shape = ir.VectorType(source.type).shape
        if not source_shape:  # a 0-D vector: left to upstream
            return None
    else:
        source_shape = []
    return source, source_shape, ir.VectorType(op.operands[0].type).shape, ir.VectorType(op.results[0].type)


def _replace_with_broadcast(op, rewriter, source, source_shape, shape, result_type):
    """op -> a broadcast to its result type of x reshaped to `shape` (a scalar x as it is)."""
    with rewriter.ip, op.location:
        value = source
        if source_shape and shape != source_shape:
            value = vector.shape_cast(ir.VectorType.get(shape, result_type.element_type), source)
        result = vector.broadcast(result_type, value)
    rewriter.replace_op(op, [result])
    return True


def fold_transposed_broadcast(op, rewriter):
    """transpose(broadcast(x), P) -> broadcast(shape_cast(x)) when P keeps x's dims in order."""
    found = _broadcast_operand(op)
    if found is None:
        return None
    source, source_shape, broadcast_shape, result_type = found
    permutation = list(ir.DenseI64ArrayAttr(op.attributes["permutation"]))
    lead = len(broadcast_shape) - len(source_shape)
    # The broadcast's dims that hold x's own extents (size > 1, so not stretched).
    own = [lead + j for j, n in enumerate(source_shape) if n != 1]
    positions = [permutation.index(d) for d in own]
    if positions != sorted(positions):
        return None
    shape = [n if permutation[i] in own else 1 for i, n in enumerate(result_type.shape)]
    return _replace_with_broadcast(op, rewriter, source, source_shape, shape, result_type)


def _dropped_unit_dims(shape: list[int], target: list[int]) -> list[int] | None:
    """The dims of `shape` that `target` drops, when `target` is `shape` without some of
    its unit dims; else None."""
    dropped, j = [], 0
    for i, n in enumerate(shape):
        if j < len(target) and target[j] == n:
            j += 1
        elif n == 1:
            dropped.append(i)
        else:
            return None
    return dropped if j == len(target) else None


def fold_squeezed_broadcast(op, rewriter):
    """shape_cast(broadcast(y)) dropping unit dims -> broadcast(y without those dims)."""
    found = _broadcast_operand(op)
    if found is None:
        return None
    source, source_shape, broadcast_shape, result_type = found
    dropped = _dropped_unit_dims(broadcast_shape, result_type.shape)
    if not dropped:
        return None
    lead = len(broadcast_shape) - len(source_shape)
    shape = [n for k, n in enumerate(source_shape) if lead + k not in dropped]
    if source_shape and not shape:  # every dim of y dropped: its one element
        return None
    return _replace_with_broadcast(op, rewriter, source, source_shape, shape, result_type)


def split_broadcast_read(op, rewriter):
    """transfer_read with broadcast dims (0 in its permutation map) -> a read of the other
    dims, broadcast, transposed into place (which the patterns above fold):

        %r = vector.transfer_read %m[%i, %k] {permutation_map = (d0, d1) -> (d0, 0, d1)}
               : memref<64x512xf32>, vector<4x8x1xf32>
      ->
        %n = vector.transfer_read %m[%i, %k] {permutation_map = (d0, d1) -> (d0)} : vector<4xf32>
        %c = vector.shape_cast %n : vector<4xf32> to vector<4x1xf32>
        %b = vector.broadcast %c : vector<4x1xf32> to vector<8x4x1xf32>
        %r = vector.transpose %b, [1, 0, 2]

    Only unmasked, in-bounds reads whose dims larger than 1 keep the memref's order; the
    unit dims read one element each and come back as unit dims of the shape_cast."""
    attributes = op.attributes
    result_type = ir.VectorType(op.results[0].type)
    shape = result_type.shape
    permutation = ir.AffineMapAttr(attributes["permutation_map"]).value
    results = list(permutation.results)
    broadcast = [i for i, e in enumerate(results) if isinstance(e, ir.AffineConstantExpr) and e.value == 0]
    if not broadcast or len(broadcast) == len(results):
        return None
    if any(not isinstance(e, ir.AffineDimExpr) for i, e in enumerate(results) if i not in broadcast):
        return None
    segments = list(ir.DenseI32ArrayAttr(attributes["operandSegmentSizes"]))
    if segments[-1] != 0:  # a mask
        return None
    if not all(ir.BoolAttr(b).value for b in ir.ArrayAttr(attributes["in_bounds"])):
        return None
    kept = [i for i in range(len(results)) if i not in broadcast]
    read = [i for i in kept if shape[i] != 1]  # the unit dims read one element: left out
    dims = [results[i].position for i in read]
    if not read or dims != sorted(dims):
        return None
    element = result_type.element_type
    base, indices, padding = op.operands[0], list(op.operands[1:1 + segments[1]]), op.operands[1 + segments[1]]
    read_shape, kept_shape = [shape[i] for i in read], [shape[i] for i in kept]
    with rewriter.ip, op.location:
        value = vector.transfer_read(
            ir.VectorType.get(read_shape, element), base, indices,
            ir.AffineMapAttr.get(ir.AffineMap.get(permutation.n_dims, permutation.n_symbols,
                                                  [results[i] for i in read])),
            padding, ir.ArrayAttr.get([ir.BoolAttr.get(True)] * len(read)))
        if kept_shape != read_shape:
            value = vector.shape_cast(ir.VectorType.get(kept_shape, element), value)
        value = vector.broadcast(ir.VectorType.get([shape[i] for i in broadcast] + kept_shape, element), value)
        # Dim i of the result is broadcast dim broadcast.index(i), or kept dim kept.index(i).
        order = [broadcast.index(i) if i in broadcast else len(broadcast) + kept.index(i) for i in range(len(shape))]
        value = vector.transpose(result_type, value, order)
    rewriter.replace_op(op, [value])
    return True


@dataclass(frozen=True)
class TransposedBroadcasts(Pass):
    """Rewrites vector.transpose of a vector.broadcast as a broadcast where the transpose
    keeps the broadcast value's dimensions in order, and broadcasting vector reads as reads
    and broadcasts.

    Expects: vector ops. Produces: the same with those transposes and broadcasting reads gone.
    """

    name = "mlc-transposed-broadcasts"

    def run(self, module: ir.Operation) -> None:
        # Folding: the shape_cast of a shape_cast the second pattern leaves folds into one.
        apply_patterns(module, {"vector.transfer_read": [split_broadcast_read],
                                "vector.transpose": [fold_transposed_broadcast],
                                "vector.shape_cast": [fold_squeezed_broadcast]}, fold=True)
