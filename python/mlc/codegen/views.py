"""Memref view chains: the buffer a chain of views (subview, reshape, cast) starts from; and
the reassociation attribute every reshape (expand_shape, collapse_shape) takes.

Passes that ask whether two memrefs may be the same memory (was this buffer written in the
group, is this the fill of that output) compare the buffers their views start from.
"""

from __future__ import annotations

from mlir import ir

# Every view op the codegen passes meet; a caller may follow fewer.
ALL_VIEWS = frozenset({"memref.subview", "memref.expand_shape", "memref.collapse_shape", "memref.cast",
                       "memref.reinterpret_cast"})


def view_chain(value: ir.Value, views=ALL_VIEWS) -> tuple[list[ir.Operation], ir.Value]:
    """(the `views` ops of the chain ending in `value`, from `value` back, and the value the
    chain starts from: `value` itself when it is not made by one)."""
    chain = []
    while True:
        owner = value.owner
        if not isinstance(owner, (ir.OpView, ir.Operation)) or owner.operation.name not in views:
            return chain, value
        chain.append(owner.operation)
        value = owner.operation.operands[0]


def view_root(value: ir.Value, views=ALL_VIEWS) -> ir.Value:
    """The value a chain of `views` ops ending in `value` starts from (`value` itself when it
    is not made by one)."""
    return view_chain(value, views)[1]


def reassociation(groups) -> ir.ArrayAttr:
    """The reassociation of a tensor or memref reshape: `groups` lists, for each dim of the
    collapsed shape, the dims of the expanded shape it joins ([[0], [1, 2]])."""
    i64 = ir.IntegerType.get_signless(64)
    return ir.ArrayAttr.get([ir.ArrayAttr.get([ir.IntegerAttr.get(i64, d) for d in g]) for g in groups])


def trailing_groups(keep: int, rank: int) -> list[list[int]]:
    """Dims 0 .. keep-1 alone, dims keep .. rank-1 joined: [[0], ..., [keep-1], [keep, ..., rank-1]]."""
    return [[d] for d in range(keep)] + [list(range(keep, rank))]
