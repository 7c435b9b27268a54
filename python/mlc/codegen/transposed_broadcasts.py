"""Pass `mlc-transposed-broadcasts`: a transpose of a broadcast that keeps the order of the
broadcast value's own dimensions becomes a broadcast of that value.

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


def fold_transposed_broadcast(op, rewriter):
    """transpose(broadcast(x), P) -> broadcast(shape_cast(x)) when P keeps x's dims in order."""
    source = _broadcast_source(op.operands[0])
    if source is None:
        return None
    broadcast_shape = ir.VectorType(op.operands[0].type).shape
    result_type = ir.VectorType(op.results[0].type)
    result_shape = result_type.shape
    permutation = list(ir.DenseI64ArrayAttr(op.attributes["permutation"]))
    if isinstance(source.type, ir.VectorType):
        source_shape = ir.VectorType(source.type).shape
        if not source_shape:  # a 0-D vector: left to upstream
            return None
    else:
        source_shape = []
    lead = len(broadcast_shape) - len(source_shape)
    # The broadcast's dims that hold x's own extents (size > 1, so not stretched).
    own = [lead + j for j, n in enumerate(source_shape) if n != 1]
    positions = [permutation.index(d) for d in own]
    if positions != sorted(positions):
        return None
    with rewriter.ip, op.location:
        value = source
        if source_shape:
            shape = [result_shape[i] if permutation[i] in own else 1 for i in range(len(result_shape))]
            if shape != source_shape:
                value = vector.shape_cast(ir.VectorType.get(shape, result_type.element_type), source)
        result = vector.broadcast(result_type, value)
    rewriter.replace_op(op, [result])
    return True


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
    source = _broadcast_source(op.operands[0])
    if source is None:
        return None
    broadcast_shape = ir.VectorType(op.operands[0].type).shape
    result_type = ir.VectorType(op.results[0].type)
    dropped = _dropped_unit_dims(broadcast_shape, result_type.shape)
    if not dropped:
        return None
    with rewriter.ip, op.location:
        value = source
        if isinstance(source.type, ir.VectorType):
            source_shape = ir.VectorType(source.type).shape
            if not source_shape:
                return None
            lead = len(broadcast_shape) - len(source_shape)
            shape = [n for k, n in enumerate(source_shape) if lead + k not in dropped]
            if not shape:  # every dim of y dropped: its one element
                return None
            if shape != source_shape:
                value = vector.shape_cast(ir.VectorType.get(shape, result_type.element_type), source)
        result = vector.broadcast(result_type, value)
    rewriter.replace_op(op, [result])
    return True


@dataclass(frozen=True)
class TransposedBroadcasts(Pass):
    """Rewrites vector.transpose of a vector.broadcast as a broadcast where the transpose
    keeps the broadcast value's dimensions in order.

    Expects: vector ops. Produces: the same with those transposes gone.
    """

    name = "mlc-transposed-broadcasts"

    def run(self, module: ir.Operation) -> None:
        # Folding: the shape_cast of a shape_cast the second pattern leaves folds into one.
        apply_patterns(module, {"vector.transpose": [fold_transposed_broadcast],
                                "vector.shape_cast": [fold_squeezed_broadcast]}, fold=True)
