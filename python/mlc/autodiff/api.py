"""JAX's autodiff API on MLC: grad, value_and_grad, vjp, jvp, jacfwd, jacrev, hessian.

Each transformation traces the function *inline* into the function being traced (the
enclosing mlc.jit, or a nested transformation) at fresh copies of the differentiated
inputs, then runs the reverse (`vjp.py`) or forward (`jvp.py`) walker over the ops the
trace appended: the derivative is ordinary hlo in the same function, so hlo-optimize and
hlo-fuse see forward and backward together and remove forward work nobody needs. Nested
transformations (grad of grad, jacfwd of jacrev) just differentiate the derivative ops.

Called on numpy arrays outside a trace, a transformed function runs through an mlc.jit of
itself, compiled once per signature (arguments that are not differentiated and are Python
ints, bools or other non-array objects are compile-time constants).
"""

from __future__ import annotations

import functools
import os
import sys

import numpy as np
from mlir import ir as _mlir_ir

from ..frontend.core import asarray, astype, constant
from ..frontend.jit import Jitted
from ..frontend.pytree import flatten, unflatten
from ..frontend.tracing import Tracer, tracing_active
from .capture import as_tracer, emitted_by, fresh
from .jvp import jvp_of_ops
from .values import differentiable, full
from .vjp import vjp_of_ops

# MLC's package and the MLIR bindings' (the jit's tracing runs through both).
_SKIPPED_DIRS = (os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                 os.path.dirname(os.path.abspath(_mlir_ir.__file__)))


