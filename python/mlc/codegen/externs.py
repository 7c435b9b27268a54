"""Declaring the external functions generated code calls (BLAS, libmvec)."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import func


def declare_external(module: ir.Operation, name: str, function_type: ir.FunctionType) -> None:
    """A private func.func declaration of `name` at the top of the module, once."""
    body = module.regions[0].blocks[0]
    for op in body.operations:
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == name:
            return
    with ir.InsertionPoint.at_block_begin(body), ir.Location.unknown():
        func.FuncOp(name, function_type, visibility="private")
