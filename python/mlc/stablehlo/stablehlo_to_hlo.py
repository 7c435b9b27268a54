"""Where the rest of MLC meets the importer: text that holds StableHLO becomes hlo text
before parsing (mlc.compile, mlc-opt, mlc-run), and the `stablehlo-to-hlo` pass."""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..transforms.pass_base import Pass, PassError
from .errors import StableHloError
from .importer import is_stablehlo, to_hlo


def hlo_text(text: str, source_name: str = "<input>") -> str:
    """`text` unchanged if it holds no StableHLO, else the imported hlo module's text."""
    return to_hlo(text, source_name) if is_stablehlo(text) else text


@dataclass(frozen=True)
class StablehloToHlo(Pass):
    """Converts StableHLO/CHLO ops (generic form) to hlo, inlining private functions.

    mlc-opt, mlc-run and mlc.compile import StableHLO text (either form) when they parse it,
    so there this pass finds nothing left to do; it converts modules parsed with
    unregistered dialects allowed."""

    name = "stablehlo-to-hlo"

    def run(self, module: ir.Operation) -> None:
        from .convert import convert_module
        body = module.regions[0].blocks[0]
        if not any(_has_stablehlo(op.operation) for op in body.operations):
            return
        try:
            new = convert_module(module)
        except StableHloError as e:
            raise PassError(str(e)) from None
        for op in list(body.operations):
            op.operation.erase()
        for op in new.body.operations:
            op.operation.clone(ip=ir.InsertionPoint(body))


def _has_stablehlo(op: ir.Operation) -> bool:
    if op.name.startswith(("stablehlo.", "chlo.")):
        return True
    return any(_has_stablehlo(inner.operation) for region in op.regions
               for block in region.blocks for inner in block.operations)
