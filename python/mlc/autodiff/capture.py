"""Tracing a Python function inline and knowing which ops it emitted.

The API differentiates a function by tracing it into the enclosing function's current
block (values it closes over stay visible, nested grads just add ops) and then handing the
ops it appended to the walkers. Its inputs are first copied with an identity op, so the
walk tells a differentiated argument apart from the same array used elsewhere (a closure,
or the same array passed twice)."""

from __future__ import annotations

import numpy as np
from mlir import ir

from ..dialects import hlo
from ..frontend.core import asarray, wrap
from ..frontend.tracing import Tracer, emit


def emitted_by(fn, *args, **kwargs):
    """(fn(*args, **kwargs), the ops it appended at the current insertion point)."""
    ip = ir.InsertionPoint.current
    block = ip.block
    ref = ip.ref_operation
    before = list(block.operations)
    start = len(before) if ref is None else _index(before, ref)
    out = fn(*args, **kwargs)
    after = list(block.operations)
    stop = len(after) if ref is None else _index(after, ref)
    return out, [op.operation for op in after[start:stop]]


def _index(ops, ref) -> int:
    ref = ref.operation
    for i, op in enumerate(ops):
        if op.operation == ref:
            return i
    raise AssertionError("insertion point's operation is not in its block")


def fresh(x) -> Tracer:
    """A copy of x (an identity reshape): a value of its own for the walkers."""
    t = asarray(x)
    if t.weak:  # a Python scalar: differentiate it as the default dtype it stands for
        t = Tracer(t.value, t.shape, t.dtype, False)
    return Tracer(emit(hlo.reshape, t.value, t.shape), t.shape, t.dtype)


def marker(x: Tracer, kind: str, attributes: dict | None = None) -> Tracer:
    """An identity op on x tagged `mlc.autodiff = kind` plus integer `attributes`
    (see rules/markers.py)."""
    value = emit(hlo.reshape, x.value, x.shape)
    op = value.owner
    op.attributes["mlc.autodiff"] = ir.StringAttr.get(kind)
    for name, v in (attributes or {}).items():
        op.attributes[name] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), int(v))
    return Tracer(value, x.shape, x.dtype, x.weak)


def as_tracer(value: ir.Value, dtype=None) -> Tracer:
    t = wrap(value)
    return t if dtype is None or t.dtype == np.dtype(dtype) else Tracer(t.value, t.shape, dtype)
