"""Graph optimizations keep results: 30+ functions give numpy's answers at opt_level 0 and
at the default level (where hlo-optimize runs)."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.lax as lax
import mlc.nn as nn
import mlc.numpy as mnp

RNG = np.random.default_rng(11)
A = RNG.standard_normal((4, 6)).astype(np.float32)
B = RNG.standard_normal((6, 3)).astype(np.float32)
V = RNG.standard_normal(6).astype(np.float32)
I = RNG.integers(-20, 20, size=(4, 6)).astype(np.int32)


def softmax_ref(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


FUNCTIONS = {
    "mul_one": (lambda x: x * 1.0, lambda x: x, (A,)),
    "add_neg_zero": (lambda x: x + (-0.0), lambda x: x, (A,)),
    "sub_zero": (lambda x: x - 0.0, lambda x: x, (A,)),
    "div_one": (lambda x: x / 1.0, lambda x: x, (A,)),
    "div_pow2": (lambda x: x / 8.0, lambda x: x / 8, (A,)),
    "div_three": (lambda x: x / 3.0, lambda x: x / 3, (A,)),
    "neg_neg": (lambda x: -(-x), lambda x: x, (A,)),
    "abs_neg": (lambda x: mnp.abs(-x), np.abs, (A,)),
    "max_self": (lambda x: mnp.maximum(x, x), lambda x: x, (A,)),
    "int_sub_self": (lambda x: x - x, lambda x: x - x, (I,)),
    "int_mul_zero": (lambda x: x * 0, lambda x: x * 0, (I,)),
    "int_xor_self": (lambda x: x ^ x, lambda x: x ^ x, (I,)),
    "int_compare_self": (lambda x: x <= x, lambda x: x <= x, (I,)),
    "float_compare_self": (lambda x: x == x, lambda x: x == x, (np.array([1.0, np.nan], np.float32),)),
    "float_sub_self_nan": (lambda x: x - x, lambda x: x - x, (np.array([1.0, np.inf], np.float32),)),
    "float_mul_zero_inf": (lambda x: x * 0.0, lambda x: x * 0.0, (np.array([1.0, np.inf, -2.0], np.float32),)),
    "pow_two": (lambda x: x ** 2, lambda x: x ** 2, (A,)),
    "pow_one": (lambda x: x ** 1.0, lambda x: x, (A,)),
    "pow_zero": (lambda x: x ** 0.0, lambda x: x ** 0.0, (np.array([0.0, np.nan, 3.0], np.float32),)),
    "transpose_twice": (lambda x: x.T.T, lambda x: x, (A,)),
    "reshape_twice": (lambda x: x.reshape(24).reshape(6, 4), lambda x: x.reshape(6, 4), (A,)),
    "slice_slice": (lambda x: x[1:, ::2][::2], lambda x: x[1:, ::2][::2], (A,)),
    "flip_flip": (lambda x: mnp.flip(mnp.flip(x, 0), 0), lambda x: x, (A,)),
    "select_same": (lambda x: mnp.where(x > 0, x, x), lambda x: x, (A,)),
    "constant_fold": (lambda x: x + mnp.arange(6.0) * 2.0, lambda x: x + np.arange(6.0, dtype=np.float32) * 2, (A,)),
    "cse_exp": (lambda x: mnp.exp(x) + mnp.exp(x), lambda x: 2 * np.exp(x), (A,)),
    "dead_code": (lambda x: (mnp.tanh(x), x + 1.0)[1], lambda x: x + 1, (A,)),
    "broadcast_splat": (lambda x: x + mnp.full((4, 6), 2.0), lambda x: x + 2, (A,)),
    "convert_chain": (lambda x: x.astype(mnp.float64).astype(mnp.float32), lambda x: x, (A,)),
    "softmax": (nn.softmax, softmax_ref, (A,)),
    "layer_norm": (nn.layer_norm, lambda x: (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5), (A,)),
    "mlp": (lambda x, w: nn.relu(x @ w) @ w.T, lambda x, w: np.maximum(x @ w, 0) @ w.T, (A, B)),
    "outer_via_dot": (lambda v: mnp.matmul(v[:, None], v[None, :]), lambda v: np.outer(v, v), (V,)),
    "cond_constant": (lambda x: lax.cond(True, lambda y: y * 2.0, lambda y: y, x), lambda x: x * 2, (A,)),
    "model_fn": (lambda x, y, z: mnp.sum(x * y + z), lambda x, y, z: np.sum(x * y + z), (A, A, A)),
    # transposes sink below elementwise ops and into reductions, then cancel
    "column_softmax": (lambda x: nn.softmax(x.T, axis=-1).T, lambda x: softmax_ref(x.T).T, (A,)),
    "transposed_gate": (lambda x, v: mnp.tanh(x.T * v[:, None] + 1.0).T, lambda x, v: np.tanh(x.T * v[:, None] + 1).T,
                        (A, V)),
    "reduce_transposed": (lambda x: mnp.max(x.T, axis=0) + mnp.sum(x.T * 2.0, axis=1)[:4],
                          lambda x: x.T.max(0) + (x.T * 2).sum(1)[:4], (A,)),
}


@pytest.mark.parametrize("name", FUNCTIONS)
@pytest.mark.parametrize("opt_level", [0, 2])
def test_optimized_and_unoptimized_agree_with_numpy(name, opt_level):
    fn, reference, args = FUNCTIONS[name]
    got = mlc.jit(fn, opt_level=opt_level)(*args)
    with np.errstate(all="ignore"):
        want = reference(*args)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, equal_nan=True)


def test_default_level_actually_optimizes():
    lowered = mlc.jit(lambda x: (x * 1.0).T.T + mnp.exp(x) - mnp.exp(x)).lower(A)
    optimized = lowered.as_text("hlo-optimized")
    assert "hlo.transpose" not in optimized and optimized.count("hlo.exponential") == 1
    assert mlc.jit(lambda x: x * 1.0, opt_level=0).lower(A).as_text("hlo-optimized").count("hlo.multiply") == 1


def test_transposes_sink_and_cancel():
    """softmax over x's columns reads x in place: its reductions reduce x's dim 0, no
    transpose is left (hlo.reduce(transpose(x)) and transposes moved below elementwise ops)."""
    optimized = mlc.jit(lambda x: nn.softmax(x.T, axis=-1).T * 3.0 + x).lower(A).as_text("hlo-optimized")
    assert "hlo.transpose" not in optimized and optimized.count("dimensions = array<i64: 0>") == 2


# Transposes of rank 3 through elementwise ops, broadcasts and every reduction kind, each
# permutation: the optimizer's moves against numpy.
@pytest.mark.parametrize("perm", [(1, 0, 2), (2, 0, 1), (0, 2, 1), (2, 1, 0), (1, 2, 0)])
@pytest.mark.parametrize("kind", ["sum", "max", "min", "prod"])
def test_transposed_rank3_graphs(perm, kind):
    rng = np.random.default_rng(sum(perm) * 7 + len(kind))
    x = rng.standard_normal((3, 4, 5)).astype(np.float32)
    t_shape = tuple(x.shape[d] for d in perm)
    b = rng.standard_normal(t_shape[2]).astype(np.float32)
    reduce_m, reduce_n = getattr(mnp, kind), getattr(np, kind)

    def mlc_fn(xv, bv):
        t = mnp.transpose(xv, perm)
        y = mnp.exp(t * 0.5 - bv) * (t > 0)
        return reduce_m(y, axis=1), mnp.transpose(y, np.argsort(perm)) + xv

    def np_fn(xv, bv):
        t = np.transpose(xv, perm)
        y = np.exp(t * 0.5 - bv) * (t > 0)
        return reduce_n(y, axis=1), np.transpose(y, np.argsort(perm)) + xv

    for got, want in zip(mlc.jit(mlc_fn)(x, b), np_fn(x, b)):
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=1e-6)


def test_random_graphs_agree_at_both_levels():
    """Random expression DAGs over a few inputs: the optimizer never changes a result."""
    ops = [lambda a, b: a + b, lambda a, b: a * b, lambda a, b: a - b, lambda a, b: mnp.maximum(a, b),
           lambda a, b: a * 1.0, lambda a, b: a / 2.0, lambda a, b: -(-a), lambda a, b: mnp.tanh(a),
           lambda a, b: a.T.T, lambda a, b: a + 0.0 * b]
    for seed in range(6):
        rng = np.random.default_rng(seed)
        choices = rng.integers(0, len(ops), size=(12, 3))

        def graph(x, y):
            values = [x, y]
            for op, i, j in choices:
                values.append(ops[op](values[i % len(values)], values[j % len(values)]))
            return values[-1] + values[-2]

        x, y = rng.standard_normal((3, 3)).astype(np.float32), rng.standard_normal((3, 3)).astype(np.float32)
        np.testing.assert_allclose(mlc.jit(graph)(x, y), mlc.jit(graph, opt_level=0)(x, y), rtol=1e-6, atol=1e-6)
