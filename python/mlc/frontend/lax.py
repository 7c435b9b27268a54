"""mlc.lax: structured control flow and the lower-level ops, with jax.lax's signatures.

`cond` becomes an `scf.if` and `while_loop`/`fori_loop` an `scf.while` over tensors; their
branch and body functions are traced into the regions, so they may use any mlc.numpy op
(and values from the enclosing function).
"""

from __future__ import annotations

import numpy as np
from mlir import ir
from mlir.dialects import func, scf, tensor

from ..dialects import hlo
from .core import DEFAULT_INT, asarray, astype, constant, element_type, result_dtype, wrap
from .promotion import promote_types
from .pytree import flatten, unflatten
from .tracing import Tracer, current_trace, emit


def _types(tracers) -> list[ir.Type]:
    return [t.value.type for t in tracers]


def _specs(tracers) -> list[tuple]:
    return [(t.shape, t.dtype) for t in tracers]


def _outputs(result, expected=None, what="branch"):
    leaves, structure = flatten(result)
    tracers = [asarray(x) for x in leaves]
    if expected is not None:
        exp_structure, exp_specs = expected
        if structure != exp_structure or len(tracers) != len(exp_specs):
            raise TypeError(f"{what} outputs must have the same structure: {structure} vs {exp_structure}")
        fixed = []
        for t, (shape, dtype) in zip(tracers, exp_specs):
            if t.shape != shape:
                raise TypeError(f"{what} outputs must have the same shapes and dtypes: got "
                                f"{t.dtype}{list(t.shape)}, expected {dtype}{list(shape)}")
            fixed.append(astype(t, dtype) if t.weak else t)
            if fixed[-1].dtype != dtype:
                raise TypeError(f"{what} outputs must have the same shapes and dtypes: got "
                                f"{t.dtype}{list(t.shape)}, expected {dtype}{list(shape)}")
        tracers = fixed
    return tracers, structure


def _abstract_eval(fn, operands):
    """Output structure and (shape, dtype)s of fn(*operands), traced into a scratch function."""
    leaves, structure = flatten(list(operands))
    tracers = [asarray(x) for x in leaves]
    scratch = ir.Module.create()
    with ir.InsertionPoint(scratch.body):
        f = func.FuncOp("scratch", (_types(tracers), []))
        block = f.add_entry_block()
        with ir.InsertionPoint(block):
            args = [Tracer(v, t.shape, t.dtype, t.weak) for v, t in zip(block.arguments, tracers)]
            outs, out_structure = _outputs(fn(*unflatten(structure, args)))
            func.ReturnOp([])
    return out_structure, [(t.shape, t.dtype) for t in outs]


def _predicate(pred) -> ir.Value:
    pred = asarray(pred)
    if pred.ndim != 0:
        raise TypeError(f"the predicate must be a scalar, got shape {pred.shape}")
    pred = astype(pred, bool)
    return emit(tensor.extract, pred.value, [])


def cond(pred, true_fun, false_fun, *operands):
    """true_fun(*operands) if pred else false_fun(*operands), as an scf.if."""
    if isinstance(pred, (bool, np.bool_)):
        return (true_fun if pred else false_fun)(*operands)
    trace = current_trace()
    condition = _predicate(pred)
    structure, specs = _abstract_eval(true_fun, operands)
    result_types = [ir.RankedTensorType.get(list(s), element_type(d)) for s, d in specs]
    with trace.user_location():
        branch = scf.IfOp(condition, result_types, has_else=True)
    for block, fn in ((branch.then_block, true_fun), (branch.else_block, false_fun)):
        with ir.InsertionPoint(block):
            outs, _ = _outputs(fn(*operands), (structure, specs), "cond branch")
            scf.YieldOp([t.value for t in outs])
    return unflatten(structure, [wrap(v) for v in branch.results])


def while_loop(cond_fun, body_fun, init_val):
    """Repeats val = body_fun(val) while cond_fun(val), as an scf.while.

    As JAX: a weakly typed init (a Python scalar) takes the dtype the body gives it
    (`fori_loop(0, n, lambda i, c: c + x64, 0.0)` carries float64); the loop is traced
    again with the promoted init."""
    leaves, structure = flatten(init_val)
    inits = [asarray(x) for x in leaves]
    weak = [t.weak for t in inits]
    dtypes = [t.dtype for t in inits]
    while True:
        typed = [astype(t, d) for t, d in zip(inits, dtypes)]  # weak scalars become ordinary values
        result, promoted = _while(cond_fun, body_fun, structure, typed, weak)
        if promoted is None:
            return result
        dtypes = promoted


