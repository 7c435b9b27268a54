"""StableHLO's while / if / case as scf.while / scf.if / scf.index_switch over tensors
(MLC's encoding of control flow, design.md); `tensor.extract` makes the i1/index scalar."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, scf, tensor

from .registry import rule


def _scalar(value: ir.Value) -> ir.Value:
    return tensor.extract(value, [])


@rule("stablehlo.while")
def while_(cv, op):
    types = [r.type for r in op.results]
    loop = scf.WhileOp(types, cv.operands(op))
    before = loop.before.blocks.append(*types)
    with ir.InsertionPoint(before):
        (pred,) = cv.inline_region(op.regions[0], list(before.arguments))
        scf.ConditionOp(_scalar(pred), list(before.arguments))
    after = loop.after.blocks.append(*types)
    with ir.InsertionPoint(after):
        scf.YieldOp(cv.inline_region(op.regions[1], list(after.arguments)))
    return list(loop.results)


@rule("stablehlo.if")
def if_(cv, op):
    types = [r.type for r in op.results]
    branch = scf.IfOp(_scalar(cv.value(op.operands[0])), types, has_else=True)
    for block, region in ((branch.then_block, op.regions[0]), (branch.else_block, op.regions[1])):
        with ir.InsertionPoint(block):
            scf.YieldOp(cv.inline_region(region, []))
    return list(branch.results)


@rule("stablehlo.case")
def case(cv, op):
    # StableHLO: an index outside [0, n) runs the last branch: scf's default region.
    types = [r.type for r in op.results]
    n = len(op.regions)
    index = arith.index_cast(ir.IndexType.get(), _scalar(cv.value(op.operands[0])))
    switch = scf.IndexSwitchOp(types, index, list(range(n - 1)))
    blocks = [switch.default_block] + [switch.case_block(i) for i in range(n - 1)]
    sources = [op.regions[n - 1]] + [op.regions[i] for i in range(n - 1)]
    for block, source in zip(blocks, sources):
        with ir.InsertionPoint(block):
            scf.YieldOp(cv.inline_region(source, []))
    return list(switch.results)
