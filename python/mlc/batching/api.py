"""mlc.vmap: JAX's vmap on MLC, as an IR transformation of the traced function.

`vmap(f)(*args)` inside a trace: each mapped input leaf gets its batch axis moved first
and a per-example stand-in (its row 0, an hlo.slice + reshape), f is traced inline on the
stand-ins, `Batcher` batches the ops the trace appended, the outputs get their batch axis
moved to out_axes, and the per-example ops (now dead) are erased. Outside a trace, on numpy
arrays, the function runs through an mlc.jit of itself (compiled once per signature), as
grad does. Errors name the user's line and use JAX's wording.
"""

from __future__ import annotations

from mlir import ir

from ..autodiff.api import _Transformed, user_line
from ..autodiff.capture import emitted_by
from ..dialects import hlo
from ..frontend.core import asarray, wrap
from ..frontend.pytree import LEAF, flatten, unflatten
from ..frontend.tracing import Tracer, emit
from ..tree_util import PyTreeDef
from .errors import BatchingError
from .values import move_dim
from .walker import Batcher


def _check_axes_spec(spec, name: str) -> None:
    leaves, _ = flatten(spec, is_leaf=lambda x: x is None)
    for leaf in leaves:
        if leaf is not None and (isinstance(leaf, bool) or not isinstance(leaf, int)):
            raise TypeError(f"{user_line()}: vmap {name} must be an int, None, or (nested) "
                            f"container with those types as leaves, but got {spec}.")


def _prefix_axes(spec, tree, name: str) -> list:
    """One axis per leaf of `tree`: `spec` is a tree prefix of it (JAX's rule)."""
    _, structure = flatten(tree)
    _, spec_structure = flatten(spec, is_leaf=lambda x: x is None)
    spec_leaves = iter(flatten(spec, is_leaf=lambda x: x is None)[0])
    axes: list = []

    def count(node) -> int:
        if node == LEAF:
            return 1
        if node[0] == "none":
            return 0
        return sum(count(c) for c in node[-1])

    def match(p, t) -> bool:
        if p == LEAF:
            axes.extend([next(spec_leaves)] * count(t))
            return True
        if p[0] != t[0] or p[:-1] != t[:-1] or len(p[-1]) != len(t[-1]):
            return False
        return all(match(pc, tc) for pc, tc in zip(p[-1], t[-1]))

    if not match(spec_structure, structure):
        raise ValueError(f"{user_line()}: vmap {name} specification must be a tree prefix of the "
                         f"corresponding value, got specification {spec} for value tree "
                         f"{PyTreeDef(structure)}.")
    return axes


def _describe(x) -> str:
    return f"{x.dtype}{list(x.shape)}".replace(" ", "")


def _batch_size(mapped, axis_size) -> int:
    """The common size of the mapped axes; JAX's error naming each one otherwise."""
    sizes = {x.shape[axis] for _, x, axis in mapped}
    if axis_size is not None:
        sizes.add(int(axis_size))
    if len(sizes) == 1:
        return sizes.pop()
    lines = [f"  * one axis had size {x.shape[axis]}: axis {axis} of {where} of type {_describe(x)}"
             for where, x, axis in mapped]
    if axis_size is not None:
        lines.append(f"  * axis_size was {axis_size}")
    raise ValueError(f"{user_line()}: vmap got inconsistent sizes for array axes to be mapped:\n"
                     + ";\n".join(lines))


def _stand_in(x: Tracer, axis: int) -> tuple[Tracer, ir.Value]:
    """(the per-example stand-in for x mapped at `axis`, x with that axis first)."""
    first = emit(move_dim, x.value, axis, 0) if axis else x.value
    s = list(x.shape[:axis] + x.shape[axis + 1:])
    row = emit(hlo.slice, first, [0] * (len(s) + 1), [1] + s)
    per_example = emit(hlo.reshape, row, s)
    return Tracer(per_example, tuple(s), x.dtype), first


def _erase_dead(ops) -> None:
    """Erases the ops (in reverse order) whose results nobody reads any more."""
    for op in reversed(ops):
        op = op.operation
        if all(not list(r.uses) for r in op.results):
            op.erase()


