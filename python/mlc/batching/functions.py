"""Batched *functions* of func.func ops: what the hlo-vmap pass builds.

    @f(x_1..x_n) -> (y_1..y_m)
    hlo-vmap{batch-size=B in-axes=a_1,..,a_n}:
    @f_vmap(x_i with a dim of size B inserted at a_i, or x_i itself for a_i = none)
        -> (y_j with the batch dim first)

The new function's body is f's, batched by `Batcher` (its unbatched ops copied).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import func

from .errors import BatchingError
from .registry import Arg
from .values import materialize, move_dim
from .walker import Batcher


def parse_axes(text: str, count: int) -> list[int | None]:
    """'0,none,1' -> [0, None, 1]; '' -> all 0; a single entry applies to every argument."""
    entries = [e.strip() for e in text.split(",") if e.strip()] or ["0"]
    if len(entries) == 1:
        entries = entries * count
    if len(entries) != count:
        raise BatchingError(f"in-axes has {len(entries)} entries for {count} arguments")
    return [None if e.lower() == "none" else int(e) for e in entries]


def build_vmap_function(fn: ir.Operation, size: int, in_axes: list[int | None],
                        suffix: str = "_vmap") -> ir.Operation:
    """Adds @<name><suffix>, the batched `fn`, after it (see the module docstring)."""
    name = ir.StringAttr(fn.attributes["sym_name"]).value
    old = fn.regions[0].blocks[0]
    terminator = list(old.operations)[-1].operation
    arg_types = []
    for a, axis in zip(old.arguments, in_axes):
        t = ir.RankedTensorType(a.type)
        if axis is None:
            arg_types.append(t)
            continue
        if not -t.rank - 1 <= axis <= t.rank:
            raise BatchingError(f"in-axes entry {axis} is out of range for an argument of rank {t.rank}",
                                fn.location)
        s = list(t.shape)
        s.insert(axis % (t.rank + 1), size)
        arg_types.append(ir.RankedTensorType.get(s, t.element_type))
    result_types = []
    with ir.InsertionPoint(fn), fn.location:
        new = func.FuncOp(name + suffix, (arg_types, []))
    new.operation.move_after(fn)
    block = new.add_entry_block()
    walker = Batcher(size, clone=True)
    with ir.InsertionPoint(block), terminator.location:
        for old_arg, arg, axis in zip(old.arguments, block.arguments, in_axes):
            if axis is None:
                walker.set(old_arg, arg, False)
            else:
                rank = ir.RankedTensorType(arg.type).rank
                walker.set(old_arg, move_dim(arg, axis % rank, 0), True)
        walker.run([op.operation for op in old.operations][:-1])
        outs = [materialize(walker.get(v), size) for v in terminator.operands]
        result_types = [v.type for v in outs]
        func.ReturnOp(outs)
    new.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(arg_types, result_types))
    if "sym_visibility" in fn.attributes:
        new.attributes["sym_visibility"] = fn.attributes["sym_visibility"]
    return new.operation
