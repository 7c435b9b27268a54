"""Pass `hlo-grad`: reverse-mode automatic differentiation of hlo functions."""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..autodiff.errors import DifferentiationError
from ..autodiff.functions import build_vjp_function
from .pass_base import Pass, PassError
from .hlo_verify import fail_on_invalid_hlo


def selected_functions(module: ir.Operation, names: str) -> list[ir.Operation]:
    """The public func.func ops with a body, or the ones named in comma-separated `names`."""
    wanted = [n for n in names.split(",") if n]
    found = {}
    for op in module.regions[0].blocks[0].operations:
        op = op.operation
        if op.name != "func.func" or not len(op.regions[0].blocks):
            continue
        name = ir.StringAttr(op.attributes["sym_name"]).value
        private = "sym_visibility" in op.attributes and \
            ir.StringAttr(op.attributes["sym_visibility"]).value == "private"
        if (wanted and name in wanted) or (not wanted and not private):
            found[name] = op
    missing = [n for n in wanted if n not in found]
    if missing:
        raise PassError(f"no function @{missing[0]} with a body in the module")
    return list(found.values())


@dataclass(frozen=True)
class HloGrad(Pass):
    """Adds the VJP of each public function: @f(x...) -> y... gives @f_grad(x..., ct_y...) -> (y..., ct_x for each float x).

    Reverse accumulation over the SSA graph with the rules of `mlc.autodiff` (symbolic
    zeros, fan-out summed); scf.if and static-trip-count scf.while loops included.
    Expects and produces hlo with func/scf/tensor; the forward ops stay, so hlo-optimize
    removes the forward work the gradient does not need (run it before hlo-optimize, which
    drops the identity ops marking stop_gradient). `func` names the functions
    (comma-separated) instead of every public one.
    """

    name = "hlo-grad"
    func: str = ""

    def run(self, module: ir.Operation) -> None:
        fail_on_invalid_hlo(module)
        for fn in selected_functions(module, self.func):
            try:
                build_vjp_function(fn)
            except DifferentiationError as e:
                raise PassError(e.message, e.location) from None