def _vmap_traced(fun, in_axes, out_axes, axis_size, args, kwargs):
    if isinstance(in_axes, tuple) and len(in_axes) != len(args):
        raise ValueError(f"{user_line()}: vmap in_axes must be an int, None, or a tuple of entries "
                         f"corresponding to the positional arguments passed to the function, but "
                         f"got len(in_axes)={len(in_axes)}, len(args)={len(args)}")
    leaves, structure = flatten((list(args), kwargs))
    axes = _prefix_axes((list(in_axes) if isinstance(in_axes, tuple) else in_axes,
                         {k: 0 for k in kwargs}), (list(args), kwargs), "in_axes")
    mapped = []  # (description, Tracer, axis)
    arrays = list(leaves)
    for k, (x, axis) in enumerate(zip(leaves, axes)):
        if axis is None:
            continue
        x = asarray(x)
        arrays[k] = x
        where = f"argument {k}" if len(leaves) > 1 else "argument"
        if not -x.ndim <= axis < max(x.ndim, 1) or x.ndim == 0:
            raise ValueError(f"{user_line()}: vmap was requested to map its argument along axis "
                             f"{axis}, which implies that its rank should be at least "
                             f"{(axis + 1) if axis >= 0 else -axis}, but is only {x.ndim} (its "
                             f"shape is {x.shape})")
        mapped.append((where, x, axis % x.ndim))
    if not mapped and axis_size is None:
        raise ValueError(f"{user_line()}: vmap must have at least one non-None value in in_axes")
    size = _batch_size(mapped, axis_size)
    ip = ir.InsertionPoint.current
    before = len(list(ip.block.operations))
    walker = Batcher(size, clone=False)
    k_mapped = 0
    for k, axis in enumerate(axes):
        if axis is None:
            continue
        stand_in, first = _stand_in(arrays[k], mapped[k_mapped][2])
        k_mapped += 1
        arrays[k] = stand_in
        walker.set(stand_in.value, first, True)
    stand_in_ops = [op.operation for op in list(ip.block.operations)[before:]]
    call_args, call_kwargs = unflatten(structure, arrays)
    result, ops = emitted_by(fun, *call_args, **call_kwargs)
    walker.run(ops)
    out_leaves, out_structure = flatten(result)
    out_spec = out_axes if not isinstance(out_axes, list) else tuple(out_axes)
    out_axes_list = _prefix_axes(out_spec, result, "out_axes")
    outs = []
    for leaf, axis in zip(out_leaves, out_axes_list):
        t = asarray(leaf)
        arg = walker.get(t.value)
        if axis is None:
            if arg.batched:
                raise ValueError(f"{user_line()}: vmap has mapped output but out_axes is None")
            outs.append(t)
            continue
        rank = t.ndim + 1
        if not -rank <= axis < rank:
            raise ValueError(f"{user_line()}: vmap out_axes {axis} is out of bounds for an output "
                             f"of rank {t.ndim} (batched rank {rank})")
        value = arg.value if arg.batched else emit(
            hlo.broadcast_in_dim, t.value, [size, *t.shape], list(range(1, rank)))
        outs.append(wrap(emit(move_dim, value, 0, axis % rank)))
    _erase_dead(stand_in_ops + ops)
    return unflatten(out_structure, outs)


def vmap(fun, in_axes=0, out_axes=0, axis_name=None, axis_size=None, spmd_axis_name=None):
    """f -> its version mapped over an axis of its inputs (JAX's vmap).

    in_axes: an int, None, or a tuple with one entry per positional argument, each a tree
    prefix of that argument (ints or None at the leaves); negative axes count from the end;
    keyword arguments are mapped over axis 0. out_axes: the same for the outputs (None: the
    output must not depend on the mapped inputs). axis_size: the batch size when every
    in_axes entry is None. axis_name (collectives over the mapped axis) is not supported."""
    if isinstance(in_axes, list):
        raise TypeError(f"{user_line()}: vmap in_axes must be an int, None, or a tuple of entries "
                        f"corresponding to the positional arguments passed to the function, but "
                        f"got {in_axes}.")
    _check_axes_spec(in_axes, "in_axes")
    _check_axes_spec(out_axes, "out_axes")
    if axis_name is not None or spmd_axis_name is not None:
        raise NotImplementedError(f"{user_line()}: vmap's axis_name (collectives over the mapped "
                                  f"axis) is not supported by MLC")

    def impl(*args, **kwargs):
        try:
            return _vmap_traced(fun, in_axes, out_axes, axis_size, args, kwargs)
        except BatchingError as e:
            raise BatchingError(e.message, e.location) from None
    return _Transformed(fun, impl, (), "vmap")
