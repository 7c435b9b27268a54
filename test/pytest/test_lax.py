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


# (lhs dtype, preferred): products and sums are computed in the preferred type, so the
# result is numpy's in that type (exact for integers, f16 sums accumulated in f32).
PREFERRED = [(np.int8, np.int32), (np.uint8, np.int32), (np.int16, np.int64), (np.int8, np.float32),
             (np.float16, np.float32), (np.float32, np.float64), (np.float32, np.float16)]


@pytest.mark.parametrize("dtype, preferred", PREFERRED, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("api", ["dot_general", "matmul", "einsum", "dot"])
def test_preferred_element_type_widens_before_multiplying(dtype, preferred, api):
    rng = np.random.default_rng(7)
    shape_a, shape_b = (3, 17, 33), (3, 33, 5)  # batched, odd sizes
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, shape_a, endpoint=True).astype(dtype)
        b = rng.integers(info.min, info.max, shape_b, endpoint=True).astype(dtype)
    else:
        a = (rng.standard_normal(shape_a) * 30).astype(dtype)
        b = (rng.standard_normal(shape_b) * 30).astype(dtype)
    fns = {
        "dot_general": lambda x, y: lax.dot_general(x, y, (((2,), (1,)), ((0,), (0,))),
                                                    preferred_element_type=preferred),
        "matmul": lambda x, y: mnp.matmul(x, y, preferred_element_type=preferred),
        "einsum": lambda x, y: mnp.einsum("bij,bjk->bik", x, y, preferred_element_type=preferred),
        "dot": lambda x, y: mnp.dot(x[0], y[0], preferred_element_type=preferred),
    }
    got = mlc.jit(fns[api])(a, b)
    wide = np.promote_types(dtype, preferred) if np.dtype(preferred).itemsize < np.dtype(dtype).itemsize \
        else np.dtype(preferred)
    want = (np.matmul(a.astype(np.float64), b.astype(np.float64)) if wide.kind == "f"
            else np.matmul(a.astype(wide), b.astype(wide))).astype(preferred)
    if api == "dot":
        want = want[0]
    assert got.dtype == np.dtype(preferred)
    if np.dtype(preferred).kind == "f":
        # Sums of 33 products of |x| ~ 30^2: relative to the preferred type's epsilon.
        tol = {np.float16: 2e-3, np.float32: 1e-5, np.float64: 1e-12}[preferred]
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())
    else:
        np.testing.assert_array_equal(got, want)


def test_int8_dot_general_does_not_wrap():
    a = np.full((1, 4), 100, np.int8)
    b = np.full((4, 1), 100, np.int8)
    got = mlc.jit(lambda x, y: lax.dot_general(x, y, (((1,), (0,)), ((), ())), preferred_element_type=np.int32))(a, b)
    assert got.dtype == np.int32 and got[0, 0] == 40000


def test_conv_preferred_element_type_accumulates_wide():
    x = np.full((1, 4, 4, 8), 100, np.int8)
    w = np.full((3, 3, 8, 2), 100, np.int8)
    got = mlc.jit(lambda a, k: lax.conv_general_dilated(a, k, (1, 1), "VALID", dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                                        preferred_element_type=np.int32))(x, w)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, np.full((1, 2, 2, 2), 9 * 8 * 10000, np.int32))


def test_weak_loop_init_takes_the_body_dtype():
    """As JAX: a Python-scalar init takes the dtype its body gives it (the loop is traced
    again), instead of the body's values being cast back to the scalar's type."""
    xs = np.arange(5, dtype=np.float64)
    carry, ys = mlc.jit(lambda xs: lax.scan(lambda c, x: (c + x, c * 2), 0.0, xs))(xs)
    assert carry.dtype == np.float64 and carry == xs.sum()
    np.testing.assert_array_equal(ys, 2 * np.concatenate([[0.0], np.cumsum(xs)[:-1]]))
    got = mlc.jit(lambda: lax.fori_loop(0, 3, lambda i, c: c + 1.5, 0))()
    assert got == 4.5 and got.dtype.kind == "f"            # not 3: 1.5 truncated per step
    strong = mlc.jit(lambda x: lax.fori_loop(0, 3, lambda i, c: c + x, 0))(np.float32(2.0))
    assert strong.dtype == np.float32 and strong == 6.0
    assert mlc.jit(lambda: lax.fori_loop(0, 3, lambda i, c: c + i, 0))() == 3  # stays int


