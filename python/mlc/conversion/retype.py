"""Changing the type of every value of some kind in place: the shared mechanics of the
type-legalizing passes (mlc-bool-to-byte, mlc-signless). `convert(t)` returns the new
type for `t`, or None to leave it."""

from __future__ import annotations

from typing import Callable

from mlir import ir

TypeConversion = Callable[[ir.Type], "ir.Type | None"]


def all_ops(root: ir.Operation) -> list[ir.Operation]:
    ops: list[ir.Operation] = []
    root.walk(lambda op: ops.append(op.operation) or ir.WalkResult.ADVANCE, ir.WalkOrder.PRE_ORDER)
    return ops


def _remembered(convert: TypeConversion) -> TypeConversion:
    """`convert` answering each type once (a module repeats a few types thousands of times)."""
    memo: dict = {}

    def cached(t: ir.Type):
        found = memo.get(t, memo)  # (the dict itself: not asked yet; None is an answer)
        if found is memo:
            found = memo[t] = convert(t)
        return found
    return cached


def retype_values(op: ir.Operation, convert: TypeConversion) -> None:
    """The op's results and its regions' block arguments."""
    results = op.results
    for i, t in enumerate(results.types):  # (the types at once: most stay as they are)
        new = convert(t)
        if new is not None:
            results[i].set_type(new)
    regions = op.regions
    if not len(regions):  # (most ops: scalar arith in kernel bodies)
        return
    for region in regions:
        for block in region.blocks:
            for arg in block.arguments:
                new = convert(arg.type)
                if new is not None:
                    arg.set_type(new)


def retype_function(op: ir.Operation, convert: TypeConversion) -> None:
    """A func.func's signature (its entry block arguments are retyped with its body)."""
    ftype = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
    inputs = [convert(t) or t for t in ftype.inputs]
    results = [convert(t) or t for t in ftype.results]
    op.attributes["function_type"] = ir.TypeAttr.get(ir.FunctionType.get(inputs, results))


def retype_everything(root: ir.Operation, convert: TypeConversion,
                      ops: list[ir.Operation] | None = None) -> list[ir.Operation]:
    """Retypes every value and function signature under `root`; returns the ops walked.
    `ops`: all_ops(root), when the caller walked it already."""
    if ops is None:
        ops = all_ops(root)
    convert = _remembered(convert)
    for op in ops:
        retype_values(op, convert)
        if op.name == "func.func":
            retype_function(op, convert)
    return ops
