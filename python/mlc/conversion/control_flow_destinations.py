"""Pass `mlc-control-flow-destinations`: a value that control flow carries is computed into
the buffer that carries it, not into a tensor.empty of its own. Two rules, on tensors:

    scf.if (and scf.index_switch): every branch computes result i into one destination
    made before it

    %r = scf.if %c -> tensor<T> {              %d = tensor.empty() : tensor<T>
      %e = tensor.empty() : tensor<T>          %r = scf.if %c -> tensor<T> {
      %a = linalg.generic outs(%e)       ->      %a = linalg.generic outs(%d)
      scf.yield %a                               scf.yield %a
    } else { ... outs(%e2) ... }               } else { ... outs(%d) ... }

    scf.for / scf.while: the body computes carried value i into the body's own argument i

    scf.for ... iter_args(%v = %init) {        scf.for ... iter_args(%v = %init) {
      %e = tensor.empty() : tensor<T>    ->      %a = linalg.generic ins(%v) outs(%v)
      %a = linalg.generic ins(%v) outs(%e)       scf.yield %a
      scf.yield %a

The destination is found through any chain of destination-passing ops (a fill, then the
generic that accumulates into it) and through inner ifs already given one (lax.switch is a
tree of conds: every leaf ends up writing the outermost if's destination); the empty must
have no other use. Why: one-shot-bufferize gives each branch's (or each iteration's) empty
a fresh buffer, and the if's result or the loop's carried value a buffer the new value is
copied into: lax.cond returning 10^6 floats allocated 4 MB (page faults on first touch)
and copied them per call (0.84 -> 0.55 ms, the same as the kernel alone; a 4-way
lax.switch 1.15 -> 1.00 ms); a fori_loop over them allocated and copied per iteration (3
steps: 2.64 -> 2.13 ms, unrolled 2.06). With the shared destination the branches, which
never both run, write in place, and a returned result becomes the caller's out-param. In a
loop, writing the new value over the old one is in place when the body reads the old value
only at the element it writes (an elementwise step); otherwise one-shot-bufferize's
analysis sees the conflict and copies, as before.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import tensor

from .. import destination_style
from ..transforms.pass_base import Pass


def _tied_init(op: ir.Operation, result_number: int) -> ir.Value | None:
    """The destination operand a destination-passing op writes result `result_number` into."""
    if op.name.startswith("linalg.") and destination_style.segment_sizes(op):
        return destination_style.inits(op)[result_number]
    if op.name == "tensor.insert_slice":
        return op.operands[1]
    return None


def _inside(op: ir.Operation, ancestor: ir.Operation) -> bool:
    while op is not None:
        if op == ancestor:
            return True
        op = op.parent
    return False


def _root_empty(value: ir.Value, block: ir.Block, shared: dict) -> ir.Operation | None:
    """The tensor.empty of `block` that `value` was computed into, through its chain of
    destinations (and through an inner scf.if whose branches share one, `shared`), when
    nothing else uses that empty."""
    while isinstance(value, ir.OpResult):
        op = value.owner.operation
        if op.block != block:  # computed outside the block
            return None
        if op.name == "tensor.empty":
            uses = list(value.uses)
            return op if len(uses) == 1 and not op.operands else None
        if value in shared:  # an inner if computing this result into a shared empty
            empty = shared[value]
            inner = all(_inside(use.owner.operation, op) for use in empty.result.uses)
            return empty if empty.block == block and inner else None
        value = _tied_init(op, value.result_number)
        if value is None:
            return None
    return None


def _replace_empty(empty: ir.Operation, value: ir.Value, shared: dict) -> None:
    """Computes what was computed into `empty` into `value` instead; `empty` goes."""
    empty.result.replace_all_uses_with(value)
    for key in [k for k, e in shared.items() if e == empty]:
        del shared[key]  # (an inner if's destination, taken over)
    empty.erase()


def _terminator(block: ir.Block) -> ir.Operation:
    return block.operations[len(block.operations) - 1].operation


def _is_static_tensor(t: ir.Type) -> bool:
    return isinstance(t, ir.RankedTensorType) and ir.RankedTensorType(t).has_static_shape


def _share_branch_destinations(if_op: ir.Operation, shared: dict) -> None:
    """(scf.if, and scf.index_switch: its default and cases are the branches.)"""
    if not all(len(region.blocks) for region in if_op.regions):
        return  # (an if without else yields nothing)
    blocks = [region.blocks[0] for region in if_op.regions]
    yields = [_terminator(block) for block in blocks]
    taken: set = set()
    for i, result in enumerate(if_op.results):
        t = result.type
        if not _is_static_tensor(t):
            continue
        roots = [_root_empty(y.operands[i], block, shared) for y, block in zip(yields, blocks)]
        if any(r is None or r.result.type != t or r in taken for r in roots):
            continue
        taken.update(roots)
        with ir.InsertionPoint(if_op), if_op.location:
            destination = tensor.EmptyOp(ir.RankedTensorType(t).shape, ir.RankedTensorType(t).element_type)
        for root in roots:
            _replace_empty(root, destination.result, shared)
        shared[result] = destination.operation


def _carried_arguments(loop: ir.Operation) -> tuple[ir.Block, list[ir.Value]] | None:
    """(the body block, the body's argument carrying each value it yields), for scf.for and
    for an scf.while whose condition forwards the before block's arguments unchanged."""
    if loop.name == "scf.for":
        body = loop.regions[0].blocks[0]
        return body, list(body.arguments)[1:]  # (after the induction variable)
    if loop.name == "scf.while":
        before, after = loop.regions[0].blocks[0], loop.regions[1].blocks[0]
        forwarded = list(_terminator(before).operands)[1:]
        if forwarded != list(before.arguments) or len(after.arguments) != len(forwarded):
            return None
        return after, list(after.arguments)
    return None


def _update_carried_in_place(loop: ir.Operation, shared: dict) -> None:
    found = _carried_arguments(loop)
    if found is None:
        return
    body, carried = found
    yielded = list(_terminator(body).operands)
    if len(yielded) != len(carried):
        return
    taken: set = set()
    for value, argument in zip(yielded, carried):
        if not _is_static_tensor(argument.type):
            continue
        root = _root_empty(value, body, shared)
        if root is None or root.result.type != argument.type or root in taken:
            continue
        taken.add(root)
        _replace_empty(root, argument, shared)


_RULES = {"scf.if": _share_branch_destinations, "scf.index_switch": _share_branch_destinations,
          "scf.for": _update_carried_in_place, "scf.while": _update_carried_in_place}


@dataclass(frozen=True)
class ControlFlowDestinations(Pass):
    """Computes what scf.if, scf.index_switch, scf.for and scf.while carry into the buffers
    that carry it (see the module docstring).

    Expects: tensors (before one-shot-bufferize). Produces: the same IR, branch-local
    tensor.empty pairs replaced by one before the if, a loop body's tensor.empty replaced by
    the body argument carrying the value it computes.
    """

    name = "mlc-control-flow-destinations"

    def run(self, module: ir.Operation) -> None:
        found = []

        def visit(op):
            if op.name in _RULES:
                found.append(op)
            return ir.WalkResult.ADVANCE

        module.walk(visit, ir.WalkOrder.POST_ORDER)  # inner control flow first
        shared: dict = {}  # if/switch result -> the tensor.empty its branches compute it into
        for op in found:
            _RULES[op.name](op, shared)
