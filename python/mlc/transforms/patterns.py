"""Writing hlo rewrite patterns: the @pattern registry and the IR queries patterns share.

A pattern is `fn(op, ctx) -> list[ir.Value] | None`: called with the insertion point and
location at `op`, it returns the values that replace op's results, or None when it does
not apply. Its docstring's first line states the rewrite (`hlo.multiply(x, 1) -> x`).
Patterns marked `fast_math=True` change NaN, inf or -0.0 results and only run when the
pass is given `fast-math`.
"""

from __future__ import annotations

import threading
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

    # One upstream pattern per root name tries that root's patterns in registration order,
    # as the driver would try them one by one (equal benefits keep their order): one call
    # from C++ and one entry of the insertion point and location per op, not one per pattern.
    def adapt(fns: list):
        def rewrite_with(op, rewriter):
            with rewriter.ip, op.location:
                for fn in fns:
                    values = fn(op, ctx)
                    if values is not None:
                        break
                else:
                    return None
            rewriter.replace_op(op, list(values))
            count[0] += 1
            return True
        return rewrite_with

    by_root: dict[str, list] = {}
    for p in patterns:
        if ctx.fast_math or not p.fast_math:
            by_root.setdefault(p.root, []).append(p.fn)
    _run.facts = ({}, {})
    try:
        apply_patterns(module, {root: [adapt(fns)] for root, fns in by_root.items()}, max_iterations=10)
    finally:
        _run.facts = None
    return count[0]


# Facts the queries read again and again during one run of the patterns, by the uniqued
# attribute or type they come from (a splat's value, whether a tensor type is float): a
# graph repeats a few constants and types thousands of times. Per thread and per run: the
# keys refer to the run's context, which the cache must not keep alive.
_run = threading.local()


def _facts(kind: int) -> dict | None:
    """The run's facts of one kind (0: splat values by attribute, 1: is-float by type)."""
    facts = getattr(_run, "facts", None)
    return facts[kind] if facts is not None else None


# --- queries -----------------------------------------------------------------------------

def producer(value: ir.Value, name: str | None = None):
    """The op defining `value` (None for block arguments), if its name is `name`."""
    if type(value) is ir.BlockArgument:  # (values come downcast: a cheap test first)
        return None
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
    if op is None:
        return None
    attr = op.attributes["value"]
    facts = _facts(0)
    if facts is not None:
        found = facts.get(attr, facts)  # (the dict itself: not there yet; None is a fact)
        if found is not facts:
            return found
    found = _scalar(attr.get_splat_value()) if attr.is_splat else None
    if facts is not None:
        facts[attr] = found
    return found


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
    t = value.type  # (types come downcast: no cast for a ranked tensor)
    return (t if type(t) is ir.RankedTensorType else ir.RankedTensorType(t)).element_type


def is_float_value(value: ir.Value) -> bool:
    t = value.type
    facts = _facts(1)
    found = facts.get(t) if facts is not None else None
    if found is None:
        found = isinstance((t if type(t) is ir.RankedTensorType else ir.RankedTensorType(t)).element_type,
                           ir.FloatType)
        if facts is not None:
            facts[t] = found
    return found


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
