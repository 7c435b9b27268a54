"""Every differentiable hlo op's VJP and JVP rule against float64 central differences,
and the registry's completeness.

Checking a derivative compiles nothing: the function is traced to hlo, the hlo-grad and
hlo-jvp passes build its derivative functions, and mlc.reference (the numpy interpreter)
runs them in float64 against central differences of the function itself."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.lax as lax
import mlc.numpy as mnp
from mlc.autodiff.registry import JVP_RULES, NON_DIFFERENTIABLE, VJP_RULES, load_rules
from mlc.compiler import run_passes
from mlc.context import make_context
from mlc.diagnostics import parse_module
from mlc.dialects import hlo
from mlc.dialects.hlo.ops import OPS
from mlc.frontend.core import wrap
from mlc.frontend.tracing import emit
from mlc.passes import get_pass_class
from mlc.reference.interpreter import Interpreter


def op(build, *operands, **attributes):
    """An hlo op on Tracers inside a traced function (for ops mlc.numpy does not expose)."""
    values = [[v.value for v in x] if isinstance(x, (list, tuple)) else x.value for x in operands]
    return wrap(emit(build, *values, **attributes))


def derivative_module(fn, *args):
    """fn traced at args, with @main_grad and @main_jvp added (checked by hlo-verify)."""
    text = mlc.jit(fn).lower(*args).as_text()
    module = parse_module(text, make_context())
    run_passes(module, [get_pass_class("hlo-grad")(func="main"), get_pass_class("hlo-jvp")(func="main"),
                        get_pass_class("hlo-verify")()])
    return module


def runner(module):
    """entry, *arrays -> the interpreted results, as a tuple (the module parsed once)."""
    interpreter = Interpreter(module)

    def run(entry, *arrays):
        with module.context, np.errstate(all="ignore"):
            return tuple(np.array(r) for r in interpreter.call(entry, [np.asarray(a) for a in arrays]))
    return run


def _project(outs, weights) -> float:
    return sum(np.sum(np.asarray(o, np.float64) * w) for o, w in zip(outs, weights))


def central_differences(run, args, i, weights, eps):
    x = args[i]
    grad = np.zeros(x.shape)
    for idx in np.ndindex(x.shape):
        values = []
        for sign in (1, -1):
            moved = [a.copy() for a in args]
            moved[i][idx] += sign * eps
            values.append(_project(run(*moved), weights))
        grad[idx] = (values[0] - values[1]) / (2 * eps)
    return grad


def directional_differences(run, args, floats, directions, weights, eps):
    moved = [[a.copy() for a in args] for _ in range(2)]
    for i, d in zip(floats, directions):
        moved[0][i] = args[i] + eps * d
        moved[1][i] = args[i] - eps * d
    return (_project(run(*moved[0]), weights) - _project(run(*moved[1]), weights)) / (2 * eps)


def check(fn, *args, seed=0, eps=1e-6, rtol=1e-6, atol=1e-8, fd=True, max_elements=48):
    """fn's VJP (every float argument) and JVP (a random direction) against central
    differences: element by element for arguments of up to `max_elements` elements, else
    along three random directions. Returns the gradients."""
    rng = np.random.default_rng(seed)
    args = [np.asarray(a) for a in args]
    call = runner(derivative_module(fn, *args))
    run = lambda *a: call("main", *a)  # noqa: E731
    outs = run(*args)
    weights = [rng.standard_normal(np.shape(o)) for o in outs]
    floats = [i for i, a in enumerate(args) if a.dtype.kind == "f"]
    cts = [w.astype(np.asarray(o).dtype) for w, o in zip(weights, outs)]
    grads = list(call("main_grad", *args, *cts))[len(outs):]
    tangents = [rng.standard_normal(args[i].shape).astype(args[i].dtype) for i in floats]
    t_outs = call("main_jvp", *args, *tangents)[len(outs):]
    float_weights = [w for w, o in zip(weights, outs) if np.asarray(o).dtype.kind == "f"]
    # The JVP and the VJP agree: <w, J t> = <J^T w, t>.
    lhs = _project(t_outs, float_weights)
    rhs = sum(np.sum(g * t) for g, t in zip(grads, tangents))
    np.testing.assert_allclose(lhs, rhs, rtol=max(rtol, 1e-9), atol=1e-9)
    if not fd:
        return grads
    for g, i in zip(grads, floats):
        if args[i].size <= max_elements:
            want = central_differences(run, args, i, weights, eps)
            np.testing.assert_allclose(g, want, rtol=rtol, atol=atol)
    for k in range(3):
        directions = [rng.standard_normal(args[i].shape) for i in floats]
        want = directional_differences(run, args, floats, directions, weights, eps)
        got = sum(np.sum(g * d) for g, d in zip(grads, directions))
        np.testing.assert_allclose(got, want, rtol=rtol * 10, atol=atol * 10)
    return grads



RNG = np.random.default_rng(1234)


def r(*shape):
    return RNG.standard_normal(shape)


def test_every_op_has_rules_or_is_declared_non_differentiable():
    load_rules()
    for opdef in OPS.values():
        name = opdef.full_name
        if not opdef.differentiable:
            assert name in NON_DIFFERENTIABLE, name
            assert name not in VJP_RULES and name not in JVP_RULES, name
        else:
            assert name in VJP_RULES and name in JVP_RULES, f"{name} has no derivative rule"


def test_every_rule_states_itself():
    load_rules()
    for table in (VJP_RULES, JVP_RULES):
        for name, rule in table.items():
            assert rule.__doc__ and rule.__doc__.strip(), f"rule for {name} has no docstring"


CASES = {
    "unary": (lambda x: mnp.tanh(x) + mnp.exp(x) * mnp.sin(x) - mnp.cos(x) + mnp.log(x * x + 1)
              + mnp.sqrt(x * x + 1) + mnp.rsqrt(x * x + 2) + mnp.cbrt(x + 5) + mnp.tan(x / 4)
              + mnp.sigmoid(x) + mnp.expm1(x) + mnp.log1p(mnp.abs(x)) - mnp.abs(x), [r(3, 4)]),
    "binary_broadcasting": (lambda x, y: x * y / (1 + y * y) - x, [r(3, 4), r(4)]),
    "power_atan2_remainder": (lambda x, y: mnp.power(mnp.abs(x) + 1, y) + mnp.arctan2(x, y)
                              + mnp.remainder(x, y + 5), [r(5), r(5)]),
    "clamp_array_bounds": (lambda x, a, b: mnp.clip(x, a, b), [r(9), r(9) - 0.5, r(9) + 0.5]),
    "clamp_scalar_bounds": (lambda x, a, b: op(hlo.clamp, a, x, b), [r(9), np.float64(-0.4), np.float64(0.5)]),
    "select": (lambda x, y: mnp.where(x > y, x * 2, mnp.sin(y)), [r(3, 4), r(3, 4)]),
    "maximum_minimum": (lambda x, y: mnp.maximum(x, y) * mnp.minimum(x, 0.3), [r(6), r(6)]),
    "convert_f32": (lambda x: mnp.sum(x.astype(np.float32) ** 2).astype(np.float64), [r(3)]),
    "broadcast_in_dim": (lambda x, y: mnp.broadcast_to(x, (2, 3, 4)) * y[:, None, :], [r(3, 1), r(2, 4)]),
    "reshape_transpose": (lambda x: mnp.transpose(x, (2, 0, 1)).reshape(4, 6) * 3, [r(2, 3, 4)]),
    "reverse": (lambda x: mnp.flip(x, (0, 1)) * x, [r(3, 4)]),
    "strided_slice": (lambda x: x[1:6:2, ::3] * 2, [r(7, 8)]),
    "pad_negative_interior": (lambda x, v: op(hlo.pad, x, v, edge_padding_low=[1, -1], edge_padding_high=[-1, 2],
                                              interior_padding=[1, 2]), [r(3, 4), np.float64(0.7)]),
    "concatenate": (lambda x, y: mnp.concatenate([x, y, x], axis=1), [r(2, 3), r(2, 2)]),
    "dynamic_slice_clamped": (lambda x, s: op(hlo.dynamic_slice, x, [s, s], slice_sizes=[2, 2]),
                              [r(4, 5), np.int32(3)]),
    "dynamic_update_slice": (lambda x, u, s: op(hlo.dynamic_update_slice, x, u, [s, s]),
                             [r(4, 5), r(2, 3), np.int32(1)]),
    "reduce_sum_prod": (lambda x: mnp.sum(x, axis=0) + mnp.prod(x, axis=1).sum(), [r(3, 4)]),
    "reduce_prod_with_zero": (lambda x: mnp.prod(x * np.array([1.0, 0.0, 1.0, 1.0]), axis=0), [r(4)]),
    "reduce_max_min": (lambda x: mnp.max(x, axis=1) + mnp.min(x, axis=0).sum(), [r(3, 4)]),
    "dot_matmul": (lambda x, w: x @ w, [r(3, 4), r(4, 5)]),
    "dot_batched": (lambda x, w: mnp.einsum("bij,bjk->bik", x, w), [r(2, 3, 4), r(2, 4, 5)]),
    "dot_transposed": (lambda x, w: mnp.einsum("jib,bkj->kbi", x, w), [r(4, 3, 2), r(2, 5, 4)]),
    "dot_two_contracting": (lambda x, w: mnp.einsum("ijk,kjl->il", x, w), [r(2, 3, 4), r(4, 3, 2)]),
    "conv_padded_strided_dilated": (
        lambda x, w: lax.conv_general_dilated(x, w, (2, 1), ((1, 2), (0, 1)), rhs_dilation=(1, 2),
                                              dimension_numbers=("NHWC", "HWIO", "NHWC")),
        [r(2, 7, 6, 3), r(3, 2, 3, 4)]),
    "conv_lhs_dilated_groups": (
        lambda x, w: lax.conv_general_dilated(x, w, (1, 1), "SAME", lhs_dilation=(2, 1), feature_group_count=2),
        [r(2, 4, 5, 5), r(6, 2, 3, 3)]),
    "conv_depthwise_1d": (
        lambda x, w: lax.conv_general_dilated(x, w, (2,), ((2, 1),), feature_group_count=3,
                                              dimension_numbers=("NWC", "WIO", "NWC")),
        [r(1, 9, 3), r(3, 1, 3)]),
    "conv_batch_groups": (
        lambda x, w: lax.conv_general_dilated(x, w, (1, 2), ((1, 0), (2, 1)), rhs_dilation=(2, 1),
                                              batch_group_count=2, dimension_numbers=("NHWC", "HWIO", "NHWC")),
        [r(4, 5, 6, 3), r(2, 3, 3, 4)]),
    "gather_duplicate_indices": (lambda x: x[np.array([0, 2, 2, 1, 0])] * 2, [r(3, 4)]),
    "gather_columns": (lambda x: x[:, np.array([3, 0, 3])], [r(3, 4)]),
    "gather_out_of_range_clamped": (lambda x, i: op(hlo.gather, x, i, offset_dims=[1], collapsed_slice_dims=[0],
                                                    start_index_map=[0], index_vector_dim=1, slice_sizes=[1, 3]),
                                    [r(4, 5), np.array([[1], [3], [9], [3]], np.int32)]),
    "scatter_add_duplicates": (lambda x, u: x.at[np.array([0, 2, 2, 1])].add(u), [r(3, 4), r(4, 4)]),
    "scatter_set_duplicates_dropped": (lambda x, u: x.at[np.array([0, 2, 2, 7])].set(u), [r(3, 4), r(4, 4)]),
    "sort": (lambda x: op(hlo.sort, x, dimension=1), [r(3, 5)]),
    "sort_descending": (lambda x: op(hlo.sort, x, dimension=0, descending=True), [r(4, 2)]),
    "reduce_window_sum": (lambda x: lax.reduce_window(x, 0.0, "add", (2, 2), (1, 2), ((1, 0), (0, 1))), [r(4, 5)]),
    "reduce_window_max_same": (lambda x: lax.reduce_window(x, -np.inf, "max", (2, 3), (2, 1), "SAME"), [r(5, 6)]),
    "reduce_window_min_dilated": (lambda x: lax.reduce_window(x, np.inf, "min", (2,), (1,), "VALID",
                                                              base_dilation=(2,), window_dilation=(3,)), [r(6)]),
    "cond_true": (lambda x, y: lax.cond(mnp.sum(x) > -100, lambda a: mnp.sin(a) * y, lambda a: a * a, x), [r(3), r(3)]),
    "cond_false": (lambda x, y: lax.cond(mnp.sum(x) > 100, lambda a: mnp.sin(a) * y, lambda a: a * a, x), [r(3), r(3)]),
    "fori_loop_static": (lambda x, w: lax.fori_loop(1, 5, lambda i, c: mnp.tanh(c * w) + i, x), [r(3), r(3)]),
    "scan": (lambda x, xs: lax.scan(lambda c, xi: (c * xi + 1.0, mnp.sin(c) * xi), x, xs), [r(2), r(4, 2)]),
}


@pytest.mark.parametrize("name", list(CASES))
def test_rule_against_central_differences(name):
    fn, args = CASES[name]
    kwargs = {"eps": 1e-3, "rtol": 1e-3, "atol": 1e-4} if name == "convert_f32" else {}
    check(fn, *args, **kwargs)


SECOND_ORDER = ["unary", "power_atan2_remainder", "dot_transposed", "conv_padded_strided_dilated",
                "conv_depthwise_1d", "gather_duplicate_indices", "sort", "reduce_window_max_same",
                "reduce_max_min", "pad_negative_interior", "cond_true", "fori_loop_static"]


@pytest.mark.parametrize("name", SECOND_ORDER)
def test_derivative_of_the_derivative(name):
    """The rules' own output differentiated again: d/dx of grad(sum(sin(f)))."""
    fn, args = CASES[name]
    floats = tuple(i for i, a in enumerate(args) if np.asarray(a).dtype.kind == "f")

    def gradient(*a):
        return mlc.grad(lambda *b: mnp.sum(mnp.sin(fn(*b))), argnums=floats)(*a)
    check(gradient, *args, rtol=1e-5, atol=1e-7)


def test_max_ties_share_equally():
    (g,) = check(lambda x: mnp.max(x), np.array([1.0, 3.0, 3.0, 2.0]), fd=False)
    # The VJP was seeded with a random weight w: each tied element gets w / 2.
    assert g[0] == 0 and g[3] == 0 and g[1] == g[2] != 0


def test_maximum_tie_splits_in_half():
    x = np.array([1.0, 2.0, 3.0])
    g = mlc.grad(lambda x, y: mnp.sum(mnp.maximum(x, y)), argnums=(0, 1))(x, np.array([1.0, 5.0, 0.0]))
    np.testing.assert_allclose(g[0], [0.5, 0.0, 1.0])
    np.testing.assert_allclose(g[1], [0.5, 1.0, 0.0])


def test_reduce_window_max_first_tie_wins():
    x = np.array([2.0, 2.0, 1.0, 2.0])
    g = mlc.grad(lambda x: mnp.sum(lax.reduce_window(x, -np.inf, "max", (2,), (2,), "VALID")))(x)
    np.testing.assert_allclose(g, [1.0, 0.0, 0.0, 1.0])
