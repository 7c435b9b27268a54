"""Helpers for ops with regions: copying a block's ops, and the values a region uses from
outside (its free variables)."""

from __future__ import annotations

from typing import Callable

from mlir import ir


def block_ops(block: ir.Block) -> tuple[list[ir.Operation], ir.Operation]:
    """(the ops of `block` before its terminator, the terminator)."""
    ops = [op.operation for op in block.operations]
    return ops[:-1], ops[-1]


def _remap_operands(op: ir.Operation, mapping: dict) -> None:
    for i, v in enumerate(op.operands):
        if v in mapping:
            op.operands[i] = mapping[v]
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                _remap_operands(inner.operation, mapping)


def clone_ops(ops, mapping: dict) -> list[ir.Operation]:
    """Copies `ops` at the current insertion point, reading `mapping[v]` wherever they read
    a mapped value v (nested regions too); adds each result's copy to `mapping`."""
    ip = ir.InsertionPoint.current
    copies = []
    for op in ops:
        new = op.clone(ip)
        _remap_operands(new, mapping)
        for old, fresh in zip(op.results, new.results):
            mapping[old] = fresh
        copies.append(new)
    return copies


def free_values(regions) -> list[ir.Value]:
    """The values ops in `regions` use that are defined outside them, in first-use order."""
    defined, free, seen = set(), [], set()

    def visit_region(region):
        for block in region.blocks:
            defined.update(block.arguments)
            for op in block.operations:
                op = op.operation
                for v in op.operands:
                    if v not in defined and v not in seen:
                        seen.add(v)
                        free.append(v)
                for inner in op.regions:
                    visit_region(inner)
                defined.update(op.results)

    for region in regions:
        visit_region(region)
    return [v for v in free if v not in defined]


def composed(outer: Callable, mapping: dict) -> Callable:
    """A remap that applies `outer`, then `mapping` (a copy of a copy)."""
    def remap(v):
        v = outer(v)
        return mapping.get(v, v)
    return remap
