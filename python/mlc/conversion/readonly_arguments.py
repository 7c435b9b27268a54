"""Pass `mlc-readonly-arguments`: marks public functions' tensor arguments read-only for
bufferization, so compiled code never writes into a caller's (numpy) input buffers, except
the arguments a result is donated to (`mlc.jit(..., donate_argnums=)`).

Donation: a public function carrying `mlc.result_aliases = array<i64: a_0, ..., a_m>`
(a_k = the argument result k reuses, or -1; set by jit) gets, for each a_k >= 0,

    return ..., %r_k, ...
  ->
    %m = bufferization.materialize_in_destination %r_k in %arg_{a_k}   (arg writable)
    return ..., tensor.empty(), ...

so one-shot bufferization computes r_k into the argument's buffer where its analysis proves
that safe (eliminate-empty-tensors first lets the producing kernels write there directly)
and otherwise computes it aside and copies it in: a transpose or a shifted slice never reads
what it already overwrote. A loop's destination is the exception: an scf.for whose carried
result starts as a tensor.empty keeps a buffer of its own (the empty becomes an
alloc_tensor first), since a loop that also reads the donated argument (a scan reading x[k]
and writing out[k]) cannot be bufferized with the argument as its destination. Result k's out-param is then left unwritten; the caller returns
the donated array as result k (see frontend/stages.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir, passmanager
from mlir.dialects import bufferization, tensor

from ..transforms.pass_base import Pass

_WRITABLE = "bufferization.writable"
ALIASES_ATTR = "mlc.result_aliases"


def result_aliases(fn: ir.Operation) -> list[int]:
    """The argument each result is donated to (-1: none), from `mlc.result_aliases`."""
    if ALIASES_ATTR not in fn.attributes:
        return []
    return [int(a) for a in ir.DenseI64ArrayAttr(fn.attributes[ALIASES_ATTR])]


@dataclass(frozen=True)
class ReadonlyArguments(Pass):
    """Sets `bufferization.writable = false` on every tensor argument of public functions, except the arguments results are donated to (`mlc.result_aliases`), which results are written into.

    Expects: func.func on tensors. Produces: the same IR with argument attributes; one-shot
    bufferization then copies an argument before any in-place write instead of clobbering it.
    A donated result becomes a materialize_in_destination into its argument, and the function
    returns an unwritten tensor in its place (the caller hands back the argument).
    """

    name = "mlc-readonly-arguments"

    def run(self, module: ir.Operation) -> None:
        donated_any = False
        for op in module.regions[0].blocks[0].operations:
            if op.operation.name != "func.func" or "sym_visibility" in op.attributes or not op.regions[0].blocks:
                continue
            aliases = result_aliases(op.operation)
            writable = {a for a in aliases if a >= 0}
            arg_types = op.regions[0].blocks[0].arguments.types
            old = list(op.attributes["arg_attrs"]) if "arg_attrs" in op.attributes else \
                [ir.DictAttr.get({})] * len(arg_types)
            new = []
            for i, (t, attrs) in enumerate(zip(arg_types, old)):
                entries = {a.name: a.attr for a in ir.DictAttr(attrs)}
                if isinstance(t, ir.RankedTensorType):
                    entries[_WRITABLE] = ir.BoolAttr.get(i in writable)
                new.append(ir.DictAttr.get(entries))
            op.attributes["arg_attrs"] = ir.ArrayAttr.get(new)
            if writable:
                _donate_results(op.operation, aliases)
                donated_any = True
        if donated_any:
            _keep_loop_destinations(module)
            # The kernels producing a donated result take its argument as their destination.
            passmanager.PassManager.parse("builtin.module(eliminate-empty-tensors)",
                                          module.context).run(module)


def _keep_loop_destinations(module: ir.Operation) -> None:
    """tensor.empty -> bufferization.alloc_tensor where it starts a value an scf.for carries,
    which eliminate-empty-tensors then leaves alone (see the module docstring)."""
    empties: list[ir.Operation] = []  # each once: one empty may start several loops

    def visit(op):
        if op.operation.name == "scf.for":
            for value in list(op.operands)[3:]:  # lower bound, upper bound, step, then the inits
                if isinstance(value, ir.BlockArgument):
                    continue
                owner = value.owner.operation
                if owner.name == "tensor.empty" and not any(owner == e for e in empties):
                    empties.append(owner)
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    for empty_op in empties:
        if len(empty_op.operands):  # dynamic sizes: leave it to eliminate-empty-tensors
            continue
        with ir.InsertionPoint(empty_op), empty_op.location:
            fresh = bufferization.AllocTensorOp(empty_op.results[0].type, [])
        empty_op.results[0].replace_all_uses_with(fresh.result)
        empty_op.erase()


def _donate_results(fn: ir.Operation, aliases: list[int]) -> None:
    block = fn.regions[0].blocks[0]
    ret = block.operations[len(block.operations) - 1].operation
    with ir.InsertionPoint(ret), ret.location:
        for k, a in enumerate(aliases):
            if a < 0:
                continue
            value, arg = ret.operands[k], block.arguments[a]
            if value.type != arg.type:
                raise AssertionError(f"result #{k} ({value.type}) donated to argument #{a} ({arg.type})")
            if value != arg:
                bufferization.MaterializeInDestinationOp(arg.type, value, arg)
            t = ir.RankedTensorType(value.type)
            ret.operands[k] = tensor.empty(list(t.shape), t.element_type)