def user_line() -> str:
    """file:line of the innermost frame outside MLC and the MLIR bindings."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_code.co_filename.startswith(_SKIPPED_DIRS):
        frame = frame.f_back
    return f"{frame.f_code.co_filename}:{frame.f_lineno}" if frame is not None else "<unknown>"


def _fun_name(fun) -> str:
    name = getattr(fun, "__name__", type(fun).__name__)
    code = getattr(fun, "__code__", None)
    return f"{name} ({code.co_filename}:{code.co_firstlineno})" if code is not None else name


def _leaf_dtype(x) -> np.dtype:
    if isinstance(x, Tracer):
        return x.dtype
    if isinstance(x, bool):
        return np.dtype(np.bool_)
    if isinstance(x, int) and not isinstance(x, np.generic):
        return np.dtype(np.int32)
    if isinstance(x, float) and not isinstance(x, np.generic):
        return np.dtype(np.float32)
    return np.asarray(x).dtype


def _check_real(transform: str, leaves) -> None:
    for x in leaves:
        dtype = _leaf_dtype(x)
        if dtype.kind != "f":
            raise TypeError(f"{user_line()}: {transform} requires real-valued inputs (input dtype "
                            f"that is a sub-dtype of np.inexact), but got {dtype.name}. If you "
                            f"want to use integer-valued inputs, use vjp or set allow_int to True.")


def _argnums(argnums, nargs: int, transform: str) -> tuple[int, ...]:
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for i in nums:
        if not -nargs <= i < nargs:
            raise TypeError(f"{user_line()}: {transform}: argnums {i} is out of range for a call "
                            f"with {nargs} positional argument(s)")
    return tuple(i % nargs for i in nums)


def _is_array_tree(x) -> bool:
    """Arrays, Python floats and pytrees of them: traced. Python ints and bools and other
    objects are compile-time constants (as in JAX's eager mode, `range(n)` works)."""
    leaves, _ = flatten(x)
    return all(isinstance(v, (np.ndarray, np.generic, Tracer, float)) for v in leaves)


class _Transformed:
    """A transformed function: traced inline inside a trace, jit-compiled on arrays."""

    def __init__(self, fun, impl, diff_argnums, name):
        # Not fun's __dict__: a Jitted's `fun` would land here, and from here in the
        # __dict__ of a jit of this (which copies it over its own `fun`).
        functools.update_wrapper(self, fun, updated=())
        self._ad_impl = impl  # impl(*args, **kwargs), called while tracing
        self._ad_argnums = diff_argnums
        self._ad_jitted: dict = {}
        self.__name__ = f"{name}({getattr(fun, '__name__', 'f')})"

    def __call__(self, *args, **kwargs):
        if tracing_active():
            return self._ad_impl(*args, **kwargs)
        diff = _argnums(self._ad_argnums, len(args), self.__name__) if args else ()
        static = {i: a for i, a in enumerate(args) if i not in diff and not _is_array_tree(a)}
        try:
            key = tuple((i, type(a), a) for i, a in static.items())  # 1 and True differ
            hash(key)
        except TypeError:
            raise TypeError(f"{user_line()}: {self.__name__}: argument(s) {sorted(static)} are "
                            f"neither arrays nor hashable constants") from None
        jitted = self._ad_jitted.get(key)
        if jitted is None:
            jitted = self._ad_jitted[key] = Jitted(_with_constants(self._ad_impl, static, len(args)))
        return jitted(*[a for i, a in enumerate(args) if i not in static], **kwargs)

    def cache_info(self):
        """mlc.jit's cache statistics, summed over this function's compiled variants."""
        infos = [j.cache_info() for j in self._ad_jitted.values()]
        return tuple(sum(column) for column in zip(*infos)) if infos else (0, 0, 0)


def _with_constants(impl, constants: dict, nargs: int):
    """impl over the arguments that are not in `constants` (position -> value)."""
    def call(*dynamic, **kwargs):
        it = iter(dynamic)
        return impl(*[constants[i] if i in constants else next(it) for i in range(nargs)], **kwargs)
    call.__name__ = getattr(impl, "__name__", "transformed")
    return call


def _fresh_args(args, argnums):
    """args with the differentiated ones replaced by fresh copies; the copies, per argnum."""
    args = list(args)
    copies = []
    for i in argnums:
        leaves, structure = flatten(args[i])
        new = [fresh(x) for x in leaves]
        copies.append((structure, new))
        args[i] = unflatten(structure, new)
    return args, copies


def _zeros_or(value, like: Tracer) -> Tracer:
    if value is None:
        return constant(np.zeros(like.shape, like.dtype))
    return as_tracer(value, like.dtype)


def _split_aux(result, has_aux: bool, transform: str):
    if not has_aux:
        return result, None
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise TypeError(f"{user_line()}: {transform} with has_aux=True needs the function to "
                        f"return a pair (output, aux), got {type(result).__name__}")
    return result[0], result[1]


# --- reverse mode -------------------------------------------------------------------------

def _value_and_grad_traced(fun, argnums, has_aux, transform, args, kwargs):
    nums = _argnums(argnums, len(args), transform)
    for i in nums:
        _check_real(transform, flatten(args[i])[0])
    new_args, copies = _fresh_args(args, nums)
    result, ops = emitted_by(fun, *new_args, **kwargs)
    out, aux = _split_aux(result, has_aux, transform)
    if isinstance(out, (tuple, list, dict)) or out is None:
        raise TypeError(f"{user_line()}: Gradient only defined for scalar-output functions; "
                        f"{_fun_name(fun)} returned a {type(out).__name__}")
    out = asarray(out)
    if out.shape != ():
        raise TypeError(f"{user_line()}: Gradient only defined for scalar-output functions. "
                        f"Output had shape: {out.shape} (from {_fun_name(fun)})")
    if out.dtype.kind != "f":
        raise TypeError(f"{user_line()}: {transform} requires real-valued outputs (output dtype "
                        f"that is a sub-dtype of np.floating), but got {out.dtype.name} "
                        f"(from {_fun_name(fun)})")
    inputs = [t for _, leaves in copies for t in leaves]
    one = full((), out.value.type.element_type, 1)
    cts = vjp_of_ops(ops, [out.value], [one], [t.value for t in inputs])
    grads, k = [], 0
    for structure, leaves in copies:
        grads.append(unflatten(structure, [_zeros_or(c, t) for c, t in zip(cts[k:k + len(leaves)], leaves)]))
        k += len(leaves)
    grad = grads[0] if isinstance(argnums, int) else tuple(grads)
    return out, grad, aux


def value_and_grad(fun, argnums=0, has_aux=False):
    """f -> (x -> (f(x), df/dx)); with has_aux, f returns (out, aux) and this gives
    ((out, aux), grad). argnums: an int or a tuple of ints (then grad is a tuple)."""
    def impl(*args, **kwargs):
        out, grad, aux = _value_and_grad_traced(fun, argnums, has_aux, "value_and_grad", args, kwargs)
        return ((out, aux), grad) if has_aux else (out, grad)
    return _Transformed(fun, impl, argnums, "value_and_grad")


def grad(fun, argnums=0, has_aux=False):
    """f -> df/dx for a scalar-valued f (with has_aux: (df/dx, aux))."""
    def impl(*args, **kwargs):
        _, g, aux = _value_and_grad_traced(fun, argnums, has_aux, "grad", args, kwargs)
        return (g, aux) if has_aux else g
    return _Transformed(fun, impl, argnums, "grad")


def vjp(fun, *primals, has_aux=False):
    """(f(*primals), f_vjp) where f_vjp(ct) gives one cotangent per primal (a tuple);
    with has_aux, (out, f_vjp, aux). Inside a trace, call f_vjp in the same trace."""
    if not tracing_active():
        return _eager_vjp(fun, primals, has_aux)
    leaves, structure = flatten(list(primals))
    copies = [fresh(x) for x in leaves]
    result, ops = emitted_by(fun, *unflatten(structure, copies))
    out, aux = _split_aux(result, has_aux, "vjp")
    out_leaves, out_structure = flatten(out)
    outs = [asarray(x) for x in out_leaves]

    def f_vjp(ct):
        ct_leaves, ct_structure = flatten(ct)
        if ct_structure != out_structure:
            raise TypeError(f"{user_line()}: the cotangent must have the structure of the "
                            f"output: {ct_structure} vs {out_structure}")
        values = []
        for c, o in zip(ct_leaves, outs):
            c = asarray(c)
            if c.shape != o.shape:
                raise ValueError(f"{user_line()}: cotangent of shape {c.shape} for an output "
                                 f"of shape {o.shape}")
            values.append(astype(c, o.dtype).value if differentiable(o.value) else None)
        cts = vjp_of_ops(ops, [o.value for o in outs], values, [t.value for t in copies])
        return tuple(unflatten(structure, [_zeros_or(c, t) for c, t in zip(cts, copies)]))
    out = unflatten(out_structure, outs)
    return (out, f_vjp, aux) if has_aux else (out, f_vjp)


@functools.lru_cache(maxsize=128)
def _eager_vjp_functions(fun, has_aux):
    forward = Jitted(lambda *p: fun(*p))

    def backward(primals, ct):
        return vjp(fun, *primals, has_aux=has_aux)[1](ct)
    return forward, Jitted(backward)


def _eager_vjp(fun, primals, has_aux):
    forward, backward = _eager_vjp_functions(fun, has_aux)
    result = forward(*primals)
    out, aux = _split_aux(result, has_aux, "vjp")

    def f_vjp(ct):
        return backward(tuple(primals), ct)
    return (out, f_vjp, aux) if has_aux else (out, f_vjp)


# --- forward mode -------------------------------------------------------------------------

def jvp(fun, primals, tangents, has_aux=False):
    """(f(*primals), the directional derivative of f at primals along tangents)."""
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError(f"{user_line()}: jvp takes primals and tangents as tuples or lists")
    if not tracing_active():
        return _eager_jvp(fun, has_aux)(tuple(primals), tuple(tangents))
    leaves, structure = flatten(list(primals))
    t_leaves, t_structure = flatten(list(tangents))
    if t_structure != structure:
        raise TypeError(f"{user_line()}: primal and tangent arguments to jvp must have the same "
                        f"tree structure: {structure} vs {t_structure}")
    copies = [fresh(x) for x in leaves]
    seeds = []
    for x, t in zip(copies, t_leaves):
        t = asarray(t)
        if t.shape != x.shape:
            raise ValueError(f"{user_line()}: jvp: tangent of shape {t.shape} for a primal of "
                             f"shape {x.shape}")
        seeds.append(astype(t, x.dtype).value if differentiable(x.value) else None)
    result, ops = emitted_by(fun, *unflatten(structure, copies))
    out, aux = _split_aux(result, has_aux, "jvp")
    out_leaves, out_structure = flatten(out)
    outs = [asarray(x) for x in out_leaves]
    tans = jvp_of_ops(ops, [t.value for t in copies], seeds, [o.value for o in outs])
    t_out = [_zeros_or(t, o) for t, o in zip(tans, outs)]
    res = (unflatten(out_structure, outs), unflatten(out_structure, t_out))
    return res + (aux,) if has_aux else res


@functools.lru_cache(maxsize=128)
def _eager_jvp(fun, has_aux):
    return Jitted(lambda p, t: jvp(fun, p, t, has_aux=has_aux))


# --- Jacobians ----------------------------------------------------------------------------

def _pieces(flat: Tracer, axis: int, leaves) -> list[Tracer]:
    """`flat`'s `axis` cut into one piece per leaf (leaf.size long, in order), each piece's
    axis reshaped to the leaf's shape."""
    from ..dialects import hlo
    from ..frontend.core import wrap
    from ..frontend.shapes import reshape
    from ..frontend.tracing import emit
    pieces, offset = [], 0
    for leaf in leaves:
        start, limit = [0] * flat.ndim, list(flat.shape)
        start[axis], limit[axis] = offset, offset + leaf.size
        piece = wrap(emit(hlo.slice, flat.value, start, limit, [1] * flat.ndim))
        shape = list(flat.shape)
        shape[axis:axis + 1] = leaf.shape
        pieces.append(reshape(piece, tuple(shape)))
        offset += leaf.size
    return pieces


def _jacobian(fun, argnums, has_aux, mode, args, kwargs):
    """JAX's construction: jacfwd pushes the rows of the identity (one per input element)
    forward through one vmapped JVP, jacrev pulls the rows of the identity (one per output
    element) back through one vmapped VJP. Not one JVP/VJP per element: a jacfwd over 200
    inputs was 200 copies of the derivative graph and took 81 s to compile (1 s batched)."""
    from ..batching.api import vmap
    from ..frontend.creation import eye
    transform = "jacfwd" if mode == "fwd" else "jacrev"
    nums = _argnums(argnums, len(args), transform)
    for i in nums:
        _check_real(transform, flatten(args[i])[0])
    primals = tuple(args[i] for i in nums)
    in_leaves = [asarray(x) for x in flatten(list(primals))[0]]
    _, in_structure = flatten(list(primals))

    def partial(*selected):
        full_args = list(args)
        for i, value in zip(nums, selected):
            full_args[i] = value
        return fun(*full_args, **kwargs)

    result = partial(*primals)
    out, aux = _split_aux(result, has_aux, transform)
    out_leaves, out_structure = flatten(out)
    outs = [asarray(x) for x in out_leaves]
    # blocks[o][i]: d out_o / d in_i with shape out_o.shape + in_i.shape.
    blocks = [[None] * len(in_leaves) for _ in outs]
    n, m = sum(x.size for x in in_leaves), sum(o.size for o in outs)
    if n == 0 or m == 0:  # nothing to push or pull: every block is empty
        for o, out_t in enumerate(outs):
            for i, x in enumerate(in_leaves):
                like = out_t if mode == "fwd" else x
                blocks[o][i] = constant(np.zeros(out_t.shape + x.shape, like.dtype))
    elif mode == "fwd":
        dtype = np.result_type(*[x.dtype for x in in_leaves])

        def pushforward(seed):
            tangents = unflatten(in_structure, _pieces(seed, 0, in_leaves))
            return flatten(jvp(partial, primals, tuple(tangents), has_aux=has_aux)[1])[0]
        columns = vmap(pushforward, out_axes=-1)(eye(n, dtype=dtype))  # out_o.shape + (n,)
        for o, column in enumerate(columns):
            for i, piece in enumerate(_pieces(asarray(column), len(outs[o].shape), in_leaves)):
                blocks[o][i] = piece
    else:
        pullback = vjp(partial, *primals, has_aux=has_aux)[1]
        dtype = np.result_type(*[o.dtype for o in outs])

        def pull(ct):
            return flatten(list(pullback(unflatten(out_structure, _pieces(ct, 0, outs)))))[0]
        rows = vmap(pull)(eye(m, dtype=dtype))  # (m,) + in_i.shape
        for i, row in enumerate(rows):
            for o, piece in enumerate(_pieces(asarray(row), 0, outs)):
                blocks[o][i] = piece

    def per_argnum(row):
        parts, k = [], 0
        for i in nums:
            leaves, structure = flatten(args[i])
            parts.append(unflatten(structure, row[k:k + len(leaves)]))
            k += len(leaves)
        return parts[0] if isinstance(argnums, int) else tuple(parts)
    jac = unflatten(out_structure, [per_argnum(row) for row in blocks])
    return (jac, aux) if has_aux else jac


def jacfwd(fun, argnums=0, has_aux=False):
    """The Jacobian by forward mode: the JVP of each input element's unit vector, as one
    vmapped JVP. Shape out.shape + in.shape."""
    return _Transformed(fun, lambda *a, **k: _jacobian(fun, argnums, has_aux, "fwd", a, k),
                        argnums, "jacfwd")


def jacrev(fun, argnums=0, has_aux=False):
    """The Jacobian by reverse mode: the VJP of each output element's unit vector, as one
    vmapped VJP. Shape out.shape + in.shape."""
    return _Transformed(fun, lambda *a, **k: _jacobian(fun, argnums, has_aux, "rev", a, k),
                        argnums, "jacrev")


def hessian(fun, argnums=0, has_aux=False):
    """jacfwd(jacrev(f)): the matrix of second derivatives of a scalar f."""
    return jacfwd(jacrev(fun, argnums, has_aux), argnums, has_aux)
