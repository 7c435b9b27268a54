"""Building loop nests at the current insertion point (shared by the strategies)."""

from __future__ import annotations

import math
from typing import Callable, Sequence

from mlir import ir
from mlir.dialects import arith, scf


def nested_for(ranges: Sequence[tuple[int, int, int]], body: Callable[[tuple, ir.Operation], None],
               ivs: tuple = ()) -> None:
    """One scf.for per (lower, upper, step), outermost first; `body(ivs, terminator)` fills the
    innermost loop (build ops before `terminator`, the innermost scf.yield)."""
    index = ir.IndexType.get()
    lower, upper, step = ranges[0]
    loop = scf.ForOp(arith.constant(index, lower), arith.constant(index, upper), arith.constant(index, step))
    with ir.InsertionPoint(loop.body):
        terminator = scf.YieldOp([])
    with ir.InsertionPoint(terminator):
        if len(ranges) > 1:
            nested_for(ranges[1:], body, ivs + (loop.induction_variable,))
        else:
            body(ivs + (loop.induction_variable,), terminator.operation)


def forall(extents: Sequence[int], body: Callable[[tuple], None]) -> None:
    """scf.forall (%i, %j, ...) in (extents) on buffers (no shared outputs), at the current
    insertion point; `body(ivs)` fills it. mlc-parallel-outline runs its iterations on MLC's
    thread pool (a multi-dimensional forall is split as one linear range)."""
    index = ir.IndexType.get()
    rank = len(extents)
    op = ir.Operation.create(
        "scf.forall", results=[], operands=[],
        attributes={"staticLowerBound": ir.DenseI64ArrayAttr.get([0] * rank),
                    "staticUpperBound": ir.DenseI64ArrayAttr.get(list(extents)),
                    "staticStep": ir.DenseI64ArrayAttr.get([1] * rank),
                    "operandSegmentSizes": ir.DenseI32ArrayAttr.get([0, 0, 0, 0])},
        regions=1)
    block = op.regions[0].blocks.append(*([index] * rank))
    with ir.InsertionPoint(block):
        terminator = ir.Operation.create("scf.forall.in_parallel", regions=1)
        terminator.regions[0].blocks.append()
    with ir.InsertionPoint(terminator):
        body(tuple(block.arguments))


def forall_bounds(forall) -> list[tuple[int, int, int]] | None:
    """(lower, upper, step) per dimension of an scf.forall, or None if any is dynamic."""
    bounds = [list(ir.DenseI64ArrayAttr(forall.attributes[k]))
              for k in ("staticLowerBound", "staticUpperBound", "staticStep")]
    if any(v == ir.ShapedType.get_dynamic_size() for b in bounds for v in b):
        return None
    return list(zip(*bounds))


def for_range(lower: ir.Value, upper: ir.Value, step: int, body: Callable[[ir.Value], None]) -> None:
    """One scf.for from `lower` to `upper` (index values) by a constant `step`; `body(iv)`
    fills it."""
    loop = scf.ForOp(lower, upper, arith.constant(ir.IndexType.get(), step))
    with ir.InsertionPoint(loop.body):
        terminator = scf.YieldOp([])
    with ir.InsertionPoint(terminator):
        body(loop.induction_variable)


def in_parts(parts: int, body: Callable[[object], None]) -> None:
    """`body(i)` for each of `parts` chunks of a kernel's work: an scf.forall over i when
    there are several (the threads share them), `body(None)` inline when there is one."""
    if parts > 1:
        forall([parts], lambda ivs: body(ivs[0]))
    else:
        body(None)


def inside_parallel_loop(op) -> bool:
    """Whether `op` sits in an scf.forall or scf.parallel: a kernel there runs on one thread
    (a task waiting on nested tasks holds its worker; with every worker waiting, the
    program deadlocks)."""
    parent = op.operation.parent
    while parent is not None:
        if parent.name in ("scf.forall", "scf.parallel"):
            return True
        parent = parent.parent
    return False


def constant_int(value: ir.Value) -> int | None:
    """The value of an integer (or index) arith.constant, else None."""
    owner = value.owner
    if isinstance(owner, (ir.Operation, ir.OpView)) and owner.name == "arith.constant":
        attr = owner.attributes["value"]
        if isinstance(attr, ir.IntegerAttr):
            return ir.IntegerAttr(attr).value
    return None


def op_count(op: ir.Operation) -> int:
    """Ops nested in `op`, `op` included (MLIR's walk: no Python object per region or block)."""
    count = [0]

    def visit(_op):
        count[0] += 1
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    return count[0]


def trip_count(loop: ir.Operation) -> int | None:
    """How many times an scf.for, scf.parallel or scf.forall runs its body, when every bound
    and step is static; else None."""
    if loop.name == "scf.forall":
        bounds = [list(ir.DenseI64ArrayAttr(loop.attributes[k]))
                  for k in ("staticLowerBound", "staticUpperBound", "staticStep")]
    elif loop.name in ("scf.for", "scf.parallel"):
        n = 1 if loop.name == "scf.for" else (len(loop.operands) - len(loop.results)) // 3
        bounds = [[constant_int(v) for v in list(loop.operands)[i * n:(i + 1) * n]] for i in range(3)]
    else:
        return None
    trips = 1
    for lower, upper, step in zip(*bounds):
        # (forall's static lists mark a dynamic bound with the most negative int64)
        if not all(isinstance(b, int) and abs(b) < 1 << 62 for b in (lower, upper, step)) or step <= 0:
            return None
        trips *= max(0, -(-(upper - lower) // step))
    return trips


def uses_dim(expr: ir.AffineExpr, dim: int) -> bool:
    """Whether an affine expression depends on loop `dim` (d0 + d1 uses both)."""
    if isinstance(expr, ir.AffineDimExpr):
        return expr.position == dim
    if isinstance(expr, ir.AffineBinaryExpr):
        return uses_dim(expr.lhs, dim) or uses_dim(expr.rhs, dim)
    return False


def delinearize(flat: ir.Value, shape: Sequence[int]) -> list[ir.Value]:
    """The indices of position `flat` in `shape`, row-major (outermost first): [flat] for one
    dimension, else ((b, s) = (flat / S, flat % S))."""
    if len(shape) == 1:
        return [flat]
    index = ir.IndexType.get()
    indices, stride = [], math.prod(shape)
    for size in shape:
        stride //= size
        position = arith.divui(flat, arith.constant(index, stride)) if stride > 1 else flat
        indices.append(arith.remui(position, arith.constant(index, size)) if indices else position)
    return indices


def block_ops(op) -> list:
    """The ops of the block holding `op` (its parent region's block that contains it)."""
    for region in op.parent.regions:
        for block in region.blocks:
            ops = [o.operation for o in block.operations]
            if op in ops:
                return ops
    return []
