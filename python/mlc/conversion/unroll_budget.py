"""Pass `mlc-unroll-budget`: keep loops rolled when LLVM's full unrolling would blow up the
module (a compile-time cost model, the same for any graph).

LLVM fully unrolls every loop with a small constant trip count (at -O2, when trip count x
body stays under its threshold, ~300 instructions). One such loop gains a few cycles; a
module with hundreds of them becomes tens of thousands of straight-line instructions, and
LLVM's instruction selection and register allocation, which dominate the compile, grow with
them: a function returning 400 arrays of 256 elements went from 7.9k to 37k instructions,
llc from 1.1 s to 7.6 s. So the pass estimates what full unrolling would add over the
module,

    extra = sum over innermost scf.for with constant bounds, where body * trips <= LIMIT,
            of body * (trips - 1)

(body = ops nested in the loop), and when extra exceeds BUDGET it marks every innermost
loop `llvm.loop_annotation = #llvm.loop_annotation<unroll = <disable = true>>`. Below the
budget nothing changes, so small kernels keep LLVM's unrolling. mlc-loop-annotations moves
the mark onto the back-edge branch after the LLVM lowering, where LLVM reads it.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..codegen.loops import trip_count
from ..transforms.pass_base import Pass

LIMIT = 400     # body * trips below which LLVM (-O2) fully unrolls a loop (ops, roughly)
BUDGET = 8192   # ops full unrolling may add to a module before loops are kept rolled
DISABLE_UNROLL = "#llvm.loop_annotation<unroll = #llvm.loop_unroll<disable = true>>"
ANNOTATION = "llvm.loop_annotation"


def _size(op: ir.Operation, loops: list) -> tuple[int, bool]:
    """(ops nested in `op`, whether a scf.for is among them); collects innermost loops."""
    total, has_loop = 0, False
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                total += 1
                inner = inner.operation
                if not len(inner.regions):  # (most ops: nothing nested, no loop)
                    continue
                size, nested = _size(inner, loops)
                total += size
                if inner.name == "scf.for":
                    has_loop = True
                    if not nested:
                        loops.append((inner, size))
                has_loop = has_loop or nested
    return total, has_loop


def unroll_growth(module: ir.Operation) -> tuple[int, list]:
    """(ops full unrolling would add, the innermost scf.for loops with their body sizes)."""
    loops: list = []
    _size(module, loops)
    extra = 0
    for loop, body in loops:
        trips = trip_count(loop)
        if trips is not None and body * trips <= LIMIT:
            extra += body * max(trips - 1, 0)
    return extra, loops


@dataclass(frozen=True)
class UnrollBudget(Pass):
    """Marks every innermost scf.for `llvm.loop_annotation` (unroll disabled) when LLVM's
    full unrolling of small constant-trip loops would add more than budget ops to the module.

    Expects: scf loops (after linalg and vector transfers became loops), before
    convert-scf-to-cf, which carries the mark onto the loop's back edge. Produces: the same
    IR, annotated or not. Option budget (default 8192 ops).
    """

    name = "mlc-unroll-budget"
    budget: int = BUDGET

    def run(self, module: ir.Operation) -> None:
        extra, loops = unroll_growth(module)
        if extra <= self.budget:
            return
        disable = ir.Attribute.parse(DISABLE_UNROLL)
        for loop, _ in loops:
            loop.attributes[ANNOTATION] = disable
