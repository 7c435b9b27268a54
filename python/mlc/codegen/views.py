"""Memref view chains: the buffer a chain of views (subview, reshape, cast) starts from.

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
