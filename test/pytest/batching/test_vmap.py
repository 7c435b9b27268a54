"""vmap: every op's batching rule against a loop over the batch, in_axes/out_axes, nesting,
composition with grad and jit, control flow, and JAX's errors.

Op rules are checked on one-op hlo functions: the `hlo-vmap` pass batches them and MLC's
reference interpreter runs the batched function and the original once per example
(vmap(f)(xs) == stack([f(x) for x in xs]), no compile). The API tests compile.
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from mlir import ir
from mlir.dialects import func, tensor

import mlc
import mlc.numpy as mnp
from mlc import lax, reference
from mlc.batching.registry import RULES, load_rules
from mlc.batching.functions import build_vmap_function
from mlc.context import make_context
from mlc.dialects import hlo
from mlc.dialects.hlo.ops import OPS
from mlc.dtypes import mlir_element_name

SIZES = (1, 3, 17)
F32, I32, BOOL = np.dtype(np.float32), np.dtype(np.int32), np.dtype(np.bool_)


def _rng(name: str) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(name.encode()))


def _type(shape, dtype):
    return ir.RankedTensorType.get(list(shape), ir.Type.parse(mlir_element_name(dtype)))


def _i64(v):
    return hlo.constant(np.asarray(v, np.int64))


# --- one case per op: (body over block args, [(shape, dtype, kind)]) -----------------------
# kind picks the random data: "n" normal, "p" positive, "i" small ints, "s" shift amounts,
# "b" booleans, "k<N>" indices in [-1, N] (out of range on purpose: clamping).

def _unary(name):
    kind = "p" if name in ("log", "sqrt", "rsqrt", "log_plus_one") else "n"
    elements = OPS[name].elements
    if elements in ("int", "integer"):
        return lambda x: hlo._build(name, [x], {}), [((3, 4), I32, "i")]
    return lambda x: hlo._build(name, [x], {}), [((3, 4), F32, kind)]


def _binary(name):
    elements = OPS[name].elements
    if name.startswith("shift"):
        return lambda x, y: hlo._build(name, [x, y], {}), [((3, 4), I32, "i"), ((3, 4), I32, "s")]
    if elements in ("int", "integer"):
        return lambda x, y: hlo._build(name, [x, y], {}), [((3, 4), I32, "i"), ((3, 4), I32, "i")]
    kind = "p" if name == "power" else "n"
    return lambda x, y: hlo._build(name, [x, y], {}), [((3, 4), F32, kind), ((3, 4), F32, "n")]


def _conv(lhs_shape, rhs_shape, groups=1, batch_groups=1, **extra):
    def body(x, w):
        return hlo.convolution(
            x, w, input_batch_dimension=0, input_feature_dimension=3, input_spatial_dimensions=[1, 2],
            kernel_input_feature_dimension=2, kernel_output_feature_dimension=3,
            kernel_spatial_dimensions=[0, 1], output_batch_dimension=0, output_feature_dimension=3,
            output_spatial_dimensions=[1, 2], feature_group_count=groups,
            batch_group_count=batch_groups, **extra)
    return body, [(lhs_shape, F32, "n"), (rhs_shape, F32, "n")]


def _gather_plain(x, i):
    return hlo.gather(x, i, offset_dims=[1], collapsed_slice_dims=[0], start_index_map=[0],
                      index_vector_dim=1, slice_sizes=[1, 4])


def _gather_batching(x, i):
    return hlo.gather(x, i, offset_dims=[2], collapsed_slice_dims=[1], start_index_map=[1],
                      index_vector_dim=2, slice_sizes=[1, 1, 4], operand_batching_dims=[0],
                      start_indices_batching_dims=[0])


def _scatter(kind):
    def body(x, i, u):
        return hlo.scatter(x, i, u, update_window_dims=[1], inserted_window_dims=[0],
                           scatter_dims_to_operand_dims=[0], index_vector_dim=1, kind=kind)
    return body, [((5, 4), F32, "n"), ((3, 1), I32, "k5"), ((3, 4), F32, "n")]


SPECIAL = {
    "is_finite": (lambda x: hlo.is_finite(x), [((3, 4), F32, "n")]),
    "compare": (lambda x, y: hlo.compare(x, y, "LT"), [((3, 4), F32, "n"), ((3, 4), F32, "n")]),
    "clamp": (lambda lo, x, hi: hlo.clamp(lo, x, hi), [((), F32, "n"), ((3, 4), F32, "n"), ((3, 4), F32, "p")]),
    "select": (lambda p, x, y: hlo.select(p, x, y), [((3, 4), BOOL, "b"), ((3, 4), F32, "n"), ((3, 4), F32, "n")]),
    "convert": (lambda x: hlo.convert(x, ir.IntegerType.get_signless(32)), [((3, 4), F32, "n")]),
    "bitcast_convert": (lambda x: hlo.bitcast_convert(x, ir.IntegerType.get_signless(32)), [((3, 4), F32, "n")]),
    "broadcast_in_dim": (lambda x: hlo.broadcast_in_dim(x, [2, 3, 4], [1]), [((3,), F32, "n")]),
    "reverse": (lambda x: hlo.reverse(x, [0, 1]), [((3, 4), F32, "n")]),
    "slice": (lambda x: hlo.slice(x, [1, 0], [4, 6], [2, 3]), [((5, 6), F32, "n")]),
    "dynamic_slice": (lambda x, a, b: hlo.dynamic_slice(x, [a, b], [2, 3]),
                      [((5, 6), F32, "n"), ((), I32, "k5"), ((), I32, "k6")]),
    "dynamic_update_slice": (lambda x, u, a, b: hlo.dynamic_update_slice(x, u, [a, b]),
                             [((5, 6), F32, "n"), ((2, 3), F32, "n"), ((), I32, "k5"), ((), I32, "k6")]),
    "pad": (lambda x, v: hlo.pad(x, v, [1, -1], [2, 0], [1, 0]), [((3, 4), F32, "n"), ((), F32, "n")]),
    "reshape": (lambda x: hlo.reshape(x, [2, 6]), [((3, 4), F32, "n")]),
    "transpose": (lambda x: hlo.transpose(x, [2, 0, 1]), [((2, 3, 4), F32, "n")]),
    "reduce": (lambda x, v: hlo.reduce(x, v, [1], "add"), [((3, 4), F32, "n"), ((), F32, "n")]),
    "argmax": (lambda x: hlo.argmax(x, 1, ir.IntegerType.get_signless(32)), [((3, 5), F32, "n")]),
    "argmin": (lambda x: hlo.argmin(x, 0, ir.IntegerType.get_signless(32)), [((3, 5), F32, "n")]),
    "reduce_window": (lambda x, v: hlo.reduce_window(x, v, [2, 3], "max", [2, 1], [1, 2], None,
                                                     [(1, 0), (0, 2)]),
                      [((6, 7), F32, "n"), ((), F32, "n")]),
    "convolution": _conv((2, 5, 5, 3), (3, 3, 3, 4), padding=[(1, 1), (0, 1)], window_strides=[1, 2]),
    "gather": (_gather_plain, [((5, 4), F32, "n"), ((3, 1), I32, "k5")]),
    "scatter": _scatter("add"),
    "sort": (lambda x: hlo.sort(x, 1), [((4, 6), F32, "n")]),
    "argsort": (lambda x: hlo.argsort(x, 0, index_type=ir.IntegerType.get_signless(32)), [((4, 6), F32, "n")]),
    "dot_general": (lambda x, y: hlo.dot_general(x, y, [], [], [1], [0]), [((3, 4), F32, "n"), ((4, 5), F32, "n")]),
    "all_reduce": (lambda x: hlo.all_reduce(x, "add"), [((3, 4), F32, "n")]),
    "all_gather": (lambda x: hlo.all_gather(x, 1, 1), [((3, 4), F32, "n")]),
    "reduce_scatter": (lambda x: hlo.reduce_scatter(x, 0, "max", 1), [((3, 4), F32, "n")]),
    "collective_broadcast": (lambda x: hlo.collective_broadcast(x), [((3, 4), F32, "n")]),
}

# More cases for rules with several paths.
EXTRA = {
    "clamp_full_bounds": (lambda lo, x, hi: hlo.clamp(lo, x, hi), [((3, 4), F32, "n"), ((3, 4), F32, "n"), ((3, 4), F32, "p")]),
    "select_scalar_pred": (lambda p, x, y: hlo.select(p, x, y), [((), BOOL, "b"), ((3, 4), F32, "n"), ((3, 4), F32, "n")]),
    "reduce_max_all": (lambda x, v: hlo.reduce(x, v, [0, 1], "max"), [((3, 4), F32, "n"), ((), F32, "n")]),
    "reduce_and_int": (lambda x, v: hlo.reduce(x, v, [0], "and"), [((3, 4), I32, "i"), ((), I32, "i")]),
    "reduce_window_add": (lambda x, v: hlo.reduce_window(x, v, [3, 2], "add", [1, 2], [2, 1], [1, 2],
                                                         [(2, 1), (1, 1)]),
                          [((5, 6), F32, "n"), ((), F32, "n")]),
    "conv_feature_groups": _conv((2, 5, 5, 6), (3, 3, 2, 6), groups=3),
    "conv_batch_groups": _conv((4, 5, 5, 3), (2, 2, 3, 6), batch_groups=2),
    "conv_dilated": _conv((1, 7, 6, 2), (2, 3, 2, 3), lhs_dilation=[2, 1], rhs_dilation=[1, 2],
                          padding=[(1, 0), (2, 2)]),
    "gather_batching_dims": (_gather_batching, [((2, 5, 4), F32, "n"), ((2, 3, 1), I32, "k5")]),
    "scatter_set": _scatter("set"),
    "scatter_max": _scatter("max"),
    "sort_descending": (lambda x: hlo.sort(x, 0, descending=True), [((4, 6), F32, "n")]),
    "dot_general_batch": (lambda x, y: hlo.dot_general(x, y, [0], [0], [2], [1]),
                          [((2, 3, 4), F32, "n"), ((2, 4, 5), F32, "n")]),
    "dot_general_transposed": (lambda x, y: hlo.dot_general(x, y, [], [], [0], [1]),
                               [((4, 3), F32, "n"), ((5, 4), F32, "n")]),
    "concat": (lambda x, y: tensor.concat(_type((3, 7), F32), 1, [x, y]),
               [((3, 4), F32, "n"), ((3, 3), F32, "n")]),
    "iota_plus": (lambda x: hlo.add(x, hlo.iota([3, 4], ir.F32Type.get(), 1)), [((3, 4), F32, "n")]),
}


def _op_case(name):
    if name in SPECIAL:
        return SPECIAL[name]
    family = OPS[name].family
    if family == "elementwise-unary":
        return _unary(name)
    if family == "elementwise-binary":
        return _binary(name)
    raise KeyError(name)


TESTED_OPS = [n for n in OPS if n not in ("constant", "iota")]


def _data(rng, shape, dtype, kind):
    if kind == "b":
        return rng.random(shape) < 0.5
    if kind == "i":
        return rng.integers(-100, 100, size=shape).astype(dtype)
    if kind == "s":
        return rng.integers(0, 34, size=shape).astype(dtype)
    if kind.startswith("k"):
        return rng.integers(-1, int(kind[1:]) + 1, size=shape).astype(dtype)
    x = rng.standard_normal(shape).astype(dtype)
    return np.abs(x) + np.asarray(0.1, dtype) if kind == "p" else x


def _module(body, specs):
    module = ir.Module.create()
    with ir.InsertionPoint(module.body):
        @func.FuncOp.from_py_func(*[_type(s, d) for s, d, _ in specs], name="main")
        def main(*args):
            return body(*args)
    return module


def _run(module, entry, args):
    with np.errstate(all="ignore"):
        results = reference.Interpreter(module).call(entry, [np.array(a) for a in args])
    return np.array(results[0], copy=True)


def _check_rule(case_name, body, specs, size, in_axes):
    rng = _rng(f"{case_name}-{size}-{in_axes}")
    batched = []
    for (shape, dtype, kind), axis in zip(specs, in_axes):
        if axis is None:
            batched.append(_data(rng, shape, dtype, kind))
        else:
            full = list(shape)
            full.insert(axis % (len(shape) + 1), size)
            batched.append(_data(rng, tuple(full), dtype, kind))
    with make_context(), ir.Location.unknown():
        module = _module(body, specs)
        fn = list(module.body.operations)[0].operation
        build_vmap_function(fn, size, in_axes)
        assert module.operation.verify()
        assert not hlo.verify_hlo(module.operation)
        got = _run(module, "main_vmap", batched)
        rows = []
        for b in range(size):
            example = [a if axis is None else np.take(a, b, axis=axis) for a, axis in zip(batched, in_axes)]
            rows.append(_run(module, "main", example))
    want = np.stack(rows)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, want.shape)
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", TESTED_OPS + list(EXTRA))
def test_rule_matches_loop(name, size):
    body, specs = EXTRA[name] if name in EXTRA else _op_case(name)
    _check_rule(name, body, specs, size, [0] * len(specs))


@pytest.mark.parametrize("name", TESTED_OPS + list(EXTRA))
def test_rule_in_axes_variants(name):
    """The last axis of every operand, then each operand left unbatched in turn."""
    body, specs = EXTRA[name] if name in EXTRA else _op_case(name)
    _check_rule(name, body, specs, 3, [-1] * len(specs))
    if len(specs) > 1:
        for k in range(len(specs)):
            axes = [0] * len(specs)
            axes[k] = None
            _check_rule(name, body, specs, 3, axes)


def test_every_op_has_a_batching_rule():
    load_rules()
    missing = [f"hlo.{n}" for n in OPS if f"hlo.{n}" not in RULES]
    assert not missing, f"ops without a batching rule: {missing}"
    for name in ("scf.if", "scf.while", "scf.index_switch", "tensor.extract", "tensor.concat",
                 "func.call", "arith.index_cast"):
        assert name in RULES
    for name, rule in RULES.items():
        assert rule.__doc__, f"the batching rule of {name} has no docstring"


# --- the API: compiled, against Python loops ------------------------------------------------

def _loop(f, args, in_axes, size, out_axis=0):
    rows = [mlc.jit(f)(*[a if ax is None else np.take(a, b, axis=ax) for a, ax in zip(args, in_axes)])
            for b in range(size)]
    if isinstance(rows[0], tuple):
        return tuple(np.stack(col, axis=out_axis) for col in zip(*rows))
    return np.stack(rows, axis=out_axis)


def _close(got, want, tol=1e-5):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _close(g, w, tol)
        return
    got, want = np.asarray(got), np.asarray(want)
    assert got.shape == want.shape, (got.shape, want.shape)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol)


def _model(x, w):
    return mnp.tanh(x @ w).sum(axis=-1) + mnp.max(x)


@pytest.mark.parametrize("size", SIZES)
def test_eager_jit_and_inner_jit(size):
    rng = _rng(f"api-{size}")
    xs = rng.standard_normal((size, 4, 3)).astype(np.float32)
    w = rng.standard_normal((3, 5)).astype(np.float32)
    want = _loop(_model, (xs, w), (0, None), size)
    _close(mlc.vmap(_model, in_axes=(0, None))(xs, w), want)                 # eager
    _close(mlc.jit(mlc.vmap(_model, in_axes=(0, None)))(xs, w), want)        # jit of vmap
    _close(mlc.vmap(mlc.jit(_model), in_axes=(0, None))(xs, w), want)        # vmap of jit

    @mlc.jit
    def inside(xs, w):
        return mlc.vmap(_model, in_axes=(0, None))(xs, w) * 2.0
    _close(inside(xs, w), want * 2)                                          # vmap inside jit


@pytest.mark.parametrize("in_axes", [1, -1, (1, None), (-2, None)])
def test_in_axes_ints(in_axes):
    rng = _rng(f"in-axes-{in_axes}")
    xs = rng.standard_normal((4, 3, 3)).astype(np.float32)
    w = rng.standard_normal((3, 5)).astype(np.float32)
    axes = (in_axes, None) if isinstance(in_axes, int) else in_axes
    if isinstance(in_axes, int):
        f = lambda x: _model(x, w)
        _close(mlc.vmap(f, in_axes=in_axes)(xs), _loop(f, (xs,), (in_axes,), 3))
    else:
        _close(mlc.vmap(_model, in_axes=in_axes)(xs, w), _loop(_model, (xs, w), axes, 3))


def test_in_axes_pytree_prefix_and_kwargs():
    rng = _rng("pytree")
    params = {"w": rng.standard_normal((3, 2)).astype(np.float32),
              "b": rng.standard_normal((5, 2)).astype(np.float32)}
    xs = rng.standard_normal((3, 5)).astype(np.float32)   # mapped along axis 1

    def f(p, x, scale=1.0):
        return (x @ p["w"] + p["b"]) * scale
    got = mlc.vmap(f, in_axes=({"w": None, "b": 0}, 1))(params, xs)
    want = np.stack([f({"w": params["w"], "b": params["b"][k]}, xs[:, k]) for k in range(5)])
    _close(got, want)
    scales = np.arange(5, dtype=np.float32)
    got = mlc.vmap(f, in_axes=({"w": None, "b": 0}, 1))(params, xs, scale=scales)  # kwargs: axis 0
    _close(got, want * scales[:, None])


@pytest.mark.parametrize("size", SIZES)
def test_out_axes(size):
    rng = _rng(f"out-{size}")
    xs = rng.standard_normal((size, 4)).astype(np.float32)
    c = rng.standard_normal((2,)).astype(np.float32)

    def f(x):
        return {"a": mnp.outer(x, c), "b": c * 2.0}
    got = mlc.vmap(f, out_axes={"a": -1, "b": None})(xs)
    _close(got["a"], np.stack([np.outer(x, c) for x in xs], axis=-1))
    _close(got["b"], c * 2)
    got = mlc.vmap(lambda x: (x.sum(), c), out_axes=(0, 1))(xs)              # unbatched, broadcast
    _close(got[0], xs.sum(1))
    _close(got[1], np.repeat(c[:, None], size, axis=1))


def test_axis_size_with_all_none():
    c = np.arange(3, dtype=np.float32)
    got = mlc.vmap(lambda x: x * 2.0, in_axes=None, axis_size=4)(c)
    _close(got, np.tile(c * 2, (4, 1)))


@pytest.mark.parametrize("size", (1, 3))
def test_nested_vmap(size):
    rng = _rng(f"nested-{size}")
    a = rng.standard_normal((size, 4)).astype(np.float32)
    b = rng.standard_normal((5, 4)).astype(np.float32)
    pair = lambda x, y: mnp.dot(x, y) + mnp.sin(x).sum()
    got = mlc.vmap(mlc.vmap(pair, in_axes=(None, 0)), in_axes=(0, None))(a, b)
    want = np.array([[np.dot(x, y) + np.sin(x).sum() for y in b] for x in a])
    _close(got, want)
    got = mlc.vmap(mlc.vmap(lambda x: x * x.sum()), in_axes=1, out_axes=1)(
        rng.standard_normal((3, size, 2)).astype(np.float32).transpose(1, 0, 2).copy())
    assert got.shape == (size, 3, 2)


def _mlp_loss(params, x, y):
    h = mnp.tanh(x @ params["w1"] + params["b1"])
    out = h @ params["w2"]
    return ((out - y) ** 2).sum()


@pytest.mark.parametrize("size", SIZES)
def test_per_example_gradients(size):
    rng = _rng(f"pe-{size}")
    params = {"w1": rng.standard_normal((4, 6)).astype(np.float32) * 0.5,
              "b1": rng.standard_normal((6,)).astype(np.float32),
              "w2": rng.standard_normal((6, 2)).astype(np.float32) * 0.5}
    xs = rng.standard_normal((size, 4)).astype(np.float32)
    ys = rng.standard_normal((size, 2)).astype(np.float32)
    got = mlc.jit(mlc.vmap(mlc.grad(_mlp_loss), in_axes=(None, 0, 0)))(params, xs, ys)
    grad = mlc.grad(_mlp_loss)
    rows = [grad(params, x, y) for x, y in zip(xs, ys)]
    for k in params:
        _close(got[k], np.stack([r[k] for r in rows]), 1e-4)
    # grad of vmap: the gradient of the summed batch loss.
    total = mlc.grad(lambda p: mlc.vmap(_mlp_loss, in_axes=(None, 0, 0))(p, xs, ys).sum())(params)
    for k in params:
        _close(total[k], sum(r[k] for r in rows), 1e-4)


def test_per_example_conv_gradients():
    rng = _rng("conv-grad")
    w = rng.standard_normal((3, 3, 2, 4)).astype(np.float32) * 0.3
    xs = rng.standard_normal((3, 1, 6, 6, 2)).astype(np.float32)

    def loss(w, x):
        y = lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
        return (mnp.tanh(y) ** 2).sum()
    got = mlc.vmap(mlc.grad(loss), in_axes=(None, 0))(w, xs)
    want = np.stack([mlc.grad(loss)(w, x) for x in xs])
    _close(got, want, 1e-4)


@pytest.mark.parametrize("size", SIZES)
def test_cond_batched_and_unbatched_predicate(size):
    rng = _rng(f"cond-{size}")
    xs = rng.standard_normal((size, 3)).astype(np.float32)

    def f(x, flag):
        a = lax.cond(x.sum() > 0, lambda v: v * 2.0, lambda v: -v, x)          # batched pred
        return a + lax.cond(flag > 0, lambda v: mnp.sin(v), lambda v: v, x)     # unbatched pred
    for flag in (np.float32(1), np.float32(-1)):
        _close(mlc.vmap(f, in_axes=(0, None))(xs, flag), _loop(f, (xs, flag), (0, None), size))


@pytest.mark.parametrize("size", SIZES)
def test_while_batched_predicate(size):
    rng = _rng(f"while-{size}")
    limits = rng.integers(0, 7, size=size).astype(np.int32)
    xs = rng.standard_normal((size, 2)).astype(np.float32)

    def f(n, x):
        return lax.while_loop(lambda c: c[0] < n, lambda c: (c[0] + 1, c[1] * 1.5 + 1.0), (0, x))
    _close(mlc.vmap(f)(limits, xs), _loop(f, (limits, xs), (0, 0), size))


@pytest.mark.parametrize("size", SIZES)
def test_fori_scan_switch(size):
    rng = _rng(f"loops-{size}")
    xs = rng.standard_normal((size, 5)).astype(np.float32)
    idx = rng.integers(-1, 4, size=size).astype(np.int32)

    def f(x, i):
        y = lax.fori_loop(0, 3, lambda k, c: c * 0.5 + x[k], x)
        carry, ys = lax.scan(lambda c, v: (c + v, c * v), 0.0, y)
        z = lax.switch(i, [lambda v: v + 1.0, lambda v: v * 2.0, lambda v: -v], ys)
        return carry, z
    _close(mlc.vmap(f)(xs, idx), _loop(f, (xs, idx), (0, 0), size))


def test_random_keys():
    from mlc import random
    keys = random.split(random.PRNGKey(3), 5)
    got = mlc.vmap(lambda k: random.normal(k, (4,)) + random.uniform(random.fold_in(k, 1), (4,)))(keys)
    want = np.stack([random.normal(k, (4,)) + random.uniform(random.fold_in(k, 1), (4,)) for k in keys])
    _close(got, want)


def test_gather_scatter_through_numpy_indexing():
    rng = _rng("index")
    xs = rng.standard_normal((3, 6)).astype(np.float32)
    ii = rng.integers(0, 6, size=(3, 2)).astype(np.int32)

    def f(x, i):
        return x[i] * 2.0 + x.at[i].add(1.0)[:2].sum()
    _close(mlc.vmap(f)(xs, ii), _loop(f, (xs, ii), (0, 0), 3))


# --- errors ---------------------------------------------------------------------------------

def test_error_inconsistent_sizes():
    with pytest.raises(ValueError, match=r"test_vmap.py:\d+: vmap got inconsistent sizes for array "
                                         r"axes to be mapped:\n  \* one axis had size 3: axis 0 of argument 0"):
        mlc.vmap(lambda a, b: a + b)(np.zeros((3, 2), np.float32), np.zeros((4, 2), np.float32))


def test_error_bad_axis():
    with pytest.raises(ValueError, match="vmap was requested to map its argument along axis 2, which "
                                         "implies that its rank should be at least 3, but is only 2"):
        mlc.vmap(lambda a: a, in_axes=2)(np.zeros((3, 2), np.float32))


def test_error_mapped_output_with_out_axes_none():
    with pytest.raises(ValueError, match="vmap has mapped output but out_axes is None"):
        mlc.vmap(lambda a: a * 2, out_axes=None)(np.zeros((3, 2), np.float32))


def test_error_all_none_without_axis_size():
    with pytest.raises(ValueError, match="vmap must have at least one non-None value in in_axes"):
        mlc.vmap(lambda a: a, in_axes=None)(np.zeros(3, np.float32))


def test_error_in_axes_spec():
    with pytest.raises(TypeError, match="vmap in_axes must be an int, None, or a tuple"):
        mlc.vmap(lambda a: a, in_axes=[0])
    with pytest.raises(ValueError, match="vmap in_axes specification must be a tree prefix"):
        mlc.vmap(lambda a: a, in_axes=({"x": 0},))((np.zeros(3, np.float32),))


def test_error_op_without_rule(monkeypatch):
    load_rules()
    monkeypatch.delitem(RULES, "hlo.sine")
    with pytest.raises(mlc.batching.BatchingError,
                       match=r"test_vmap.py:\d+: vmap of 'hlo.sine' is not implemented"):
        mlc.vmap(lambda a: mnp.sin(a))(np.zeros((3, 2), np.float32))


_SWITCH = """
func.func @main(%i: tensor<i32>, %x: tensor<3xf32>) -> tensor<3xf32> {
  %e = tensor.extract %i[] : tensor<i32>
  %k = arith.index_cast %e : i32 to index
  %r = scf.index_switch %k -> tensor<3xf32>
  case 0 {
    %a = "hlo.negate"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    scf.yield %a : tensor<3xf32>
  }
  case 1 {
    %b = "hlo.exponential"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    scf.yield %b : tensor<3xf32>
  }
  default {
    %c = "hlo.constant"() {value = dense<7.0> : tensor<3xf32>} : () -> tensor<3xf32>
    scf.yield %c : tensor<3xf32>
  }
  return %r : tensor<3xf32>
}
"""


@pytest.mark.parametrize("in_axes", [[0, 0], [None, 0], [0, None]])
@pytest.mark.parametrize("size", SIZES)
def test_index_switch_and_index_cast(in_axes, size):
    """StableHLO's case (scf.index_switch on an arith.index_cast of an extracted scalar)."""
    rng = _rng(f"switch-{in_axes}-{size}")
    index = rng.integers(-1, 3, size=size if in_axes[0] is not None else ()).astype(np.int32)
    x = rng.standard_normal((size, 3) if in_axes[1] is not None else (3,)).astype(np.float32)
    with make_context(), ir.Location.unknown():
        module = ir.Module.parse(_SWITCH)
        build_vmap_function(list(module.body.operations)[0].operation, size, in_axes)
        assert module.operation.verify()
        got = _run(module, "main_vmap", [index, x])
        want = np.stack([_run(module, "main", [index if in_axes[0] is None else index[b],
                                                x if in_axes[1] is None else x[b]])
                         for b in range(size)])
    np.testing.assert_allclose(got, want, rtol=1e-6)


