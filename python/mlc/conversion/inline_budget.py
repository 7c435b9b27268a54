"""Pass `mlc-inline-budget`: keep calls of `alwaysinline` helpers as calls when inlining
all of them would blow up the module (a compile-time cost model, like mlc-unroll-budget).

mlc-math-approx writes each f32 exp/log/tanh approximation once per module as an
`alwaysinline` function (about 40-60 LLVM ops) and calls it where the math op was; LLVM
inlines every call, at -O0 too. A fused elementwise chain with hundreds of tanh becomes one
loop body of tens of thousands of vector instructions, and LLVM's instruction selection and
register allocation, which dominate the compile, grow with it: an 800-op chain
(x*c, x+c, tanh(x), repeated) spent 2.7 s of CPU in LLVM with the helpers inlined, 0.3 s
with them called. What a call costs at run time was measured (AMD Zen 3, AVX2, one thread,
f32[64, 512] in cache, alternating runs): nothing on that chain's 40-op version (10 tanh and
10 exp on vector<16xf32>: 0.74 ms either way, the helpers' arguments and results stay in
registers), 3-7% where values stay live across the calls (exp(x) * y + exp(y) * x 36 ->
38 us; an LSTM gate block of 3 logistic and 2 tanh 115 -> 122 us: they are spilled around
each call). Inlining those 40 ops cost ~30 ms of LLVM's time (the first call 80-90 -> 53-60
ms; jax.jit's is ~70). So inlining gets a budget of a few ms of LLVM time: the pass
estimates what inlining adds,

    extra = sum over alwaysinline functions f of size(f) * (calls of f - 1)

(size = ops nested in f's body; LLVM spends ~30 us of CPU per op of it) and, while extra
exceeds BUDGET (256 ops, ~8 ms), turns the helper that adds the most from `alwaysinline`
into `noinline`. The LSTM block (extra 128) keeps its inlining; the 40-op chain (837) calls.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..transforms.pass_base import Pass

BUDGET = 256  # ops inlining may add to a module before helpers stay called (~8 ms of LLVM)
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
    256 ops).
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