def _while(cond_fun, body_fun, structure, inits, weak):
    """(the loop's results, None), or (None, promoted init dtypes) when a weak init must
    take the body's dtype (the loop built is erased)."""
    trace = current_trace()
    specs = _specs(inits)
    types = _types(inits)
    with trace.user_location():
        loop = scf.WhileOp(types, [t.value for t in inits])
    before = loop.before.blocks.append(*types)
    with ir.InsertionPoint(before):
        state = unflatten(structure, [Tracer(v, s, d) for v, (s, d) in zip(before.arguments, specs)])
        scf.ConditionOp(_predicate(cond_fun(state)), list(before.arguments))
    after = loop.after.blocks.append(*types)
    with ir.InsertionPoint(after):
        state = unflatten(structure, [Tracer(v, s, d) for v, (s, d) in zip(after.arguments, specs)])
        body = body_fun(state)
        got = [asarray(x) for x in flatten(body)[0]]
        if len(got) == len(specs):
            promoted = [(t.dtype if not t.weak else promote_types(d, t.dtype))
                        if w and t.shape == s and t.dtype != d else d
                        for t, w, (s, d) in zip(got, weak, specs)]
            if promoted != [d for _, d in specs]:
                loop.operation.erase()
                return None, promoted
        outs, _ = _outputs(body, (structure, specs), "while_loop body")
        scf.YieldOp([t.value for t in outs])
    return unflatten(structure, [wrap(v) for v in loop.results]), None


def fori_loop(lower: int, upper: int, body_fun, init_val):
    """for i in range(lower, upper): val = body_fun(i, val)."""
    from .math import add, less
    start = constant(np.asarray(lower, DEFAULT_INT)) if not isinstance(lower, Tracer) else lower
    state = while_loop(lambda s: less(s[0], upper), lambda s: (add(s[0], 1), body_fun(s[0], s[1])),
                       (start, init_val))
    return state[1]


def scan(f, init, xs=None, length: int | None = None):
    """jax.lax.scan: carry, y = f(carry, x) for each x along xs' leading axis; returns
    (final carry, ys stacked along a new leading axis). An scf.while writes each y into
    its slot of ys with dynamic_update_slice."""
    from .math import add, less
    x_leaves, x_structure = flatten(xs)
    x_tracers = [asarray(x) for x in x_leaves]
    lengths = {t.shape[0] for t in x_tracers if t.ndim}
    if length is None:
        if len(lengths) != 1:
            raise ValueError(f"scan needs xs with one common leading length (or length=), got {sorted(lengths)}")
        length = lengths.pop()
    elif lengths and lengths != {length}:
        raise ValueError(f"scan length {length} does not match xs leading sizes {sorted(lengths)}")

    def slice_x(i):
        from .indexing import getitem
        return unflatten(x_structure, [getitem(t, i) for t in x_tracers])

    zero = constant(np.asarray(0, DEFAULT_INT))
    out_structure, out_specs = _abstract_eval(lambda c: f(c, slice_x(zero)), [init])
    (carry_structure, y_structure) = out_structure[1] if out_structure[0] == "tuple" else (None, None)
    if carry_structure is None or len(out_structure[1]) != 2:
        raise TypeError("scan's f must return a pair (carry, y)")
    c_leaves, _ = flatten(init)
    n_carry = len(c_leaves)
    y_specs = out_specs[n_carry:]
    ys = [constant(np.zeros((length,) + tuple(s), d)) for s, d in y_specs]

    def body(state):
        i, carry, stacked = state
        new_carry, y = f(carry, slice_x(i))
        y_leaves, _ = flatten(y)
        updated = []
        for buffer, leaf in zip(stacked, y_leaves):
            leaf = astype(asarray(leaf), buffer.dtype)
            row = wrap(emit(hlo.reshape, leaf.value, (1,) + leaf.shape))
            starts = [i] + [zero] * leaf.ndim
            updated.append(wrap(emit(hlo.dynamic_update_slice, buffer.value, row.value, [s.value for s in starts])))
        return add(i, 1), new_carry, updated

    _, carry, stacked = while_loop(lambda s: less(s[0], length), body, (zero, init, ys))
    return carry, unflatten(y_structure, stacked)


def dot_general(lhs, rhs, dimension_numbers, precision=None, preferred_element_type=None):
    """jax.lax.dot_general: dimension_numbers = ((lhs_contract, rhs_contract), (lhs_batch, rhs_batch))."""
    from .linalg import dot_general as _dot
    (lc, rc), (lb, rb) = dimension_numbers
    return _dot(lhs, rhs, (tuple(lc), tuple(rc)), (tuple(lb), tuple(rb)), preferred_element_type)


_COMBINER_NAMES = {"add": "add", "mul": "mul", "max": "max", "min": "min"}


