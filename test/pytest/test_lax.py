"""mlc.lax: structured control flow traced into scf regions, and the lower-level ops."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.lax as lax
import mlc.numpy as mnp

X = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.0


def test_cond_picks_a_branch_at_run_time():
    f = mlc.jit(lambda p, x: lax.cond(p > 0, lambda v: v * 2.0, lambda v: -v, x))
    np.testing.assert_allclose(f(np.float32(1), X), X * 2)
    np.testing.assert_allclose(f(np.float32(-1), X), -X)
    assert f.cache_info().misses == 1


def test_cond_with_a_python_bool_just_calls_the_branch():
    f = mlc.jit(lambda x: lax.cond(True, lambda v: v + 1.0, lambda v: v, x))
    np.testing.assert_allclose(f(X), X + 1)


def test_cond_branches_must_agree():
    f = mlc.jit(lambda p, x: lax.cond(p > 0, lambda v: v, lambda v: v.sum(), x))
    with pytest.raises(TypeError, match="cond branch outputs must have the same"):
        f(np.float32(1), X)


def test_while_loop_and_fori_loop():
    def collatz_steps(n):
        def body(state):
            k, steps = state
            k = mnp.where(k % 2 == 0, k // 2, 3 * k + 1)
            return k, steps + 1
        return lax.while_loop(lambda s: s[0] != 1, body, (n, 0))[1]

    assert mlc.jit(collatz_steps)(np.int32(27)) == 111
    f = mlc.jit(lambda x: lax.fori_loop(0, 5, lambda i, acc: acc + x * i.astype(mnp.float32), mnp.zeros_like(x)))
    np.testing.assert_allclose(f(X), X * 10)


def test_dot_general_and_reduce_window():
    a, b = np.ones((2, 3, 4), np.float32), np.ones((2, 4, 5), np.float32)
    got = mlc.jit(lambda x, y: lax.dot_general(x, y, (((2,), (1,)), ((0,), (0,)))))(a, b)
    np.testing.assert_allclose(got, np.einsum("bij,bjk->bik", a, b))
    img = np.arange(16, dtype=np.float32).reshape(4, 4)
    pooled = mlc.jit(lambda x: lax.reduce_window(x, -np.inf, lax.max, (2, 2), (2, 2)))(img)
    np.testing.assert_allclose(pooled, [[5, 7], [13, 15]])
    same = mlc.jit(lambda x: lax.reduce_window(x, 0.0, "add", (3, 3), (1, 1), "SAME"))(img)
    padded = np.pad(img, 1)
    want = sum(padded[i:i + 4, j:j + 4] for i in range(3) for j in range(3))
    np.testing.assert_allclose(same, want)


def test_conv_general_dilated_nhwc_same():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1, 5, 5, 2)).astype(np.float32)
    w = rng.standard_normal((3, 3, 2, 4)).astype(np.float32)
    got = mlc.jit(lambda a, b: lax.conv_general_dilated(a, b, (1, 1), "SAME",
                                                        dimension_numbers=("NHWC", "HWIO", "NHWC")))(x, w)
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    want = np.zeros((1, 5, 5, 4), np.float32)
    for i in range(3):
        for j in range(3):
            want += np.einsum("nhwc,co->nhwo", padded[:, i:i + 5, j:j + 5], w[i, j])
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_scan_cumulative_sum_and_stacked_outputs():
    xs = np.arange(12, dtype=np.float32).reshape(4, 3)

    def step(carry, x):
        carry = carry + x
        return carry, (carry.sum(), carry * 2.0)

    final, (totals, doubled) = mlc.jit(lambda v: lax.scan(step, mnp.zeros(3), v))(xs)
    running = np.cumsum(xs, axis=0)
    np.testing.assert_allclose(final, running[-1])
    np.testing.assert_allclose(totals, running.sum(axis=1))
    np.testing.assert_allclose(doubled, running * 2)


def test_scan_rnn_cell():
    rng = np.random.default_rng(1)
    w = rng.standard_normal((3, 3)).astype(np.float32) * 0.5
    xs = rng.standard_normal((5, 3)).astype(np.float32)

    def cell(h, x):
        h = mnp.tanh(h @ w + x)
        return h, h

    h, hs = mlc.jit(lambda v: lax.scan(cell, mnp.zeros(3), v))(xs)
    ref_h, ref = np.zeros(3, np.float32), []
    for x in xs:
        ref_h = np.tanh(ref_h @ w + x)
        ref.append(ref_h)
    np.testing.assert_allclose(hs, np.stack(ref), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h, ref_h, rtol=1e-5, atol=1e-6)
