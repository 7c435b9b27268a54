"""What a StableHLO region computes, when it is one of the shapes hlo encodes without a region.

hlo ops cannot hold regions (IRDL has no terminators, design.md), so reduce, reduce_window
and scatter carry their combiner as a `kind`, sort a direction, and JAX's argmax/argmin
reducer becomes hlo.argmax/argmin. Anything else is reported, not guessed."""

from __future__ import annotations

from mlir import ir

from .attributes import enum_value, get

# The binary ops a combiner may be, as hlo's `kind`.
COMBINER_KINDS = {"stablehlo.add": "add", "stablehlo.multiply": "mul", "stablehlo.maximum": "max",
                  "stablehlo.minimum": "min", "stablehlo.and": "and", "stablehlo.or": "or",
                  "stablehlo.xor": "xor"}


def _body(region: ir.Region) -> tuple[ir.Block, list[ir.Operation]]:
    block = region.blocks[0]
    return block, [op.operation for op in block.operations]


def _is_arg(value: ir.Value, block: ir.Block, index: int) -> bool:
    return isinstance(value.owner, ir.Block) and value.owner == block and \
        ir.BlockArgument(value).arg_number == index


def combiner_kind(region: ir.Region, allow_set: bool = False) -> str | None:
    """`add` for `^bb0(%a, %b): %c = add %a, %b; return %c` (either operand order);
    with allow_set, `set` for a body that returns its second argument (scatter's overwrite)."""
    block, ops = _body(region)
    if len(block.arguments) != 2:
        return None
    ret = ops[-1]
    if allow_set and len(ops) == 1 and len(ret.operands) == 1 and _is_arg(ret.operands[0], block, 1):
        return "set"
    if len(ops) != 2 or len(ret.operands) != 1:
        return None
    body = ops[0]
    kind = COMBINER_KINDS.get(body.name)
    if kind is None or ret.operands[0] != body.results[0]:
        return None
    args = {ir.BlockArgument(v).arg_number for v in body.operands
            if isinstance(v.owner, ir.Block) and v.owner == block}
    return kind if args == {0, 1} and len(body.operands) == 2 else None


def _depends_on(value: ir.Value, block: ir.Block, index: int, depth: int = 0) -> bool:
    if _is_arg(value, block, index):
        return True
    owner = value.owner
    if isinstance(owner, ir.Block) or depth > 20:
        return False
    return any(_depends_on(v, block, index, depth + 1) for v in owner.operands)


def arg_reduce_kind(region: ir.Region) -> str | None:
    """`argmax`/`argmin` for JAX's (value, index) reducer: its value compare is GT (LT) of
    the two values (args 0 and 2, in (v0, i0, v1, i1) order)."""
    block, ops = _body(region)
    if len(block.arguments) != 4:
        return None
    for op in ops:
        if op.name == "stablehlo.compare" and len(op.operands) == 2 and \
                _is_arg(op.operands[0], block, 0) and _is_arg(op.operands[1], block, 2):
            direction = enum_value(get(op, "comparison_direction"))
            return {"GT": "argmax", "GE": "argmax", "LT": "argmin", "LE": "argmin"}.get(direction)
    return None


def sort_descending(region: ir.Region) -> bool | None:
    """False (ascending) for a comparator returning `lhs LT rhs` of the first operand pair
    (through JAX's NaN/-0.0 canonicalizing selects), True for GT; None if not that shape."""
    block, ops = _body(region)
    ret = ops[-1]
    if len(ret.operands) != 1:
        return None
    cmp = ret.operands[0].owner
    if isinstance(cmp, ir.Block) or cmp.name != "stablehlo.compare":
        return None
    direction = enum_value(get(cmp, "comparison_direction"))
    lhs, rhs = cmp.operands
    if _depends_on(lhs, block, 0) and _depends_on(rhs, block, 1):
        flipped = False
    elif _depends_on(lhs, block, 1) and _depends_on(rhs, block, 0):
        flipped = True
    else:
        return None
    if direction not in ("LT", "GT"):
        return None
    return (direction == "GT") != flipped
