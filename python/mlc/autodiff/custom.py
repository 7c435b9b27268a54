"""User-defined derivatives and stop_gradient, as markers in the traced program.

`custom_vjp(f)` with `f.defvjp(fwd, bwd)` and `custom_jvp(f)` with `@f.defjvp` behave as
JAX's. A call traces the primal computation inline (fwd for custom_vjp: its residuals stay
in the program, dead code unless a backward pass reads them) and tags each output with a
`custom` marker whose id names a `CustomRule` kept with the trace. The walkers then call
the rule instead of differentiating the traced primal ops:

- custom_vjp, reverse mode: bwd(residuals, cotangents) traced at the backward point.
- custom_vjp, forward mode: the tangents of fwd's own ops (JAX refuses; this is lenient).
- custom_jvp, forward mode: the user's jvp traced with the input tangents.
- custom_jvp, reverse mode: the user's jvp traced with placeholder tangents, then the
  generic reverse walk over those ops (the jvp is linear in the tangents: its transpose).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from ..frontend.core import asarray, astype, constant
from ..frontend.jit import Jitted
from ..frontend.pytree import flatten, unflatten
from ..frontend.tracing import Tracer, current_trace, tracing_active
from . import custom_rules
from .api import user_line
from .capture import as_tracer, emitted_by, fresh, marker
from .vjp import vjp_of_ops

def _trace_rules() -> dict:
    return current_trace().__dict__.setdefault("autodiff_custom_rules", {})


custom_rules.install(lambda ident: _trace_rules().get(ident) if tracing_active() else None)


@dataclass
class CustomRule:
    """One call of a custom-derivative function inside a trace."""

    ident: int
    inputs: list            # fresh input copies (Tracers)
    in_structure: tuple
    outputs: list = field(default_factory=list)  # marker results (ir.Values)
    out_tracers: list = field(default_factory=list)
    out_structure: tuple = ()
    residuals: list = field(default_factory=list)
    res_structure: tuple = ()
    bwd: object = None      # custom_vjp
    jvp_fn: object = None   # custom_jvp

    def _tracer(self, walker, t: Tracer) -> Tracer:
        return Tracer(walker.remap(t.value), t.shape, t.dtype)

    def _primals(self, walker):
        return unflatten(self.in_structure, [self._tracer(walker, t) for t in self.inputs])

    def _ct_map(self, walker, cts) -> dict:
        return {walker.remap(t.value): astype(c, t.dtype).value
                for t, c in zip(self.inputs, cts) if c is not None and t.dtype.kind == "f"}

    def vjp(self, walker, out_cts):
        cts = [as_tracer(c) if c is not None else constant(np.zeros(o.shape, o.dtype))
               for c, o in zip(out_cts, self.out_tracers)]
        cts_tree = unflatten(self.out_structure, cts)
        if self.bwd is not None:
            res = unflatten(self.res_structure, [self._tracer(walker, r) if isinstance(r, Tracer) else r
                                                 for r in self.residuals])
            result = self.bwd(res, cts_tree)
            in_cts = _match_inputs(result, self.in_structure, "custom_vjp bwd")
            return self._ct_map(walker, [None if c is None else asarray(c) for c in in_cts])
        # custom_jvp: transpose the user's jvp, linear in its tangent arguments.
        placeholders = [constant(np.zeros(t.shape, t.dtype)) for t in self.inputs]
        primals = self._primals(walker)
        (_, t_out), ops = emitted_by(self.jvp_fn, tuple(primals),
                                     tuple(unflatten(self.in_structure, placeholders)))
        t_leaves = [asarray(t) for t in flatten(t_out)[0]]
        in_cts = vjp_of_ops(ops, [t.value for t in t_leaves],
                            [astype(c, t.dtype).value for c, t in zip(cts, t_leaves)],
                            [p.value for p in placeholders])
        return self._ct_map(walker, [None if c is None else as_tracer(c) for c in in_cts])

    def jvp(self, walker, _operand_tangents):
        if self.jvp_fn is None:  # custom_vjp: through fwd's own ops
            return [walker.tangent(walker.remap(v).owner.operands[0]) for v in self.outputs]
        tangents = [walker.tangent(walker.remap(t.value)) for t in self.inputs]
        tangents = [as_tracer(v) if v is not None else constant(np.zeros(t.shape, t.dtype))
                    for v, t in zip(tangents, self.inputs)]
        _, t_out = self.jvp_fn(tuple(self._primals(walker)),
                               tuple(unflatten(self.in_structure, tangents)))
        leaves = flatten(t_out)[0]
        if len(leaves) != len(self.outputs):
            raise TypeError(f"{user_line()}: custom_jvp rule returned {len(leaves)} tangent(s) for "
                            f"{len(self.outputs)} output(s)")
        return [astype(asarray(t), o.dtype).value for t, o in zip(leaves, self.out_tracers)]


def _match_inputs(result, in_structure, what):
    """The cotangent leaves of bwd's result, one per input leaf (None leaves are zeros)."""
    if not isinstance(result, (tuple, list)):
        raise TypeError(f"{user_line()}: {what} must return a tuple with one cotangent per "
                        f"argument, got {type(result).__name__}")
    leaves, structure = flatten(list(result), is_leaf=lambda x: x is None)
    n_inputs = len(flatten(unflatten(in_structure, [0] * _count(in_structure)))[0])
    if len(leaves) != n_inputs:
        raise TypeError(f"{user_line()}: {what} returned {len(leaves)} cotangent leaves for "
                        f"{n_inputs} input leaves")
    return leaves


