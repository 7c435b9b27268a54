"""Derivative *functions* of func.func ops: what the hlo-grad and hlo-jvp passes build.

    @f(x_1..x_n) -> (y_1..y_m)
    hlo-grad: @f_grad(x_1..x_n, ct_1..ct_m) -> (y_1..y_m, ct_x_i for each float x_i)
    hlo-jvp:  @f_jvp(x_1..x_n, t_x_i for each float x_i) -> (y_1..y_m, t_y_j for each float y_j)

The new function is a copy of @f whose body goes on past the forward computation with the
backward (or tangent) ops; its return gives both. Zero derivatives become zero constants.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import func

from .errors import DifferentiationError
from .jvp import jvp_of_ops
from .values import differentiable, zeros_like
from .vjp import vjp_of_ops


def _copy(fn: ir.Operation, suffix: str) -> tuple[ir.Operation, ir.Block, ir.Operation]:
    name = ir.StringAttr(fn.attributes["sym_name"]).value
    new = fn.clone(ir.InsertionPoint(fn))
    new.move_after(fn)
    new.attributes["sym_name"] = ir.StringAttr.get(name + suffix)
    block = new.regions[0].blocks[0]
    terminator = list(block.operations)[-1].operation
    if terminator.name != "func.return":
        raise DifferentiationError(f"@{name} does not end in func.return", fn.location)
    return new, block, terminator


def _finish(new: ir.Operation, block: ir.Block, terminator: ir.Operation, results: list) -> None:
    arg_types = [a.type for a in block.arguments]
    new.attributes["function_type"] = ir.TypeAttr.get(
        ir.FunctionType.get(arg_types, [r.type for r in results]))
    with ir.InsertionPoint(terminator), terminator.location:
        func.ReturnOp(results)
    terminator.erase()


def build_vjp_function(fn: ir.Operation, suffix: str = "_grad") -> ir.Operation:
    """Adds @<name><suffix>, the VJP of `fn`, after it (see the module docstring)."""
    new, block, terminator = _copy(fn, suffix)
    outputs = list(terminator.operands)
    primals = list(block.arguments)
    ops = [op.operation for op in block.operations][:-1]
    cts = [block.add_argument(v.type, terminator.location) for v in outputs]
    with ir.InsertionPoint(terminator), terminator.location:
        float_args = [a for a in primals if differentiable(a)]
        grads = vjp_of_ops(ops, outputs, [c if differentiable(c) else None for c in cts], float_args)
        grads = [g if g is not None else zeros_like(a) for g, a in zip(grads, float_args)]
    _finish(new, block, terminator, outputs + grads)
    return new


def build_jvp_function(fn: ir.Operation, suffix: str = "_jvp") -> ir.Operation:
    """Adds @<name><suffix>, the JVP of `fn`, after it (see the module docstring)."""
    new, block, terminator = _copy(fn, suffix)
    outputs = list(terminator.operands)
    primals = [a for a in block.arguments if differentiable(a)]
    ops = [op.operation for op in block.operations][:-1]
    tangents = [block.add_argument(a.type, terminator.location) for a in primals]
    with ir.InsertionPoint(terminator), terminator.location:
        float_outs = [v for v in outputs if differentiable(v)]
        outs = jvp_of_ops(ops, primals, tangents, float_outs)
        outs = [t if t is not None else zeros_like(v) for t, v in zip(outs, float_outs)]
    _finish(new, block, terminator, outputs + outs)
    return new
