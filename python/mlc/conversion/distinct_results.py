"""Pass `mlc-distinct-results`: a public function returns one fresh tensor per result, so
every result can become its own out-param buffer.

    return %t, %t
  ->
    %c = bufferization.alloc_tensor() copy(%t)
    return %t, %c

Why: buffer-results-to-out-params{hoist-static-allocs} makes the buffer of a returned value
*be* the caller's out-param; one buffer cannot be two out-params, and upstream crashes the
process on `return %alloc, %alloc`. A Python caller also expects two separate arrays, as
numpy and JAX give. Function arguments are left alone: out-params copy them already, and
returning an argument twice copies it twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import bufferization

from ..transforms.pass_base import Pass


@dataclass(frozen=True)
class DistinctResults(Pass):
    """Copies each repeated tensor result of a public function into a fresh tensor.

    Expects: func.func on tensors (before one-shot-bufferize). Produces: the same functions,
    where `return` names no computed tensor value twice.
    """

    name = "mlc-distinct-results"

    def run(self, module: ir.Operation) -> None:
        for op in module.regions[0].blocks[0].operations:
            if op.operation.name != "func.func" or "sym_visibility" in op.attributes:
                continue
            for block in op.regions[0].blocks:
                terminator = block.operations[len(block.operations) - 1]
                if terminator.operation.name == "func.return":
                    _copy_repeats(terminator.operation)


def _copy_repeats(ret: ir.Operation) -> None:
    seen: set = set()
    for i, value in enumerate(ret.operands):
        if not isinstance(value.type, ir.RankedTensorType) or isinstance(value, ir.BlockArgument):
            continue
        if value in seen:
            with ir.InsertionPoint(ret), ret.location:
                ret.operands[i] = bufferization.alloc_tensor(value.type, [], copy=value)
        seen.add(value)
