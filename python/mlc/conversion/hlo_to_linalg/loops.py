"""scf loop builders for lowerings with no linalg form (scatter, sort): loops that thread
tensors through their iterations, so bufferization can update one buffer in place."""

from __future__ import annotations

from typing import Callable, Sequence

from mlir import ir
from mlir.dialects import arith, scf


def index(value: int) -> ir.Value:
    return arith.constant(ir.IndexType.get(), value)


def along(row: list, dim: int, position) -> list:
    """The index of the element at `position` along `dim` of a row (`row`: the indices of
    the other dims, in order)."""
    return row[:dim] + [position] + row[dim:]


def as_index(value: ir.Value) -> ir.Value:
    return arith.index_cast(ir.IndexType.get(), value)


Carried = Sequence[ir.Value]


def for_range(lower, upper, step, carried: Carried,
              body: Callable[[ir.Value, list[ir.Value]], Sequence[ir.Value]]) -> list[ir.Value]:
    """scf.for lower..upper by step; `body(iv, carried)` returns the next carried values."""
    loop = scf.ForOp(lower, upper, step, list(carried))
    with ir.InsertionPoint(loop.body):
        scf.YieldOp(list(body(loop.induction_variable, list(loop.inner_iter_args))))
    return list(loop.results)


def for_nest(shape, carried: Carried,
             body: Callable[[list[ir.Value], list[ir.Value]], Sequence[ir.Value]]) -> list[ir.Value]:
    """scf.for over every index of `shape` in row-major order, threading `carried`."""
    def build(level: int, indices: list[ir.Value], values: list[ir.Value]) -> list[ir.Value]:
        if level == len(shape):
            return list(body(indices, values))
        return for_range(index(0), index(shape[level]), index(1), values,
                         lambda iv, inner: build(level + 1, indices + [iv], inner))
    return build(0, [], list(carried))


def while_loop(carried: Carried, condition: Callable[[list[ir.Value]], ir.Value],
               body: Callable[[list[ir.Value]], Sequence[ir.Value]]) -> list[ir.Value]:
    """scf.while: repeats `body` while `condition(carried)` holds."""
    types = [v.type for v in carried]
    op = scf.WhileOp(types, list(carried))
    before = op.before.blocks.append(*types)
    with ir.InsertionPoint(before):
        scf.ConditionOp(condition(list(before.arguments)), list(before.arguments))
    after = op.after.blocks.append(*types)
    with ir.InsertionPoint(after):
        scf.YieldOp(list(body(list(after.arguments))))
    return list(op.results)


def if_else(condition: ir.Value, result_types, then_fn: Callable[[], Sequence[ir.Value]],
            else_fn: Callable[[], Sequence[ir.Value]]) -> list[ir.Value]:
    branch = scf.IfOp(condition, list(result_types), has_else=True)
    with ir.InsertionPoint(branch.then_block):
        scf.YieldOp(list(then_fn()))
    with ir.InsertionPoint(branch.else_block):
        scf.YieldOp(list(else_fn()))
    return list(branch.results)
