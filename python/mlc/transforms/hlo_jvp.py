"""Pass `hlo-jvp`: forward-mode automatic differentiation of hlo functions."""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..autodiff.errors import DifferentiationError
from ..autodiff.functions import build_jvp_function
from .hlo_grad import selected_functions
from .pass_base import Pass, PassError
from .hlo_verify import fail_on_invalid_hlo


@dataclass(frozen=True)
class HloJvp(Pass):
    """Adds the JVP of each public function: @f(x...) -> y... gives @f_jvp(x..., t_x for each float x) -> (y..., t_y for each float y).

    Forward propagation of tangents over the SSA graph with the rules of `mlc.autodiff`
    (symbolic zeros); scf.if and scf.while (any trip count) included. Expects and produces
    hlo with func/scf/tensor. `func` names the functions (comma-separated) instead of
    every public one.
    """

    name = "hlo-jvp"
    func: str = ""

    def run(self, module: ir.Operation) -> None:
        fail_on_invalid_hlo(module)
        for fn in selected_functions(module, self.func):
            try:
                build_jvp_function(fn)
            except DifferentiationError as e:
                raise PassError(e.message, e.location) from None
