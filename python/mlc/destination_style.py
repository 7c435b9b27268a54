"""Destination-passing style: a structured (linalg) op reads its inputs and writes into its
inits, the operands after them; on tensors result i is what init i becomes. How many of
each an op has is its `operandSegmentSizes`, read here only."""

from __future__ import annotations

from mlir import ir


def segment_sizes(op: ir.Operation) -> tuple[int, int] | None:
    """(number of inputs, number of inits) of a destination-passing op, None for an op
    without that split (its operands are not cut into inputs and inits)."""
    if "operandSegmentSizes" not in op.attributes:
        return None
    sizes = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
    return (sizes[0], sizes[1]) if len(sizes) == 2 else None


def num_inputs(op: ir.Operation) -> int:
    """How many inputs a destination-passing op has (0 for any other op)."""
    sizes = segment_sizes(op)
    return sizes[0] if sizes else 0


def inits(op: ir.Operation) -> list[ir.Value]:
    """The operands a destination-passing op writes into (empty for any other op)."""
    sizes = segment_sizes(op)
    return list(op.operands)[sizes[0]:sizes[0] + sizes[1]] if sizes else []
