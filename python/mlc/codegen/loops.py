"""Building loop nests at the current insertion point (shared by the strategies)."""

from __future__ import annotations

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
