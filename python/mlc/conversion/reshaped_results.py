"""Pass `mlc-reshaped-results`: a result that is a reshape of a buffer the function
allocates is computed in the caller's out-param through the inverse reshape, not in the
buffer and then copied.

    %a = memref.alloc() : memref<1000x2x777xf32>
    ... writes %a ...
    %r = memref.collapse_shape %a [[0, 1], [2]] : ... into memref<2000x777xf32>
    memref.copy %r, %out
  ->
    %a = memref.expand_shape %out [[0, 1], [2]] output_shape [1000, 2, 777]
    ... writes %a ...

Why: buffer-results-to-out-params{hoist-static-allocs} makes a returned buffer *be* the
out-param only when the function returns the alloc itself; a returned reshape of it (numpy's
repeat, a flatten, attention's merged heads) was computed aside and copied: `repeat(x, 2,
axis=0)` on (1000, 777) f32 moved its 6 MB twice (0.33 ms, numpy 0.17). Both reshapes of a
contiguous buffer are views, so the alloc's every use reads and writes the out-param's
memory in the same layout.

Only where it is safe: the copy's target is an argument of the function (an out-param),
the source a collapse_shape or expand_shape (or a chain of them: (7, 30) -> (5, 42) is a
collapse then an expand) of a statically shaped, identity-layout memref.alloc in the
function's entry block, and the copy is the alloc's last use in that
block (nothing reads the buffer after the out-param has it).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import memref

from ..transforms.pass_base import Pass

_RESHAPES = ("memref.collapse_shape", "memref.expand_shape")


@dataclass(frozen=True)
class ReshapedResults(Pass):
    """Computes reshaped results in their out-params (see the module docstring).

    Expects: bufferized functions after buffer-results-to-out-params. Produces: the same
    functions, with such allocs replaced by views of the out-param and the copies gone.
    """

    name = "mlc-reshaped-results"

    def run(self, module: ir.Operation) -> None:
        for op in module.regions[0].blocks[0].operations:
            if op.operation.name != "func.func" or not op.regions[0].blocks:
                continue
            block = op.regions[0].blocks[0]
            for copy in [o.operation for o in block.operations if o.operation.name == "memref.copy"]:
                _forward(block, copy)


def _forward(block: ir.Block, copy: ir.Operation) -> None:
    source, target = copy.operands[0], copy.operands[1]
    if not (isinstance(target, ir.BlockArgument) and target.owner == block):
        return
    chain, value = [], source  # the reshapes from the copy back to the buffer, last applied first
    while not isinstance(value, ir.BlockArgument) and value.owner.name in _RESHAPES:
        chain.append(value.owner)
        value = value.owner.operands[0]
    if not chain or isinstance(value, ir.BlockArgument) or value.owner.name != "memref.alloc":
        return
    alloc, buffer = value.owner, value
    buffer_type = ir.MemRefType(buffer.type)
    if not buffer_type.has_static_shape or not _identity_layout(buffer_type) or len(alloc.operands):
        return
    if not _identity_layout(ir.MemRefType(target.type)):
        return
    if alloc.parent.operation != copy.parent.operation or \
            not _last_use([buffer] + [r.result for r in chain], copy, block):
        return
    view = target
    with ir.InsertionPoint(alloc), alloc.location:
        for reshape in chain:  # undo the last reshape first
            before = ir.MemRefType(reshape.operands[0].type)
            reassociation = reshape.attributes["reassociation"]
            if reshape.name == "memref.collapse_shape":
                view = memref.ExpandShapeOp(before, view, reassociation, [], before.shape).result
            else:
                view = memref.CollapseShapeOp(before, view, reassociation).result
    copy.erase()
    for reshape in chain:
        if not list(reshape.result.uses):
            reshape.erase()
    buffer.replace_all_uses_with(view)
    alloc.erase()


def _identity_layout(t: ir.MemRefType) -> bool:
    """Contiguous row-major (no strides or offset of its own)."""
    layout = t.layout
    return isinstance(layout, ir.AffineMapAttr) and layout.value == ir.AffineMap.get_identity(t.rank)


def _last_use(values: list[ir.Value], copy: ir.Operation, block: ir.Block) -> bool:
    """No op of `block` after `copy` uses the buffer or a reshape of it (a nested use counts
    at the top-level op that holds it)."""
    function = block.owner.operation
    users = []
    for value in values:
        for use in value.uses:
            owner = use.owner.operation
            while owner.parent is not None and owner.parent.operation != function:
                owner = owner.parent.operation
            users.append(owner)
    after = False
    for op in block.operations:
        if after and any(op.operation == u for u in users):
            return False
        if op.operation == copy:
            after = True
    return True
