"""scf loop builders for lowerings with no linalg form (scatter, sort, scans): loops that
thread tensors through their iterations, so bufferization can update one buffer in place;
`each_row` runs a row's loop for every row, on the thread pool when the work is worth it."""

from __future__ import annotations

import math
from typing import Callable, Sequence

from mlir import ir
from mlir.dialects import arith, scf

from ...codegen.parallel import worth_work
from .slicing import extract_slice, parallel_insert_slice


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


def forall_slices(extents: list[int], fresh: list[ir.Value], offsets, sizes: list[int], body,
                  slice_shape: list[int] | None = None) -> list[ir.Value]:
    """An scf.forall over `extents` (mlc-parallel-outline runs it on the thread pool) whose
    iteration ivs fills its own slice of each fresh tensor, at offsets(ivs) with `sizes`
    (typed `slice_shape` when given: `sizes` without unit dims): body(ivs, slices) returns
    the filled slices, inserted back in parallel."""
    shape = sizes if slice_shape is None else slice_shape
    loop = scf.ForallOp([0] * len(extents), extents, [1] * len(extents), shared_outs=fresh)
    with ir.InsertionPoint(loop.body):
        ivs, outs = list(loop.induction_variables), list(loop.inner_iter_args)
        at = offsets(ivs)
        slices = [extract_slice(o, ir.RankedTensorType.get(shape, ir.RankedTensorType(o.type).element_type), at,
                                sizes=sizes) for o in outs]
        filled = body(ivs, slices)
        terminator = loop.terminator()
    with ir.InsertionPoint(terminator.region.blocks[0]):
        for f, o in zip(filled, outs):
            parallel_insert_slice(f, o, at, sizes)
    return list(loop.results)


def _rows_in_parallel(rows: list[int], dim: int, n: int, fresh: list[ir.Value], body) -> list[ir.Value]:
    """Every row as an iteration of an scf.forall: body(row, slices, write_row) fills the
    row's own slices of the fresh tensors (write_row: where the row is in them)."""
    return forall_slices(rows, fresh, lambda ivs: along(ivs, dim, 0), along([1] * len(rows), dim, n),
                         lambda ivs, slices: body(ivs, slices, write_row=[index(0)] * len(ivs)))


def each_row(shape: list[int], dim: int, length: int, fresh: list[ir.Value], work: int, body) -> list[ir.Value]:
    """The `fresh` tensors filled row by row (rows along `dim` of `shape`, `length` long in
    them) by body(row, outs, write_row), each row `work` simple ops; the rows in parallel
    when their work passes the thread rule."""
    rows = [s for d, s in enumerate(shape) if d != dim]
    if math.prod(rows) > 1 and worth_work(math.prod(rows) * work):
        return _rows_in_parallel(rows, dim, length, fresh, body)
    return for_nest(rows, fresh, body)
