"""Pass `mlc-readonly-arguments`: marks public functions' tensor arguments read-only for
bufferization, so compiled code never writes into a caller's (numpy) input buffers."""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..transforms.pass_base import Pass

_WRITABLE = "bufferization.writable"


@dataclass(frozen=True)
class ReadonlyArguments(Pass):
    """Sets `bufferization.writable = false` on every tensor argument of public functions.

    Expects: func.func on tensors. Produces: the same IR with argument attributes; one-shot
    bufferization then copies an argument before any in-place write instead of clobbering it.
    """

    name = "mlc-readonly-arguments"

    def run(self, module: ir.Operation) -> None:
        for op in module.regions[0].blocks[0].operations:
            if op.operation.name != "func.func" or "sym_visibility" in op.attributes or not op.regions[0].blocks:
                continue
            arg_types = op.regions[0].blocks[0].arguments.types
            old = list(op.attributes["arg_attrs"]) if "arg_attrs" in op.attributes else \
                [ir.DictAttr.get({})] * len(arg_types)
            new = []
            for t, attrs in zip(arg_types, old):
                entries = {a.name: a.attr for a in ir.DictAttr(attrs)}
                if isinstance(t, ir.RankedTensorType):
                    entries[_WRITABLE] = ir.BoolAttr.get(False)
                new.append(ir.DictAttr.get(entries))
            op.attributes["arg_attrs"] = ir.ArrayAttr.get(new)
