"""Pass `hlo-vmap`: batching (vmap) of hlo functions."""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..batching.errors import BatchingError
from ..batching.functions import build_vmap_function, parse_axes
from .hlo_grad import selected_functions
from .pass_base import Pass, PassError
from .hlo_verify import fail_on_invalid_hlo


@dataclass(frozen=True)
class HloVmap(Pass):
    """Adds the batched version of each public function: @f(x...) -> y... gives @f_vmap(x... with a batch dim of size batch-size at in-axes) -> (y... with the batch dim first).

    One batching rule per op (`mlc.batching`): elementwise ops broadcast, dot_general and
    gather/scatter get batching dims, reductions and windows shift their dims, convolution
    folds the batch into its batch or feature dims, scf.if/while/index_switch batch their
    bodies (a batched predicate becomes a select, a batched while predicate a loop over
    any() with selects). `in-axes` is comma-separated, one entry per argument (an int or
    `none`; one entry applies to all; default 0); `func` names the functions instead of
    every public one.
    """

    name = "hlo-vmap"
    batch_size: int = 2
    in_axes: str = ""
    func: str = ""

    def run(self, module: ir.Operation) -> None:
        fail_on_invalid_hlo(module)
        if self.batch_size < 1:
            raise PassError(f"batch-size must be at least 1, got {self.batch_size}")
        for fn in selected_functions(module, self.func):
            try:
                count = len(fn.regions[0].blocks[0].arguments)
                build_vmap_function(fn, self.batch_size, parse_axes(self.in_axes, count))
            except BatchingError as e:
                raise PassError(e.message, e.location) from None
