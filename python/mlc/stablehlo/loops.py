"""Counted loops for decompositions that need one: `for i in range(n)` as an scf.while over
tensors (MLC's control-flow encoding, design.md), the counter a 0-d i32 tensor."""

from __future__ import annotations

from typing import Callable, Sequence

import numpy as np
from mlir import ir
from mlir.dialects import scf, tensor

from ..dialects import hlo


def i32(value: int) -> ir.Value:
    return hlo.constant(np.int32(value))


def fori_loop(n: int, carried: Sequence[ir.Value],
              body: Callable[[ir.Value, list[ir.Value]], list[ir.Value]]) -> list[ir.Value]:
    """carried after `for i in range(n): carried = body(i, carried)`; i is a tensor<i32>."""
    start = i32(0)
    types = [start.type] + [v.type for v in carried]
    loop = scf.WhileOp(types, [start] + list(carried))
    before = loop.before.blocks.append(*types)
    with ir.InsertionPoint(before):
        go = hlo.compare(before.arguments[0], i32(n), "LT", "SIGNED")
        scf.ConditionOp(tensor.extract(go, []), list(before.arguments))
    after = loop.after.blocks.append(*types)
    with ir.InsertionPoint(after):
        i = after.arguments[0]
        new = body(i, list(after.arguments)[1:])
        scf.YieldOp([hlo.add(i, i32(1))] + list(new))
    return list(loop.results)[1:]
