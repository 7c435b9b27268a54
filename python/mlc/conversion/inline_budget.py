"""Pass `mlc-inline-budget`: keep calls of `alwaysinline` helpers as calls when inlining
all of them would blow up the module (a compile-time cost model, like mlc-unroll-budget).

mlc-math-approx writes each f32 exp/log/tanh approximation once per module as an
`alwaysinline` function (about 40-60 LLVM ops) and calls it where the math op was; LLVM
inlines every call, at -O0 too. A fused elementwise chain with hundreds of tanh becomes one
loop body of tens of thousands of vector instructions, and LLVM's instruction selection and
register allocation, which dominate the compile, grow with it: an 800-op chain
(x*c, x+c, tanh(x), repeated) spent 2.7 s of CPU in LLVM with the helpers inlined, 0.3 s
with them called. A call costs time at run time though (a 40-op chain with 20
transcendentals ran 2x slower on 256x512), so small modules keep the inlining. The pass
estimates what inlining adds,

    extra = sum over alwaysinline functions f of size(f) * (calls of f - 1)

(size = ops nested in f's body) and, while extra exceeds BUDGET, turns the helper that adds
the most from `alwaysinline` into `noinline`.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..transforms.pass_base import Pass

BUDGET = 4096  # ops inlining may add to a module before helpers stay called
PASSTHROUGH = "passthrough"
FUNCTIONS = ("llvm.func", "func.func")


def passthrough_flags(op: ir.Operation) -> list[str]:
    if PASSTHROUGH not in op.attributes:
        return []
    return [ir.StringAttr(a).value for a in ir.ArrayAttr(op.attributes[PASSTHROUGH])
            if isinstance(a, ir.StringAttr)]


def _size(op: ir.Operation) -> int:
    total = 0
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                total += 1
                inner = inner.operation
                if len(inner.regions):  # (most ops: nothing nested)
                    total += _size(inner)
    return total


def inline_growth(module: ir.Operation) -> dict[str, tuple[int, int]]:
    """{alwaysinline function: (its size, its call sites)} over the module's functions."""
    helpers: dict[str, list[int]] = {}
    for op in module.regions[0].blocks[0].operations:
        op = op.operation
        if op.name in FUNCTIONS and "alwaysinline" in passthrough_flags(op) and len(op.regions[0].blocks):
            helpers[ir.StringAttr(op.attributes["sym_name"]).value] = [_size(op), 0]
    if not helpers:
        return {}

    def visit(op):
        if op.name in ("llvm.call", "func.call") and "callee" in op.attributes:
            entry = helpers.get(ir.FlatSymbolRefAttr(op.attributes["callee"]).value)
            if entry is not None:
                entry[1] += 1
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return {name: (size, calls) for name, (size, calls) in helpers.items()}


@dataclass(frozen=True)
class InlineBudget(Pass):
    """Turns `alwaysinline` helper functions into `noinline` ones, biggest growth first, while
    inlining every call of them would add more than budget ops to the module.

    Expects: the LLVM dialect (llvm.func with `passthrough`) or func.func with the same
    attribute. Produces: the same IR, some helpers marked `noinline`. Option budget (default
    4096 ops).
    """

    name = "mlc-inline-budget"
    budget: int = BUDGET

    def run(self, module: ir.Operation) -> None:
        growth = {name: size * max(calls - 1, 0) for name, (size, calls) in inline_growth(module).items()}
        extra = sum(growth.values())
        if extra <= self.budget:
            return
        functions = {ir.StringAttr(op.operation.attributes["sym_name"]).value: op.operation
                     for op in module.regions[0].blocks[0].operations
                     if op.operation.name in FUNCTIONS and "sym_name" in op.operation.attributes}
        for name in sorted(growth, key=growth.get, reverse=True):
            if extra <= self.budget:
                break
            op = functions[name]
            flags = ["noinline" if f == "alwaysinline" else f for f in passthrough_flags(op)]
            op.attributes[PASSTHROUGH] = ir.ArrayAttr.get([ir.StringAttr.get(f) for f in flags])
            extra -= growth[name]
