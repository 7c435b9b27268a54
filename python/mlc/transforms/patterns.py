"""Writing hlo rewrite patterns: the @pattern registry and the IR queries patterns share.

A pattern is `fn(op, ctx) -> list[ir.Value] | None`: called with the insertion point and
location at `op`, it returns the values that replace op's results, or None when it does
not apply. Its docstring's first line states the rewrite (`hlo.multiply(x, 1) -> x`).
Patterns marked `fast_math=True` change NaN, inf or -0.0 results and only run when the
pass is given `fast-math`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from mlir import ir

from ..dialects.hlo.verify import signature_of
from .pass_base import apply_patterns


@dataclass(frozen=True)
class PatternContext:
    fast_math: bool = False


@dataclass(frozen=True)
class Pattern:
    root: str
    fn: Callable
    fast_math: bool

    @property
    def rule(self) -> str:
        return (self.fn.__doc__ or "").strip().splitlines()[0]


SIMPLIFY_PATTERNS: list[Pattern] = []


def pattern(root: str, *, fast_math: bool = False):
    """Registers `fn` as an hlo-simplify pattern rooted at op `root` (e.g. "hlo.add")."""
    def register(fn):
        SIMPLIFY_PATTERNS.append(Pattern(root, fn, fast_math))
        return fn
    return register


def apply_rewrite_patterns(module: ir.Operation, patterns: list[Pattern], ctx: PatternContext) -> int:
    """Runs the patterns greedily to a fixed point; returns how many rewrites happened."""
    count = [0]

    def adapt(p: Pattern):
        def rewrite_with(op, rewriter):
            with rewriter.ip, op.location:
                values = p.fn(op, ctx)
            if values is None:
                return None
            rewriter.replace_op(op, list(values))
            count[0] += 1
            return True
        return rewrite_with

    by_root: dict[str, list] = {}
    for p in patterns:
        if ctx.fast_math or not p.fast_math:
            by_root.setdefault(p.root, []).append(adapt(p))
    apply_patterns(module, by_root, max_iterations=10)
    return count[0]


# --- queries -----------------------------------------------------------------------------

def producer(value: ir.Value, name: str | None = None):
    """The op defining `value` (None for block arguments), if its name is `name`."""
    owner = value.owner
    if not isinstance(owner, (ir.OpView, ir.Operation)):
        return None
    if name is not None and owner.name != name:
        return None
    return owner


def constant_array(value: ir.Value) -> np.ndarray | None:
    """The value as a numpy array, if it is an hlo.constant."""
    op = producer(value, "hlo.constant")
    if op is None:
        return None
    attr = op.attributes["value"]
    from ..dtypes import numpy_dtype
    shape = tuple(ir.RankedTensorType(attr.type).shape)
    dtype = numpy_dtype(ir.RankedTensorType(attr.type).element_type)
    if attr.is_splat:
        return np.full(shape, _scalar(attr.get_splat_value()), dtype=dtype)
    return np.array(attr).astype(dtype, copy=False).reshape(shape)


def _scalar(attr):
    if isinstance(attr, ir.FloatAttr):
        return attr.value
    if isinstance(attr, ir.BoolAttr):
        return attr.value
    t = ir.IntegerType(ir.IntegerAttr(attr).type)
    value = ir.IntegerAttr(attr).value
    if t.width == 1:
        return bool(value)
    if t.is_unsigned and value < 0:  # the bindings read the bits as signed: ui64 2^64-1 is -1
        value += 1 << t.width
    return value


def splat(value: ir.Value):
    """The single value of a splat hlo.constant (a Python number), else None."""
    op = producer(value, "hlo.constant")
    if op is None or not op.attributes["value"].is_splat:
        return None
    return _scalar(op.attributes["value"].get_splat_value())


def is_splat_of(value: ir.Value, number) -> bool:
    """True for a splat constant equal to `number`; -0.0 and +0.0 are told apart."""
    v = splat(value)
    if v is None:
        return False
    if v != number:
        return False
    if isinstance(v, float) and v == 0.0:
        return np.signbit(v) == np.signbit(float(number))
    return True


def element_type(value: ir.Value) -> ir.Type:
    return ir.RankedTensorType(value.type).element_type


def is_float_value(value: ir.Value) -> bool:
    return isinstance(element_type(value), ir.FloatType)


def attrs(op):
    """The op's attributes as Python values (via the verifier's reader)."""
    return signature_of(op.operation).attributes


def operand_if_same_type(op):
    """[x] when op(x) has x's type (a no-op conversion), else None."""
    x = op.operands[0]
    return [x] if x.type == op.result.type else None


def splat_like(value_type: ir.Type, number) -> ir.Value:
    """A splat hlo.constant of `value_type` holding `number`."""
    from ..dialects import hlo
    t = ir.RankedTensorType(value_type)
    et = t.element_type
    if isinstance(et, ir.FloatType):
        scalar = ir.FloatAttr.get(et, float(number))
    elif et.width == 1:
        scalar = ir.BoolAttr.get(bool(number))
    else:
        # IntegerAttr.get takes the bits as a signed value: ui64 2^63 and above wrap.
        w = ir.IntegerType(et).width
        bits = int(number) & ((1 << w) - 1)
        scalar = ir.IntegerAttr.get(et, bits - (1 << w) if bits >= 1 << (w - 1) else bits)
    return hlo.constant(ir.DenseElementsAttr.get_splat(t, scalar))
