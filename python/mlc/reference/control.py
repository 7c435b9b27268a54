"""The upstream ops MLC puts into hlo modules: func.return/call, scf.if/while/for/
index_switch with their terminators, tensor.extract/from_elements, arith.constant and
arith.index_cast.

Contract: a terminator evaluates to `Terminated(values)`; a region runs its single block
and hands those values to its parent op. Scalars (i1 predicates, index values) are 0-d
numpy arrays. scf.while runs `before` (ending in scf.condition) and, while the condition
holds, `after` (ending in scf.yield) on the forwarded values.
"""

from __future__ import annotations

import numpy as np
from mlir import ir

from .conversion import dense_value
from .registry import Terminated, evaluates, numpy_dtype_of


@evaluates("func.return", "scf.yield")
def _yield(ctx, *values):
    """func.return / scf.yield: hands the operands to the parent."""
    return Terminated(list(values))


@evaluates("scf.condition")
def _condition(ctx, condition, *values):
    """scf.condition(c, v...): hands (c, v...) to scf.while."""
    return Terminated([condition, *values])


@evaluates("func.call")
def _call(ctx, *args):
    """func.call @f(args): the results of running @f of the same module."""
    callee = ir.FlatSymbolRefAttr(ctx.op.attributes["callee"]).value
    return ctx.interpreter.call(callee, list(args))


@evaluates("scf.if")
def _if(ctx, condition):
    """scf.if c: the then region's yield if c, else the else region's (nothing if absent)."""
    if bool(condition):
        return ctx.run_region(0, [])
    if len(ctx.op.regions) > 1 and len(ctx.op.regions[1].blocks):
        return ctx.run_region(1, [])
    return []


@evaluates("scf.while")
def _while(ctx, *inits):
    """scf.while: before(values) -> condition(c, v...); while c: values = after(v...)."""
    values = list(inits)
    while True:
        condition, *forwarded = ctx.run_region(0, values)
        if not bool(condition):
            return forwarded
        values = ctx.run_region(1, forwarded)


@evaluates("scf.for")
def _for(ctx, lower, upper, step, *inits):
    """scf.for i = lb to ub step s with iter_args: the body's yield, iterated."""
    values = list(inits)
    for i in range(int(lower), int(upper), int(step)):
        values = ctx.run_region(0, [np.array(i, np.int64), *values])
    return values


@evaluates("scf.index_switch")
def _index_switch(ctx, selector):
    """scf.index_switch: the region of the case equal to the selector, else the default."""
    cases = list(ir.DenseI64ArrayAttr(ctx.op.attributes["cases"]))
    key = int(selector)
    region = 1 + cases.index(key) if key in cases else 0  # regions: default, then the cases
    return ctx.run_region(region, [])


@evaluates("tensor.extract")
def _extract(ctx, x, *indices):
    """tensor.extract x[i...]: one element as a 0-d array."""
    return np.asarray(x[tuple(int(i) for i in indices)])


@evaluates("tensor.from_elements")
def _from_elements(ctx, *elements):
    """tensor.from_elements: the scalars in row-major order in the result shape."""
    dt = ctx.result_dtype()
    return np.array([np.asarray(e).astype(dt) for e in elements], dt).reshape(ctx.result_shape())


@evaluates("arith.constant")
def _arith_constant(ctx):
    """arith.constant: a dense tensor, or a scalar integer/float/index as a 0-d array."""
    value = ctx.op.attributes["value"]
    t = ctx.result_type()
    if isinstance(t, ir.RankedTensorType):
        return dense_value(value, t)
    dt = numpy_dtype_of(t)
    if isinstance(value, ir.FloatAttr):
        return np.array(ir.FloatAttr(value).value).astype(dt)
    if isinstance(value, ir.BoolAttr):
        return np.array(ir.BoolAttr(value).value, dt)
    return np.array(ir.IntegerAttr(value).value).astype(dt)


@evaluates("arith.index_cast")
def _index_cast(ctx, x):
    """arith.index_cast: sign-extends to or truncates from index (int64)."""
    t = ctx.result_type()
    src = np.asarray(x)
    if src.dtype.kind == "u":
        src = src.view(np.dtype(f"i{src.dtype.itemsize}"))  # signless: the bits, sign-extended
    return src.astype(numpy_dtype_of(t.element_type if isinstance(t, ir.ShapedType) else t))


@evaluates("arith.index_castui")
def _index_castui(ctx, x):
    """arith.index_castui: zero-extends to or truncates from index (int64)."""
    t = ctx.result_type()
    src = np.asarray(x)
    src = src.view(np.dtype(f"u{src.dtype.itemsize}")) if src.dtype != np.bool_ else src
    return src.astype(numpy_dtype_of(t.element_type if isinstance(t, ir.ShapedType) else t))
