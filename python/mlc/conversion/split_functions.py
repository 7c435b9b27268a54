"""Pass `mlc-split-functions`: a big function's loop nests go into several smaller functions,
so LLVM never compiles one huge function (as XLA:CPU, which emits each kernel as its own
function and splits big modules).

LLVM's code generation is superlinear in the size of a basic block (instruction selection,
the schedulers, the register allocator), and LLVM makes one block out of many small loops:
it unrolls each 16-iteration vector loop fully and merges the straight-line code. A function
returning 400 small arrays took 90 s in LLVM that way, 800 of them several minutes. Here the
top-level ops of a function that have no results (loop nests, kernels, calls on buffers) are
cut into runs of at most BUDGET nested ops (a bigger op, or a loop nest of KERNEL_OPS or
more that has a twin, the same ops and constants, is a run alone, so equal kernels become
equal functions); each run becomes a
private `noinline` function called in its place (measured on 400 results: one function 90 s
of llc, runs of 256 ops 33 s, of 64 ops 5.8 s, of 32 ops 3.5 s, of 16 ops 2.8 s). Values the
run reads from outside are its arguments (buffers, indices, scalars); constants are cloned
into it. Functions of at most MIN_FUNCTION_OPS nested ops are left as they are, and so is
any op that reads another kind of value (a parallel loop's context pointer).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from mlir import ir
from mlir.dialects import func

from ..codegen.loops import op_count
from ..transforms.pass_base import Pass

BUDGET = 32          # nested ops per outlined run
MIN_FUNCTION_OPS = 128  # smaller functions are left whole
# A loop nest of this many nested ops with a twin (the same nested ops and constants) is a
# run alone, so equal kernels (a model's repeated layers) become equal functions, compiled
# once (mlc-merge-functions). Only with a twin: 200 distinct small kernels each alone
# compiled 25% slower than in shared runs (more, smaller functions for LLVM).
KERNEL_OPS = 8


def nested_ops(op: ir.Operation) -> tuple[list, list]:
    """(every op nested in `op`, `op` first; every block argument inside it)."""
    ops, args = [], []
    _collect(op, ops, args)
    return ops, args


def _collect(op: ir.Operation, ops: list, args: list) -> None:
    ops.append(op)
    for region in op.regions:
        for block in region.blocks:
            args.extend(block.arguments)
            for inner in block.operations:
                inner = inner.operation
                if len(inner.regions):
                    _collect(inner, ops, args)
                else:  # (most ops: no call, no regions to walk)
                    ops.append(inner)


def _passable(t: ir.Type) -> bool:
    return isinstance(t, (ir.MemRefType, ir.IndexType, ir.IntegerType, ir.F16Type, ir.BF16Type,
                          ir.F32Type, ir.F64Type))


def defining_op(value: ir.Value):
    if type(value) is ir.BlockArgument:  # (values come downcast: no owner to read)
        return None
    owner = value.owner
    return owner.operation if isinstance(owner, (ir.OpView, ir.Operation)) else None


@dataclass
class _Run:
    # (top-level op, the values it reads from outside, (nested op, its operands) of each
    # nested op)
    ops: list
    size: int = 0


def _candidate(op: ir.Operation):
    """(nested ops, values read from outside, (nested op, its operands) of each nested op)
    of a top-level op that may move, else None. (The operands are read once: outlining
    other runs changes none of them, and _outline remaps them.)"""
    if len(op.results) or not (len(op.regions) or op.name.startswith("linalg.")
                               or op.name in ("func.call", "memref.copy")):
        return None  # (deallocs and other bookkeeping stay in the caller)
    ops, args = nested_ops(op)
    # Values defined inside: results of the nested ops, block arguments of their regions
    # (a set of values: cheaper to ask than each operand's defining op).
    defined = set(args)
    for o in ops:
        defined.update(o.results)
    captured = []
    reads = [(o, list(o.operands)) for o in ops]
    for _, values in reads:
        for v in values:
            if v in defined:
                continue
            owner = defining_op(v)
            if owner is not None and owner.name == "arith.constant":
                captured.append(v)
            elif _passable(v.type):
                captured.append(v)
            else:
                return None
    return ops, captured, reads


def _twin_key(found) -> tuple:
    """What two kernels that may outline to equal functions share: their nested ops' names
    and constants, and the types of the values they read (mlc-merge-functions decides).
    Attributes and types are uniqued in their context: compared as objects, not printed
    (printing them was half of the pass on a decoder block)."""
    def constant(op):
        return op.attributes["value"] if op is not None and op.name == "arith.constant" else None

    ops, captured, _ = found
    return (tuple((o.name, constant(o)) for o in ops),
            tuple((v.type, constant(defining_op(v))) for v in captured))


def _candidates(block: ir.Block) -> list:
    """(top-level op, _candidate(op)) for each op of the block."""
    return [(op.operation, _candidate(op.operation)) for op in block.operations]


def _runs(found_ops: list, budget: int, kernel_ops: int) -> list[_Run]:
    keys = {op: _twin_key(found) for op, found in found_ops
            if found is not None and len(found[0]) >= kernel_ops}
    counts = Counter(keys.values())
    runs, current = [], None
    for op, found in found_ops:
        if found is None:
            current = None
            continue
        size = len(found[0])
        kernel = op in keys and counts[keys[op]] > 1  # a kernel with a twin is a run alone
        if current is None or kernel or current.size + size > budget:
            current = _Run([])
            runs.append(current)
        current.ops.append((op, found[1], found[2]))
        current.size += size
        if kernel:
            current = None
    return runs


def _outline(run: _Run, name: str, caller) -> None:
    inputs, constants = [], []
    seen = set()
    for _, captured, _ in run.ops:
        for v in captured:
            if v in seen:
                continue
            seen.add(v)
            owner = defining_op(v)
            (constants if owner is not None and owner.name == "arith.constant" else inputs).append(v)
    first = run.ops[0][0]
    with first.location:
        with ir.InsertionPoint.after(caller):
            fn = func.FuncOp(name, ([v.type for v in inputs], []), visibility="private")
        # (LLVM would inline a small function with one caller back into it)
        fn.attributes["passthrough"] = ir.ArrayAttr.get([ir.StringAttr.get("noinline")])
        body = fn.add_entry_block()
        with ir.InsertionPoint(body):
            ret = func.ReturnOp([])
        with ir.InsertionPoint(first):
            func.CallOp([], ir.FlatSymbolRefAttr.get(name), inputs)
    remap = dict(zip(inputs, body.arguments))
    for c in constants:
        clone = defining_op(c).clone(ip=ir.InsertionPoint(ret))
        remap[c] = clone.results[0]
    for op, _, _ in run.ops:
        op.move_before(ret)
    for _, _, reads in run.ops:  # (moving keeps the nested ops _candidate listed)
        for o, values in reads:
            for i, v in enumerate(values):
                if v in remap:
                    o.operands[i] = remap[v]


@dataclass(frozen=True)
class SplitFunctions(Pass):
    """Moves the loop nests of a big function into private noinline functions of at most
    BUDGET ops each, so LLVM compiles several small functions instead of one huge one.

    Expects: buffers (memrefs), before the LLVM lowering. Produces: the same, with private
    `passthrough = ["noinline"]` functions `<name>_part_<i>` called in place of the runs;
    functions of at most min-function-ops nested ops are unchanged; an op of at least
    kernel-ops nested ops with a twin (the same nested ops and constants) is a run alone.
    Options: budget (32), min-function-ops (128), kernel-ops (8).
    """

    name = "mlc-split-functions"
    budget: int = BUDGET
    min_function_ops: int = MIN_FUNCTION_OPS
    kernel_ops: int = KERNEL_OPS

    def run(self, module: ir.Operation) -> None:
        functions = [o.operation for o in module.regions[0].blocks[0].operations
                     if o.operation.name == "func.func" and len(o.operation.regions[0].blocks)]
        for fn in functions:
            if op_count(fn) - 1 <= self.min_function_ops:
                continue  # (most functions: counting is a tenth of listing the candidates)
            found = _candidates(fn.regions[0].blocks[0])
            if sum(len(f[0]) for _, f in found if f is not None) <= self.min_function_ops:
                continue  # (before the runs: their twin keys cost more than the candidates)
            runs = _runs(found, self.budget, self.kernel_ops)
            base = ir.StringAttr(fn.attributes["sym_name"]).value
            for index, run in enumerate(runs):
                _outline(run, f"{base}_part_{index}", fn)