_CALL = """
func.func private @helper(%a: tensor<3xf32>, %b: tensor<3xf32>) -> tensor<3xf32> {
  %m = "hlo.multiply"(%a, %b) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %m : tensor<3xf32>
}
func.func @main(%x: tensor<3xf32>, %y: tensor<3xf32>) -> tensor<3xf32> {
  %c = func.call @helper(%x, %y) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  %s = "hlo.sine"(%c) : (tensor<3xf32>) -> tensor<3xf32>
  return %s : tensor<3xf32>
}
"""


@pytest.mark.parametrize("in_axes", [[0, 0], [None, 1]])
def test_call_is_batched_inline(in_axes):
    rng = _rng(f"call-{in_axes}")
    x = rng.standard_normal((3,) if in_axes[0] is None else (5, 3)).astype(np.float32)
    y = rng.standard_normal((5, 3) if in_axes[1] == 0 else (3, 5)).astype(np.float32)
    with make_context(), ir.Location.unknown():
        module = ir.Module.parse(_CALL)
        build_vmap_function(list(module.body.operations)[1].operation, 5, in_axes)
        assert module.operation.verify()
        got = _run(module, "main_vmap", [x, y])
        want = np.stack([_run(module, "main", [x if in_axes[0] is None else x[b], np.take(y, b, axis=in_axes[1])])
                         for b in range(5)])
    np.testing.assert_allclose(got, want, rtol=1e-6)