def _count(structure) -> int:
    from ..frontend.pytree import num_leaves
    return num_leaves(structure)


class _Custom:
    def __init__(self, fun, nondiff_argnums=()):
        if nondiff_argnums:
            raise NotImplementedError("nondiff_argnums: close over the argument instead")
        functools.update_wrapper(self, fun, updated=())  # see api._Transformed
        self._ad_fun = fun
        self._ad_jitted = None

    def _eager(self, args):
        if self._ad_jitted is None:
            self._ad_jitted = Jitted(lambda *a: self(*a))
        return self._ad_jitted(*args)

    def _call(self, args, forward, rule_fields):
        leaves, structure = flatten(list(args))
        copies = [fresh(x) for x in leaves]
        result = forward(*unflatten(structure, copies))
        # Numbered within the trace: the same program always gets the same text (and so
        # the same compile-cache key).
        rule = CustomRule(len(_trace_rules()) + 1, copies, structure, **rule_fields)
        if self.__class__ is custom_vjp:
            if not isinstance(result, (tuple, list)) or len(result) != 2:
                raise TypeError(f"{user_line()}: custom_vjp fwd must return (output, residuals)")
            result, res = result
            rule.residuals, rule.res_structure = flatten(res)
            rule.residuals = [asarray(r) if isinstance(r, (Tracer, np.ndarray, np.generic)) else r
                              for r in rule.residuals]
        out_leaves, rule.out_structure = flatten(result)
        rule.out_tracers = [asarray(x) for x in out_leaves]
        marked = [marker(t, "custom", {"mlc.custom_id": rule.ident}) for t in rule.out_tracers]
        rule.outputs = [m.value for m in marked]
        _trace_rules()[rule.ident] = rule
        return unflatten(rule.out_structure, marked)


class custom_vjp(_Custom):  # noqa: N801 - JAX's name
    """A function with a user-defined VJP: `f.defvjp(fwd, bwd)`, fwd(*args) -> (out, res),
    bwd(res, ct_out) -> a tuple with one cotangent per argument."""

    fwd = bwd = None

    def defvjp(self, fwd, bwd):
        self.fwd, self.bwd = fwd, bwd
        return self

    def __call__(self, *args):
        if self.fwd is None:
            raise TypeError(f"{user_line()}: custom_vjp {self._ad_fun.__name__} has no rule: call "
                            f"defvjp(fwd, bwd) first")
        if not tracing_active():
            return self._eager(args)
        return self._call(args, self.fwd, {"bwd": self.bwd})


class custom_jvp(_Custom):  # noqa: N801 - JAX's name
    """A function with a user-defined JVP: `@f.defjvp def f_jvp(primals, tangents):
    return f(*primals), tangent_out`."""

    jvp = None

    def defjvp(self, jvp):
        self.jvp = jvp
        return jvp

    def __call__(self, *args):
        if self.jvp is None:
            raise TypeError(f"{user_line()}: custom_jvp {self._ad_fun.__name__} has no rule: "
                            f"decorate one with @{self._ad_fun.__name__}.defjvp first")
        if not tracing_active():
            return self._eager(args)
        return self._call(args, self._ad_fun, {"jvp_fn": self.jvp})


def stop_gradient(x):
    """x, with a zero derivative: no tangent or cotangent flows through it (pytrees too)."""
    if not tracing_active():
        return x
    leaves, structure = flatten(x)
    return unflatten(structure, [marker(asarray(v), "stop_gradient") for v in leaves])