@pytest.mark.parametrize("shape", [(7, 33), (64, 129)])
def test_fused_kernels_inside_control_flow(shape):
    """hlo-fuse works on scf regions too: branches and loop bodies with elementwise chains,
    row reductions with epilogues and a matmul, at odd and vector-sized shapes, against numpy
    (float32: rtol 2e-5 on these well-conditioned values, 1e-4 after the matmul loop)."""
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape).astype(np.float32)
    a = (rng.standard_normal((shape[1], shape[1])) / shape[1]).astype(np.float32)

    def softmax(v):
        e = mnp.exp(v - v.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    def branches(p, v):
        return lax.cond(p > 0, lambda u: softmax(u * 2.0) + mnp.tanh(u), lambda u: (u - u.mean(axis=1, keepdims=True)) * 3.0, v)

    f = mlc.jit(branches)
    e = np.exp(2 * x - (2 * x).max(axis=1, keepdims=True))
    np.testing.assert_allclose(f(np.float32(1), x), e / e.sum(axis=1, keepdims=True) + np.tanh(x), rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(f(np.float32(-1), x), (x - x.mean(axis=1, keepdims=True)) * 3, rtol=2e-5, atol=2e-5)

    def power_steps(v):  # a loop body: matmul, then a row norm and a division (one row fusion)
        def body(i, u):
            u = u @ a + u * 0.5
            return u / mnp.sqrt((u * u).sum(axis=1, keepdims=True))
        return lax.fori_loop(0, 4, body, v)

    want = x.astype(np.float64)
    for _ in range(4):
        want = want @ a + want * 0.5
        want = want / np.sqrt((want * want).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(mlc.jit(power_steps)(x), want, rtol=1e-4, atol=1e-5)

    def cond_in_loop(v):  # a cond nested in a while loop's body
        def body(state):
            k, u = state
            u = lax.cond(k % 2 == 0, lambda w: mnp.exp(-w * w), lambda w: w * 2.0 - 1.0, u)
            return k + 1, u
        return lax.while_loop(lambda s: s[0] < 3, body, (0, v))[1]

    want = x.copy()
    for k in range(3):
        want = np.exp(-want * want) if k % 2 == 0 else want * 2 - 1
    np.testing.assert_allclose(mlc.jit(cond_in_loop)(x), want, rtol=2e-5, atol=2e-6)


def test_loop_carried_values_computed_in_place_stay_correct():
    """mlc-control-flow-destinations has a loop body compute a carried value into the buffer
    that carries it; where the body reads the old value elsewhere (a roll, a flip, the other
    carried value, a matmul) bufferization must copy instead. numpy as the oracle (float32:
    rtol 1e-5 on elementwise steps, 1e-4 after tanh and matmuls)."""
    rng = np.random.default_rng(5)
    x = rng.standard_normal((37, 41)).astype(np.float32)
    y = rng.standard_normal((37, 41)).astype(np.float32)
    m = (rng.standard_normal((41, 41)) / 41).astype(np.float32)

    f = mlc.jit(lambda v: lax.fori_loop(0, 3, lambda i, u: u * 0.5 + mnp.roll(u, 1, axis=1) + mnp.flip(u, 0), v))
    want = x.copy()
    for _ in range(3):
        want = want * 0.5 + np.roll(want, 1, axis=1) + np.flip(want, 0)
    np.testing.assert_allclose(f(x), want, rtol=1e-5, atol=1e-5)

    g = mlc.jit(lambda a, b: lax.fori_loop(0, 4, lambda i, s: (s[1] * 2.0 - s[0], s[0] + mnp.tanh(s[1])), (a, b)))
    a, b = x.copy(), y.copy()
    for _ in range(4):
        a, b = b * 2 - a, a + np.tanh(b)
    got_a, got_b = g(x, y)
    np.testing.assert_allclose(got_a, a, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(got_b, b, rtol=1e-4, atol=1e-4)

    h = mlc.jit(lambda v: lax.while_loop(lambda s: s[0] < 3, lambda s: (s[0] + 1, mnp.tanh(s[1] @ m) + s[1]), (0, v))[1])
    want = x.astype(np.float64)
    for _ in range(3):
        want = np.tanh(want @ m) + want
    np.testing.assert_allclose(h(x), want, rtol=1e-4, atol=1e-4)

    q = mlc.jit(lambda v: lax.fori_loop(0, 5, lambda i, u: lax.cond(i % 2 == 0, lambda z: z * 2.0, lambda z: z, u), v))
    np.testing.assert_allclose(q(x), x * 8, rtol=1e-6)


def test_switch_branches_share_one_destination_and_stay_correct():
    """lax.switch is a tree of conds; mlc-control-flow-destinations gives every leaf the one
    destination before the outermost if. Every index (clamped ones too) against numpy at an
    odd shape (float32, rtol 2e-5)."""
    x = np.random.default_rng(9).standard_normal((37, 41)).astype(np.float32)
    branches = [lambda v: mnp.tanh(v * 2.0 + 1.0) * v, lambda v: mnp.exp(v) - v * 3.0,
                lambda v: v * v + 1.0, lambda v: mnp.abs(v) * 0.5, lambda v: v.sum(axis=0) + v]
    want = [np.tanh(x * 2 + 1) * x, np.exp(x) - x * 3, x * x + 1, np.abs(x) * 0.5, x.sum(axis=0) + x]
    f = mlc.jit(lambda i, v: lax.switch(i, branches, v))
    for i in range(-1, 6):
        np.testing.assert_allclose(f(np.int32(i), x), want[min(max(i, 0), 4)], rtol=2e-5, atol=2e-5)