def reduce_window(operand, init_value, computation, window_dimensions, window_strides=None,
                  padding="VALID", base_dilation=None, window_dilation=None):
    """jax.lax.reduce_window; `computation` is "add"|"mul"|"max"|"min" or lax.add/mul/max/min."""
    kind = _COMBINER_NAMES.get(getattr(computation, "__name__", computation))
    if kind is None:
        raise NotImplementedError(f"reduce_window computation {computation!r}: use add, mul, max or min")
    x = asarray(operand)
    init = astype(asarray(init_value), x.dtype)
    strides = list(window_strides or [1] * x.ndim)
    pads = _padding(padding, x.shape, window_dimensions, strides, window_dilation)
    return wrap(emit(hlo.reduce_window, x.value, init.value, list(window_dimensions), kind, strides,
                     base_dilation, window_dilation, pads))


def add(x, y):
    from .math import add as _add
    return _add(x, y)


def mul(x, y):
    from .math import multiply
    return multiply(x, y)


def max(x, y):  # noqa: A001 - jax.lax's name
    from .math import maximum
    return maximum(x, y)


def min(x, y):  # noqa: A001
    from .math import minimum
    return minimum(x, y)


def _padding(padding, shape, window, strides, dilation):
    if not isinstance(padding, str):
        return [tuple(p) for p in padding]
    if padding == "VALID":
        return [(0, 0)] * len(shape)
    if padding != "SAME":
        raise ValueError(f"padding must be 'SAME', 'VALID' or (low, high) pairs, got {padding!r}")
    dilation = dilation or [1] * len(shape)
    pads = []
    for n, w, s, d in zip(shape, window, strides, dilation):
        span = (w - 1) * d + 1
        out = -(-n // s)
        total = _builtin_max((out - 1) * s + span - n, 0)
        pads.append((total // 2, total - total // 2))
    return pads


def _builtin_max(a, b):
    return a if a > b else b


def conv_general_dilated(lhs, rhs, window_strides, padding, lhs_dilation=None, rhs_dilation=None,
                         dimension_numbers=None, feature_group_count=1, batch_group_count=1,
                         precision=None, preferred_element_type=None):
    """jax.lax.conv_general_dilated; dimension_numbers as layout strings, e.g.
    ("NHWC", "HWIO", "NHWC"), default ("NCHW", "OIHW", "NCHW") style for any rank."""
    lhs, rhs = asarray(lhs), asarray(rhs)
    if preferred_element_type is not None:  # products and sums in the preferred type
        wide = promote_types(result_dtype(lhs, rhs), preferred_element_type)
        lhs, rhs = astype(lhs, wide), astype(rhs, wide)
    elif lhs.dtype != rhs.dtype:
        dtype = result_dtype(lhs, rhs)
        lhs, rhs = astype(lhs, dtype), astype(rhs, dtype)
    n = lhs.ndim - 2
    if dimension_numbers is None:
        spatial = "".join("DHW"[3 - n:]) if n <= 3 else None
        dimension_numbers = ("NC" + spatial, "OI" + spatial, "NC" + spatial)
    lhs_spec, rhs_spec, out_spec = dimension_numbers
    spatial_letters = [c for c in rhs_spec if c not in "OI"]
    kernel_spatial = [rhs.shape[rhs_spec.index(c)] for c in spatial_letters]
    lhs_spatial_shape = [lhs.shape[lhs_spec.index(c)] for c in spatial_letters]
    dilated = [(s - 1) * d + 1 for s, d in zip(lhs_spatial_shape, lhs_dilation or [1] * n)]
    pads = _padding(padding, dilated, kernel_spatial, window_strides, rhs_dilation)
    out = wrap(emit(hlo.convolution, lhs.value, rhs.value,
                    input_batch_dimension=lhs_spec.index("N"), input_feature_dimension=lhs_spec.index("C"),
                    input_spatial_dimensions=[lhs_spec.index(c) for c in spatial_letters],
                    kernel_input_feature_dimension=rhs_spec.index("I"),
                    kernel_output_feature_dimension=rhs_spec.index("O"),
                    kernel_spatial_dimensions=[rhs_spec.index(c) for c in spatial_letters],
                    output_batch_dimension=out_spec.index("N"), output_feature_dimension=out_spec.index("C"),
                    output_spatial_dimensions=[out_spec.index(c) for c in spatial_letters],
                    window_strides=list(window_strides), padding=pads, lhs_dilation=lhs_dilation,
                    rhs_dilation=rhs_dilation, feature_group_count=feature_group_count,
                    batch_group_count=batch_group_count))
    return out if preferred_element_type is None else astype(out, preferred_element_type)
