"""The fusion cost model on random graphs: whatever hlo-fuse groups, the fused program does
at most 1.1x the arithmetic of the unfused one (no producer recomputed per consumer
element: not through a broadcast, not inside a matmul, not once per user), and gives the
same values. Flops are `cost_analysis()`'s count over the bufferized kernels."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp

ROWS, COLS = 12, 20


def random_program(seed: int, n_ops: int = 14):
    """A function of x (ROWS, COLS) and w (COLS, COLS) built from a seeded random mix of
    elementwise ops (cheap and transcendental), row reductions broadcast back, matmuls,
    with values reused by several later ops. Returns (mlc function, numpy function)."""
    rng = np.random.default_rng(seed)
    plan = []
    for i in range(n_ops):
        kind = rng.choice(["tanh", "exp", "add", "mul", "rowmean", "matmul", "sqrt"],
                          p=[.18, .1, .2, .2, .12, .1, .1])
        a, b = (int(rng.integers(0, i + 2)) for _ in range(2))   # operands among earlier values
        plan.append((str(kind), a, b))

    def build(np_):
        def f(x, w):
            values = [x, x * 0.5]
            for kind, a, b in plan:
                u, v = values[a], values[b]
                if kind == "tanh":
                    r = np_.tanh(u)
                elif kind == "exp":
                    r = np_.exp(-np_.abs(u))
                elif kind == "sqrt":
                    r = np_.sqrt(np_.abs(u) + 1.0)
                elif kind == "add":
                    r = u + v
                elif kind == "mul":
                    r = u * v
                elif kind == "rowmean":
                    r = u - np_.mean(u, axis=1, keepdims=True)
                else:
                    r = np_.tanh(u @ w)
                values.append(r)
            return values[-1] + values[len(values) // 2]
        return f

    return build(mnp), build(np)


@pytest.mark.parametrize("seed", range(12))
def test_fused_flops_within_1_1x_of_unfused_and_same_values(seed):
    rng = np.random.default_rng(100 + seed)
    x = rng.standard_normal((ROWS, COLS)).astype(np.float32)
    w = (rng.standard_normal((COLS, COLS)) * 0.2).astype(np.float32)
    fn, np_fn = random_program(seed)
    fused = mlc.jit(fn).lower(x, w).compile()
    unfused = mlc.jit(fn, fusion=False).lower(x, w).compile()
    f_cost, u_cost = fused.cost_analysis(), unfused.cost_analysis()
    assert f_cost["flops"] <= 1.1 * u_cost["flops"], (f_cost, u_cost)
    # f32 with tanh/exp/sqrt chains: relative 1e-4 (own approximations are <= 2 ulp).
    np.testing.assert_allclose(fused(x, w), np_fn(x, w), rtol=1e-4, atol=1e-4)


def test_layer_norm_then_matmul_does_not_recompute_the_norm():
    """The pre-LayerNorm MLP input: the normalized rows feed a matmul. Fused, the norm must
    be computed once (512x less arithmetic than recomputing it per output column)."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((32, 64)).astype(np.float32)
    w = (rng.standard_normal((64, 128)) * 0.1).astype(np.float32)

    def f(x, w):
        mu = mnp.mean(x, axis=-1, keepdims=True)
        var = mnp.mean((x - mu) ** 2, axis=-1, keepdims=True)
        h = (x - mu) / mnp.sqrt(var + 1e-5)
        return mnp.tanh(h @ w)

    fused = mlc.jit(f).lower(x, w).compile()
    unfused = mlc.jit(f, fusion=False).lower(x, w).compile()
    assert fused.cost_analysis()["flops"] <= 1.1 * unfused.cost_analysis()["flops"]
    mu = x.mean(-1, keepdims=True)
    want = np.tanh(((x - mu) / np.sqrt(x.var(-1, keepdims=True) + 1e-5)) @ w)
    np.testing.assert_allclose(fused(x, w), want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("producer", ["tanh", "exp"])
def test_lone_transcendental_before_a_matmul_is_not_merged_into_it(producer):
    """hlo-fuse leaves a lone tanh(x) apart from the matmul it feeds; the linalg-level
    merge must not undo that (it did: tanh recomputed per output column, 1.9 s for 512^2)."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((48, 40)).astype(np.float32)
    w = rng.standard_normal((40, 56)).astype(np.float32)
    fn = {"tanh": lambda x, w: mnp.tanh(x) @ w, "exp": lambda x, w: mnp.exp(x) @ w}[producer]
    ref = {"tanh": np.tanh, "exp": np.exp}[producer]
    fused = mlc.jit(fn).lower(x, w).compile()
    unfused = mlc.jit(fn, fusion=False).lower(x, w).compile()
    assert fused.cost_analysis()["flops"] <= 1.1 * unfused.cost_analysis()["flops"]
    np.testing.assert_allclose(fused(x, w), ref(x) @ w, rtol=1e-4, atol=1e-3)
