"""Which StableHLO types MLC imports: statically shaped tensors of MLC's element types."""

from __future__ import annotations

from mlir import ir

from ..dtypes import MLIR_TO_NUMPY

# Types outside MLC's scope, by the spelling that gives them away, and why.
_REJECTED = (("?", "dynamic shapes (`?`) are not supported"),
             ("complex", "complex element types are not supported"),
             ("!quant", "quantized element types are not supported"),
             ("token", "tokens (side effects, infeed/outfeed) are not supported"),
             ("f8", "f8 element types are not supported"))


def check_type(t: ir.Type, op, converter, what: str | None = None) -> None:
    if isinstance(t, ir.TupleType):  # flattened (tuples.py): its elements must be importable
        for i in range(ir.TupleType(t).num_types):
            check_type(ir.TupleType(t).get_type(i), op, converter, what)
        return
    text = str(t)
    where = what or f"'{op.name}'"
    for needle, why in _REJECTED:
        if needle in text:
            raise converter.error(op, f"{where}: type {text}: {why}")
    if isinstance(t, ir.RankedTensorType):
        element = str(t.element_type)
        if element not in MLIR_TO_NUMPY and element not in ("bf16", "index"):
            raise converter.error(op, f"{where}: element type {element} is not supported")
        return
    if isinstance(t, ir.IntegerType) or isinstance(t, ir.IndexType) or \
            isinstance(t, (ir.F16Type, ir.F32Type, ir.F64Type)):
        return  # scalars of scf/tensor ops (unlikely in StableHLO, harmless)
    raise converter.error(op, f"{where}: type {text} is not supported (only ranked tensors)")
