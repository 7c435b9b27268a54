"""mlc-chain-tiling (contraction -> row-wise ops -> contraction by blocks of rows) against
numpy: attention with and without masks, odd sequence lengths, heads in any layout,
f16/f32/f64, and chains it must leave alone. MIN_CHAIN_BYTES is lowered so small odd shapes are tiled too."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.codegen.chain_tiling as chain_tiling
import mlc.numpy as mnp
from mlc import nn
from mlc.codegen.chain_tiling import row_block

TOLERANCE = {np.float16: 2e-2, np.float32: 2e-5, np.float64: 1e-12}


def _softmax(s):
    e = np.exp(s - s.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _attention_np(q, k, v, mask=None):
    s = np.einsum("...qd,...kd->...qk", q.astype(np.float64), k.astype(np.float64)) / np.sqrt(q.shape[-1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    return _softmax(s) @ v.astype(np.float64)


def _attention(causal):
    def f(q, k, v):
        s = (q @ mnp.swapaxes(k, -1, -2)) * float(1.0 / np.sqrt(q.shape[-1]))
        if causal:
            n = q.shape[-2]
            s = mnp.where(mnp.tril(mnp.ones((n, n), bool)), s, -mnp.inf)
        return nn.softmax(s, axis=-1) @ v
    return f


def _scores_buffer(fn, *args) -> bool:
    """Whether the buffers stage still has a whole (heads, S, S) scores buffer (untiled)."""
    heads, seq = args[0].shape[0], args[0].shape[1]
    whole = f"memref<{heads}x{seq}x{seq}x"
    return any(whole in line and ("memref.alloc" in line or "memref.view" in line)
               for line in mlc.jit(fn).lower(*args).as_text("buffers").splitlines())


@pytest.fixture
def small_chains(monkeypatch):
    monkeypatch.setattr(chain_tiling, "MIN_CHAIN_BYTES", 0)


@pytest.mark.parametrize("heads,seq,d", [(2, 24, 8), (3, 17, 16), (1, 127, 5), (4, 64, 64)])
@pytest.mark.parametrize("causal", [False, True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_attention_by_row_blocks(heads, seq, d, causal, dtype, small_chains):
    rng = np.random.default_rng(heads * 1000 + seq + d)
    q, k, v = (rng.standard_normal((heads, seq, d)).astype(dtype) for _ in range(3))
    got = mlc.jit(_attention(causal))(q, k, v)
    # one head: one block of all rows would interleave nothing
    assert _scores_buffer(_attention(causal), q, k, v) == (heads == 1)
    mask = np.tril(np.ones((seq, seq), bool)) if causal else None
    np.testing.assert_allclose(got.astype(np.float64), _attention_np(q, k, v, mask),
                               rtol=TOLERANCE[dtype], atol=TOLERANCE[dtype])


def test_multi_head_layout_and_padding_mask(small_chains):
    """(B, S, H, D) heads moved to the batch with transposes; a key padding mask per batch."""
    rng = np.random.default_rng(7)
    b, s, h, d = 2, 40, 3, 8
    q, k, v = (rng.standard_normal((b, s, h, d)).astype(np.float32) for _ in range(3))
    keep = rng.random((b, s)) > 0.3
    keep[:, 0] = True

    def f(q, k, v, keep):
        qh, kh, vh = (mnp.transpose(x, (0, 2, 1, 3)) for x in (q, k, v))
        scores = qh @ mnp.swapaxes(kh, -1, -2) / float(np.sqrt(d))
        scores = mnp.where(keep[:, None, None, :], scores, -1e9)
        return mnp.transpose(nn.softmax(scores, axis=-1) @ vh, (0, 2, 1, 3))
    got = mlc.jit(f)(q, k, v, keep)
    qh, kh, vh = (x.transpose(0, 2, 1, 3).astype(np.float64) for x in (q, k, v))
    scores = np.where(keep[:, None, None, :], qh @ kh.swapaxes(-1, -2) / np.sqrt(d), -1e9)
    np.testing.assert_allclose(got, (_softmax(scores) @ vh).transpose(0, 2, 1, 3), rtol=2e-5, atol=2e-5)


def test_attention_is_tiled_at_default_sizes():
    """(8, 512, 64): the scores (8 MB) are made by blocks inside one parallel loop; no
    8 x 512 x 512 buffer is left in the buffers stage."""
    rng = np.random.default_rng(3)
    q, k, v = (rng.standard_normal((8, 512, 64)).astype(np.float32) for _ in range(3))
    fn = mlc.jit(_attention(False))
    assert not _scores_buffer(_attention(False), q, k, v)
    np.testing.assert_allclose(fn(q, k, v), _attention_np(q, k, v), rtol=2e-5, atol=2e-5)


def test_chain_with_an_intermediate_used_elsewhere_is_left_alone(small_chains):
    """Returning the probabilities too: they must be written whole anyway, so no tiling."""
    rng = np.random.default_rng(4)
    q, k, v = (rng.standard_normal((2, 32, 8)).astype(np.float32) for _ in range(3))

    def f(q, k, v):
        p = nn.softmax(q @ mnp.swapaxes(k, -1, -2), axis=-1)
        return p @ v, p
    fn = mlc.jit(f)
    out, p = fn(q, k, v)
    want_p = _softmax(np.einsum("bqd,bkd->bqk", q.astype(np.float64), k))
    np.testing.assert_allclose(p, want_p, rtol=2e-5, atol=2e-6)
    np.testing.assert_allclose(out, want_p @ v, rtol=2e-5, atol=2e-5)
    assert _scores_buffer(f, q, k, v)


def test_column_softmax_is_not_row_local(small_chains):
    """softmax over the query axis mixes rows: the chain is not tiled (and stays right)."""
    rng = np.random.default_rng(5)
    q, k, v = (rng.standard_normal((2, 32, 8)).astype(np.float32) for _ in range(3))
    f = lambda q, k, v: nn.softmax(q @ mnp.swapaxes(k, -1, -2), axis=-2) @ v  # noqa: E731
    got = mlc.jit(f)(q, k, v)
    s = np.einsum("bqd,bkd->bqk", q.astype(np.float64), k)
    e = np.exp(s - s.max(-2, keepdims=True))
    np.testing.assert_allclose(got, (e / e.sum(-2, keepdims=True)) @ v, rtol=2e-5, atol=2e-5)
    assert _scores_buffer(f, q, k, v)


@pytest.mark.parametrize("extents,per_row,threads,cache,want", [
    ([8, 512], 6 << 10, 2, 32 << 20, 512),   # each head's rows (3 MB) fit 8 MB
    ([8, 512], 6 << 10, 2, 8 << 20, None),   # 2 MB a thread: no smaller blocks
    ([1, 512], 6 << 10, 2, 32 << 20, None),  # one head: never split rows (W, k, v packed again)
    ([512, 3072], 4, 2, 32 << 20, 3072),     # (the extents are batch..., M)
    ([4, 197], 4 << 10, 2, 32 << 20, 197),   # rows not a multiple of 8: whole rows all the same
    ([3, 16], 1 << 10, 4, 32 << 20, None),   # fewer batch indices than threads
])
def test_row_block_rule(extents, per_row, threads, cache, want, monkeypatch):
    """A block is all rows of one batch index, when every thread gets one and they fit the
    thread's half share of the cache (one intermediate of `per_row` bytes a row)."""
    intermediate = type("Op", (), {"results": ["scores"]})()
    chain = chain_tiling._Chain(last=object(), loops={intermediate: None}, extents=extents)
    monkeypatch.setattr(chain_tiling, "_bytes", lambda value: per_row * int(np.prod(extents)))
    assert row_block(chain, threads, cache) == want


