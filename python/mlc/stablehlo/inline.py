"""Calling an imported program on traced values: its hlo is inlined into the current trace.

The program's hlo text is parsed in the trace's context; its entry block's arguments are
replaced by the traced inputs and each op is cloned at the trace's insertion point, the
original op's results then replaced by the clone's, so later ops (nested regions included)
are cloned with the remapped operands. Autodiff and the hlo passes then see ordinary ops."""

from __future__ import annotations

import numpy as np
from mlir import ir

from ..dtypes import numpy_dtype
from ..frontend.core import asarray, astype, wrap
from ..frontend.tracing import current_trace


def _entry(module: ir.Module, name: str):
    for op in module.body.operations:
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == name:
            return op
    raise AssertionError(f"@{name} missing from the imported module")


def inline_call(program, args):
    trace = current_trace()
    module = ir.Module.parse(program.hlo_text, trace.context)
    fn = _entry(module, program.entry)
    block = fn.regions[0].blocks[0]
    params = list(block.arguments)
    if len(args) != len(params):
        raise TypeError(f"{program!r} takes {len(params)} arguments, got {len(args)}")
    for i, (param, arg) in enumerate(zip(params, args)):
        t = ir.RankedTensorType(param.type)
        dtype = numpy_dtype(t.element_type)
        x = asarray(arg)
        if x.weak or (x.dtype != dtype and np.can_cast(x.dtype, dtype, "same_kind")):
            x = astype(x, dtype)
        if tuple(x.shape) != tuple(t.shape) or x.dtype != dtype:
            raise TypeError(f"{program!r}: argument {i} must be {dtype}{list(t.shape)}, got "
                            f"{x.dtype}{list(x.shape)}")
        param.replace_all_uses_with(x.value)
    ip = ir.InsertionPoint.current
    ops = [op.operation for op in block.operations]
    for op in ops[:-1]:
        clone = op.clone(ip=ip)
        for old, new in zip(op.results, clone.results):
            old.replace_all_uses_with(new)
    outs = [wrap(v) for v in ops[-1].operands]
    return outs[0] if len(outs) == 1 else tuple(outs)