def test_mlp_block_is_not_tiled(small_chains):
    """x W1 -> gelu -> W2 is a chain too, but with no batch loop its blocks would split the
    rows and pack W1 and W2 again per block: left to BLAS / the packed kernel whole."""
    rng = np.random.default_rng(8)
    x, w1, w2 = (rng.standard_normal(s).astype(np.float32) for s in ((64, 32), (32, 128), (128, 32)))
    f = lambda x, w1, w2: nn.gelu(x @ w1) @ w2  # noqa: E731
    text = mlc.jit(f).lower(x, w1, w2).as_text("buffers")
    assert chain_tiling.TAG not in text.split("func.func @main")[1].split("func.func")[0]
    np.testing.assert_allclose(mlc.jit(f)(x, w1, w2), _gelu_np(x.astype(np.float64) @ w1) @ w2,
                               rtol=1e-4, atol=1e-4)


def _gelu_np(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3)))


def test_attention_gradient_is_not_tiled_and_stays_right(small_chains):
    """Under grad the forward's probabilities are read by the backward too, so no chain is
    tiled (an intermediate used outside the chain); the gradients match central
    differences in float64."""
    rng = np.random.default_rng(9)
    q, k, v = (rng.standard_normal((3, 24, 8)) for _ in range(3))
    w = rng.standard_normal((3, 24, 8))

    def loss(q, k, v):
        return (_attention(True)(q, k, v) * w).sum()
    grad = mlc.jit(mlc.grad(loss, argnums=(0, 1, 2)))
    assert "mlc.chain_tiling" not in grad.lower(q, k, v).as_text("buffers")
    grads = grad(q, k, v)
    eps = 1e-6
    for arg, got in enumerate(grads):
        for index in [(0, 0, 0), (1, 5, 3), (2, 23, 7)]:
            args = [q.copy(), k.copy(), v.copy()]
            args[arg][index] += eps
            up = float(loss(*[mnp.asarray(a) for a in args]))
            args[arg][index] -= 2 * eps
            down = float(loss(*[mnp.asarray(a) for a in args]))
            assert abs(got[index] - (up - down) / (2 * eps)) < 1e-5 * max(1.0, abs(got[index]))


@pytest.mark.parametrize("on_pool", [False, True])
@pytest.mark.parametrize("blas", [True, False])
def test_chain_beside_a_blas_call_is_left_alone(blas, on_pool, small_chains, monkeypatch):
    """A function that calls OpenBLAS runs its loops on one thread where OpenBLAS keeps its
    own workers, so a tiled chain would lose both cores: with a BLAS-sized product beside it
    the chain stays unfused (its own products may then be calls too); with BLAS off, or
    with OpenBLAS's jobs on MLC's pool (target.blas_on_pool), it is tiled. All right."""
    from mlc import CompileOptions
    from mlc.codegen import target
    from mlc.codegen.blas import blas_available
    monkeypatch.setattr(target, "blas_on_pool", lambda: on_pool)
    if blas and not blas_available():
        pytest.skip("needs numpy's OpenBLAS")
    rng = np.random.default_rng(10)
    q, k, v = (rng.standard_normal((4, 64, 16)).astype(np.float32) for _ in range(3))
    # 8 x 1024 x 2048 (2^24, at most blas.FEW_ROWS rows): a BLAS call at any vector width.
    x, w = rng.standard_normal((8, 1024)).astype(np.float32), rng.standard_normal((1024, 2048)).astype(np.float32)

    def f(q, k, v, x, w):
        return _attention(False)(q, k, v), x @ w
    fn = mlc.jit(f, options=CompileOptions(blas=blas))
    text = fn.lower(q, k, v, x, w).as_text("buffers")
    assert ("mlc.chain_tiling" in text) == (not blas or on_pool)
    got, product = fn(q, k, v, x, w)
    np.testing.assert_allclose(got, _attention_np(q, k, v), rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(product, x.astype(np.float64) @ w, rtol=1e-4, atol=1e-3)
