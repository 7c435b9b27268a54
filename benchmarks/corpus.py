"""The model-block corpus: blocks from real architectures, each written once against a
numpy-like namespace, timed as MLC (mlc.jit), numpy eager, jax.jit and IREE (issue 14, item 5).

    python benchmarks/corpus.py                 # every block (~3-5 minutes on 2 cores)
    python benchmarks/corpus.py lstm gru        # blocks whose name contains 'lstm' or 'gru'
                                                # (the other blocks' rows are kept)
    python benchmarks/corpus.py --random [N] [--seed S]
                                                # N random chains of blocks (default 20,
                                                # seed 0): cliffs nobody named
    OPENBLAS_NUM_THREADS=1 python benchmarks/corpus.py
                                                # the table again with numpy's (and so MLC's)
                                                # GEMMs single-threaded, kept as a second table
    python benchmarks/corpus.py --explain NAME|SEED   # cost analysis + hlo-fused of one block/chain
    python benchmarks/corpus.py --render        # corpus.md/.png again from corpus.json (after
                                                # editing NOTES)
    python benchmarks/corpus.py softmax --out /tmp/trial   # results elsewhere (a trial run)
    python benchmarks/corpus.py --no-iree       # without IREE (--no-jax: without jax, so IREE too)

A block is `build(L) -> fn` where L.np is mlc.numpy / numpy / jax.numpy, L.nn is mlc.nn /
a numpy shim / jax.nn and L.lax is mlc.lax / a numpy shim / jax.lax (the numpy shim below
does what an eager numpy user writes: im2col convolution, shifted-slice depthwise sums).

Per block, from one run:
- correctness: MLC's float32 output against numpy eager on the float64-cast inputs, pass when
  |mlc - ref| <= 2e-3 * max(1, max|ref|) elementwise (numpy float32's own error is recorded
  beside it); jax.jit's output is checked the same way;
- compile: MLC's first call (trace + every stage + LLVM; the persistent cache is off for
  this process, so it is a real compile), jax's lower + compile;
- time: ROUNDS interleaved rounds of numpy, MLC and jax (each round `repeats` calls after a
  warm-up, then a pause of common.SETTLE_S so numpy's spinning OpenBLAS workers do not
  slow the next one), the median over every sample. jax runs in a child process (its MLIR bindings
  clash with MLC's in one process) that stays up for the whole run and is asked for its
  samples right after MLC's, so all columns see the same machine load; IREE likewise, in a
  child of its own (`peers.py --iree-child`; `corpus.py --iree-child` is the same), compiling the StableHLO
  the jax child writes for the block (its samples include `.to_host()` of the outputs). A
  missing iree package or a block IREE cannot compile is reported in the row.
The rule (issue 14): no block slower than numpy eager, each within 1.2x of the faster of
jax.jit and IREE, or the note says why (from `cost_analysis()` and the hlo-fused text; see NOTES).

`--random` composes 2-5 random shape-preserving blocks (token stream (N, D) or image stream
NHWC) with random sizes into one function, checks it against numpy and times MLC against
numpy eager (and jax); compositions where MLC is slower than numpy are reported.

Results: benchmarks/results/corpus.json, corpus.md (the table, then the random section)
and corpus.png (when matplotlib is installed).
"""

from __future__ import annotations

import json
import math
import os
import platform
import statistics
import sys
import time
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import numpy as np

from common import PEERS, RTOL, SETTLE_S, f64, max_error, peer_ratios, ratio_chart
from peers import IREE_DEVICE, IREE_FLAGS, ChildPeer, IreePeer, first_line, read_inputs, serve, start_peer

RESULTS = Path(__file__).resolve().parent / "results"
HERE = Path(__file__).resolve()
ROUNDS = 3
MISS_NUMPY = 1.0  # MLC/numpy below this misses
MISS_PEER = 1 / 1.2  # MLC/best peer below this misses (more than 1.2x slower than the faster of jax.jit, IREE)
# A run under OPENBLAS_NUM_THREADS=N (numpy's and MLC's GEMMs single-threaded: OpenBLAS's worker
# thread stalls for whole scheduler quanta on an oversubscribed host) is kept beside the main table.
BLAS_KEY = (f"blocks_openblas{os.environ['OPENBLAS_NUM_THREADS']}" if os.environ.get("OPENBLAS_NUM_THREADS")
            else "blocks")


# --- numpy eager shims: what a numpy user writes for jax.nn / jax.lax -----------------------
def _np_sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def _np_gelu(x, approximate=True):
    if not approximate:
        raise NotImplementedError
    return 0.5 * x * (1.0 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x * x * x)))


def _np_logsumexp(x, axis=-1, keepdims=False):
    m = x.max(axis, keepdims=True)
    out = np.log(np.exp(x - m).sum(axis, keepdims=True)) + m
    return out if keepdims else np.squeeze(out, axis)


def _np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


def _np_log_softmax(x, axis=-1):
    s = x - x.max(axis, keepdims=True)
    return s - np.log(np.exp(s).sum(axis, keepdims=True))


def _np_conv(x, w, window_strides, padding, dimension_numbers=("NHWC", "HWIO", "NHWC"),
             feature_group_count=1):
    """NHWC x HWIO convolution, 'SAME' or 'VALID': shifted-slice sums when depthwise,
    else im2col (sliding_window_view) and one matmul."""
    assert tuple(dimension_numbers) == ("NHWC", "HWIO", "NHWC")
    kh, kw, ci, co = w.shape
    sh, sw = window_strides
    n, h, wd, c = x.shape
    if padding == "SAME":
        oh, ow = -(-h // sh), -(-wd // sw)
        ph, pw = max((oh - 1) * sh + kh - h, 0), max((ow - 1) * sw + kw - wd, 0)
        x = np.pad(x, ((0, 0), (ph // 2, ph - ph // 2), (pw // 2, pw - pw // 2), (0, 0)))
    else:
        oh, ow = (h - kh) // sh + 1, (wd - kw) // sw + 1
    if feature_group_count != 1:
        assert feature_group_count == c and ci == 1 and co == c, "depthwise only"
        out = np.zeros((n, oh, ow, c), x.dtype)
        for i in range(kh):
            for j in range(kw):
                out += x[:, i:i + (oh - 1) * sh + 1:sh, j:j + (ow - 1) * sw + 1:sw, :] * w[i, j, 0]
        return out
    if kh == kw == 1:
        return (x[:, ::sh, ::sw, :].reshape(-1, c) @ w.reshape(c, co)).reshape(n, oh, ow, co)
    cols = np.lib.stride_tricks.sliding_window_view(x, (kh, kw), axis=(1, 2))[:, ::sh, ::sw]
    cols = cols.transpose(0, 1, 2, 4, 5, 3).reshape(n * oh * ow, kh * kw * c)
    return (cols @ w.reshape(kh * kw * ci, co)).reshape(n, oh, ow, co)


NUMPY_NN = types.SimpleNamespace(sigmoid=_np_sigmoid, gelu=_np_gelu, logsumexp=_np_logsumexp,
                                 softmax=_np_softmax, log_softmax=_np_log_softmax,
                                 relu=lambda x: np.maximum(x, 0),
                                 silu=lambda x: x * _np_sigmoid(x))
NUMPY_LAX = types.SimpleNamespace(conv_general_dilated=_np_conv)


def numpy_lib():
    return types.SimpleNamespace(np=np, nn=NUMPY_NN, lax=NUMPY_LAX, name="numpy")


def mlc_lib():
    import mlc.lax
    import mlc.nn
    import mlc.numpy
    return types.SimpleNamespace(np=mlc.numpy, nn=mlc.nn, lax=mlc.lax, name="mlc")


def jax_lib():
    import jax.lax
    import jax.nn
    import jax.numpy
    return types.SimpleNamespace(np=jax.numpy, nn=jax.nn, lax=jax.lax, name="jax")


# --- pieces shared by the blocks, written once against L ------------------------------------
def layer_norm(L, x, g, b, eps=1e-5):
    mean = x.mean(-1, keepdims=True)
    c = x - mean
    var = (c * c).mean(-1, keepdims=True)
    return c / L.np.sqrt(var + eps) * g + b


def rms_norm(L, x, w, eps=1e-6):
    return x / L.np.sqrt((x * x).mean(-1, keepdims=True) + eps) * w


def conv(L, x, w, stride=1, groups=1):
    return L.lax.conv_general_dilated(x, w, (stride, stride), "SAME",
                                      dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                      feature_group_count=groups)


def attention(L, x, wqkv, wo, heads, causal=True):
    """Multi-head self-attention over x (B, S, D): fused qkv projection, scaled scores, a
    causal mask built from iotas, softmax, output projection."""
    b, s, d = x.shape
    dh = d // heads
    qkv = (x @ wqkv).reshape(b, s, 3, heads, dh)
    q = qkv[:, :, 0].transpose(0, 2, 1, 3)  # B H S dh
    k = qkv[:, :, 1].transpose(0, 2, 1, 3)
    v = qkv[:, :, 2].transpose(0, 2, 1, 3)
    scores = (q @ k.swapaxes(-1, -2)) * (1.0 / math.sqrt(dh))
    if causal:
        mask = L.np.arange(s)[:, None] >= L.np.arange(s)[None, :]
        scores = L.np.where(mask, scores, -1e9)
    p = L.nn.softmax(scores, axis=-1)
    out = (p @ v).transpose(0, 2, 1, 3).reshape(b, s, d)
    return out @ wo


def mlp(L, x, w1, b1, w2, b2):
    return L.nn.gelu(x @ w1 + b1, approximate=True) @ w2 + b2


def bn_relu(L, x, scale, shift):
    return L.nn.relu(x * scale + shift)


# --- the blocks -----------------------------------------------------------------------------
def b_mlp_block(L):
    def f(x, g, b, w1, b1, w2, b2):
        return x + mlp(L, layer_norm(L, x, g, b), w1, b1, w2, b2)
    return f


def b_attention(L):
    def f(x, wqkv, wo):
        return attention(L, x, wqkv, wo, heads=8, causal=True)
    return f


def b_attention_core(L):
    def f(q, k, v):
        """softmax(q k^T / sqrt(d)) v over (heads, S, d), no mask: issue 14's attention row."""
        scores = (q @ k.swapaxes(-1, -2)) * (1.0 / math.sqrt(q.shape[-1]))
        return L.nn.softmax(scores, axis=-1) @ v
    return f


def b_decoder(L):
    def f(x, g1, c1, wqkv, wo, g2, c2, w1, b1, w2, b2):
        x = x + attention(L, layer_norm(L, x, g1, c1), wqkv, wo, heads=8, causal=True)
        return x + mlp(L, layer_norm(L, x, g2, c2), w1, b1, w2, b2)
    return f


def b_swiglu(L):
    def f(x, wn, w1, w3, w2):  # Llama FFN: RMSNorm, silu(x W1) * (x W3), W2, residual
        h = rms_norm(L, x, wn)
        return x + (L.nn.silu(h @ w1) * (h @ w3)) @ w2
    return f


def b_resnet_basic(L):
    def f(x, w1, s1, t1, w2, s2, t2):
        h = bn_relu(L, conv(L, x, w1), s1, t1)
        return L.nn.relu(conv(L, h, w2) * s2 + t2 + x)
    return f


def b_resnet_bottleneck(L):
    def f(x, w1, s1, t1, w2, s2, t2, w3, s3, t3):
        h = bn_relu(L, conv(L, x, w1), s1, t1)
        h = bn_relu(L, conv(L, h, w2), s2, t2)
        return L.nn.relu(conv(L, h, w3) * s3 + t3 + x)
    return f


def b_depthwise_separable(L):
    def f(x, wd, s1, t1, wp, s2, t2):  # MobileNet: depthwise 3x3, BN, ReLU6, pointwise, BN, ReLU
        c = x.shape[-1]
        h = L.np.clip(conv(L, x, wd, groups=c) * s1 + t1, 0.0, 6.0)
        return bn_relu(L, conv(L, h, wp), s2, t2)
    return f


def b_mixer(L):
    def f(x, g1, c1, wt1, bt1, wt2, bt2, g2, c2, wc1, bc1, wc2, bc2):
        # token mixing: an MLP over the patch axis (transpose in, transpose out)
        y = layer_norm(L, x, g1, c1).swapaxes(1, 2)  # B C P
        x = x + mlp(L, y, wt1, bt1, wt2, bt2).swapaxes(1, 2)
        return x + mlp(L, layer_norm(L, x, g2, c2), wc1, bc1, wc2, bc2)
    return f


def b_lstm(L):
    def f(x, h, c, w, u, b):
        gates = x @ w + h @ u + b
        n = h.shape[-1]
        i, fg, g, o = gates[:, :n], gates[:, n:2 * n], gates[:, 2 * n:3 * n], gates[:, 3 * n:]
        c2 = L.nn.sigmoid(fg) * c + L.nn.sigmoid(i) * L.np.tanh(g)
        return L.nn.sigmoid(o) * L.np.tanh(c2), c2
    return f


def b_gru(L):
    def f(x, h, wx, wh, bx, bh):
        n = h.shape[-1]
        gx, gh = x @ wx + bx, h @ wh + bh
        r = L.nn.sigmoid(gx[:, :n] + gh[:, :n])
        z = L.nn.sigmoid(gx[:, n:2 * n] + gh[:, n:2 * n])
        cand = L.np.tanh(gx[:, 2 * n:] + r * gh[:, 2 * n:])
        return (1.0 - z) * cand + z * h
    return f


def b_embedding(L):
    def f(ids, table, pos):
        s, d = ids.shape[1], table.shape[1]
        return table[ids] * math.sqrt(d) + pos[:s]
    return f


def b_rmsnorm(L):
    def f(x, w):
        return rms_norm(L, x, w)
    return f


def b_cross_entropy(L):
    def f(logits, labels):
        logp = L.nn.log_softmax(logits, axis=-1)
        return -logp[L.np.arange(logits.shape[0]), labels].mean()
    return f


def b_adam(L):
    def f(w, g, m, v, t):
        b1, b2, lr, eps = 0.9, 0.999, 1e-3, 1e-8
        m2 = b1 * m + (1.0 - b1) * g
        v2 = b2 * v + (1.0 - b2) * (g * g)
        mhat = m2 / (1.0 - b1 ** t)
        vhat = v2 / (1.0 - b2 ** t)
        return w - lr * mhat / (L.np.sqrt(vhat) + eps), m2, v2
    return f


def b_sgd_many(L):
    def f(*xs):  # an SGD step over many small parameters: the parameters, their gradients, the rate
        n = (len(xs) - 1) // 2
        lr = xs[-1]
        return [p - lr * g for p, g in zip(xs[:n], xs[n:2 * n])]
    return f


def b_patch_embed(L):
    def f(img, w, bias, pos):  # ViT: 16x16 patches by reshape/transpose, projection, pos
        n, hh, ww, c = img.shape
        p = 16
        x = img.reshape(n, hh // p, p, ww // p, p, c).transpose(0, 1, 3, 2, 4, 5)
        x = x.reshape(n, (hh // p) * (ww // p), p * p * c)
        return x @ w + bias + pos
    return f


# --- inputs ---------------------------------------------------------------------------------
F32 = np.float32


def _n(rng, *shape, scale=1.0):
    return (rng.standard_normal(shape) * scale).astype(F32)


def _ln_params(rng, d):
    return [(1 + 0.1 * rng.standard_normal(d)).astype(F32), _n(rng, d, scale=0.1)]


def _mlp_params(rng, d, h):
    return [_n(rng, d, h, scale=d ** -0.5), _n(rng, h, scale=0.1), _n(rng, h, d, scale=h ** -0.5),
            _n(rng, d, scale=0.1)]


def _bn(rng, c):
    return [(1 + 0.1 * rng.standard_normal(c)).astype(F32), _n(rng, c, scale=0.1)]


def _conv_w(rng, k, ci, co):
    return _n(rng, k, k, ci, co, scale=(k * k * ci) ** -0.5)


@dataclass
class Block:
    name: str
    arch: str  # where it comes from, with its sizes
    build: Callable
    inputs: Callable  # rng -> list of arrays
    flops: float = 0.0


def blocks() -> list[Block]:
    B, S, D, H = 2, 256, 512, 2048
    return [
        Block("mlp_block", f"GPT-style MLP: pre-LN, tanh-GELU, x ({B * S},{D}), hidden {H}", b_mlp_block,
              lambda r: [_n(r, B * S, D), *_ln_params(r, D), *_mlp_params(r, D, H)],
              4 * B * S * D * H),
        Block("attention", f"causal MHA, B={B} S={S} D={D} 8 heads, qkv + out proj", b_attention,
              lambda r: [_n(r, B, S, D), _n(r, D, 3 * D, scale=D ** -0.5), _n(r, D, D, scale=D ** -0.5)],
              2 * B * S * D * 4 * D + 4 * B * S * S * D),
        Block("attention_core", "softmax(q k^T / 8) v, q k v (8, 512, 64), no mask", b_attention_core,
              lambda r: [_n(r, 8, 512, 64), _n(r, 8, 512, 64), _n(r, 8, 512, 64)],
              4 * 8 * 512 * 512 * 64),
        Block("mlp_block_768", "pre-LN MLP, tanh-GELU, x (512,768), W1 (768,3072), W2 (3072,768)",
              b_mlp_block, lambda r: [_n(r, 512, 768), *_ln_params(r, 768), *_mlp_params(r, 768, 3072)],
              4 * 512 * 768 * 3072),
        Block("mlp_token", "one token through mlp_block_768 (batch-1 inference: matrix-vector products)",
              b_mlp_block, lambda r: [_n(r, 1, 768), *_ln_params(r, 768), *_mlp_params(r, 768, 3072)],
              4 * 768 * 3072),
        Block("decoder_block", f"GPT-style decoder: LN-attn-LN-MLP, B={B} S=128 D={D} 8 heads", b_decoder,
              lambda r: [_n(r, B, 128, D), *_ln_params(r, D), _n(r, D, 3 * D, scale=D ** -0.5),
                         _n(r, D, D, scale=D ** -0.5), *_ln_params(r, D), *_mlp_params(r, D, H)],
              2 * B * 128 * D * 4 * D + 4 * B * 128 * 128 * D + 4 * B * 128 * D * H),
        Block("swiglu_ffn", "Llama FFN: RMSNorm, SwiGLU, x (512,512), hidden 1376", b_swiglu,
              lambda r: [_n(r, 512, 512), (1 + 0.1 * r.standard_normal(512)).astype(F32),
                         _n(r, 512, 1376, scale=512 ** -0.5), _n(r, 512, 1376, scale=512 ** -0.5),
                         _n(r, 1376, 512, scale=1376 ** -0.5)], 6 * 512 * 512 * 1376),
        Block("resnet_basic", "ResNet-18 stage 2 basic block, (4,28,28,128), 3x3 convs", b_resnet_basic,
              lambda r: [_n(r, 4, 28, 28, 128), _conv_w(r, 3, 128, 128), *_bn(r, 128),
                         _conv_w(r, 3, 128, 128), *_bn(r, 128)], 2 * 2 * 4 * 28 * 28 * 128 * 128 * 9),
        Block("resnet_bottleneck", "ResNet-50 stage 2 bottleneck, (4,28,28,256), 1x1-3x3-1x1, 64 wide",
              b_resnet_bottleneck,
              lambda r: [_n(r, 4, 28, 28, 256), _conv_w(r, 1, 256, 64), *_bn(r, 64), _conv_w(r, 3, 64, 64),
                         *_bn(r, 64), _conv_w(r, 1, 64, 256), *_bn(r, 256)],
              2 * 4 * 28 * 28 * (256 * 64 * 2 + 64 * 64 * 9)),
        Block("depthwise_separable", "MobileNet: dw 3x3 + BN + ReLU6, pw 1x1 64->128, (8,56,56,64)",
              b_depthwise_separable,
              lambda r: [_n(r, 8, 56, 56, 64), _n(r, 3, 3, 1, 64, scale=1 / 3), *_bn(r, 64),
                         _conv_w(r, 1, 64, 128), *_bn(r, 128)], 2 * 8 * 56 * 56 * 64 * (9 + 128)),
        Block("mixer_block", "MLP-Mixer: token MLP 196->256, channel MLP 256->1024, B=4", b_mixer,
              lambda r: [_n(r, 4, 196, 256), *_ln_params(r, 256), *_mlp_params(r, 196, 256),
                         *_ln_params(r, 256), *_mlp_params(r, 256, 1024)],
              4 * 4 * (256 * 196 * 256 + 196 * 256 * 1024)),
        Block("lstm_cell", "LSTM step: B=64, input 256, hidden 512", b_lstm,
              lambda r: [_n(r, 64, 256), _n(r, 64, 512), _n(r, 64, 512), _n(r, 256, 2048, scale=256 ** -0.5),
                         _n(r, 512, 2048, scale=512 ** -0.5), _n(r, 2048, scale=0.1)],
              2 * 64 * (256 + 512) * 2048),
        Block("gru_cell", "GRU step: B=64, input 256, hidden 512", b_gru,
              lambda r: [_n(r, 64, 256), _n(r, 64, 512), _n(r, 256, 1536, scale=256 ** -0.5),
                         _n(r, 512, 1536, scale=512 ** -0.5), _n(r, 1536, scale=0.1), _n(r, 1536, scale=0.1)],
              2 * 64 * (256 + 512) * 1536),
        Block("embedding", "token embedding (vocab 8192, D 512) * sqrt(D) + positions, ids (16,256)",
              b_embedding,
              lambda r: [r.integers(0, 8192, (16, 256)).astype(np.int32), _n(r, 8192, 512, scale=0.02),
                         _n(r, 512, 512, scale=0.02)]),
        Block("rmsnorm", "Llama RMSNorm, x (4096,1024)", b_rmsnorm,
              lambda r: [_n(r, 4096, 1024), (1 + 0.1 * r.standard_normal(1024)).astype(F32)]),
        Block("softmax_xent", "softmax cross-entropy, logits (512,8192), int labels", b_cross_entropy,
              lambda r: [_n(r, 512, 8192, scale=2.0), r.integers(0, 8192, 512).astype(np.int32)]),
        Block("adam_update", "Adam step on 2M params (w, g, m, v in, w, m, v out)", b_adam,
              lambda r: [_n(r, 1 << 21), _n(r, 1 << 21, scale=0.01), _n(r, 1 << 21, scale=0.001),
                         np.abs(_n(r, 1 << 21, scale=1e-5)), np.array(7.0, F32)]),
        Block("sgd_many_params", "SGD step over 100 parameters of (64, 64): 201 arrays in, 100 out",
              b_sgd_many, lambda r: [_n(r, 64, 64) for _ in range(200)] + [np.array(0.01, F32)]),
        Block("patch_embed", "ViT-S patch embedding: (8,224,224,3) 16x16 patches -> 384, + pos",
              b_patch_embed,
              lambda r: [_n(r, 8, 224, 224, 3), _n(r, 768, 384, scale=768 ** -0.5), _n(r, 384, scale=0.1),
                         _n(r, 196, 384, scale=0.02)], 2 * 8 * 196 * 768 * 384),
    ]


# --- random compositions --------------------------------------------------------------------
def _token_pieces():
    """Shape-preserving pieces on a token stream x (N, D): (name, params(rng, d), fn(L, x, *p))."""
    def ln(r, d):
        return _ln_params(r, d)

    def mlp_p(r, d):
        return _mlp_params(r, d, int(r.choice([2, 4])) * d)

    def att_p(r, d):
        return [_n(r, d, 3 * d, scale=d ** -0.5), _n(r, d, d, scale=d ** -0.5)]

    def att(L, x, wqkv, wo, causal):
        n, d = x.shape
        heads = 4 if d % 4 == 0 else 1
        return x + attention(L, x.reshape(1, n, d), wqkv, wo, heads, causal).reshape(n, d)

    return [
        ("layer_norm", ln, lambda L, x, g, b: layer_norm(L, x, g, b)),
        ("rms_norm", lambda r, d: [_ln_params(r, d)[0]], lambda L, x, w: rms_norm(L, x, w)),
        ("mlp_residual", mlp_p, lambda L, x, *p: x + mlp(L, x, *p)),
        ("swiglu_residual", lambda r, d: [_n(r, d, 2 * d, scale=d ** -0.5), _n(r, d, 2 * d, scale=d ** -0.5),
                                          _n(r, 2 * d, d, scale=(2 * d) ** -0.5)],
         lambda L, x, w1, w3, w2: x + (L.nn.silu(x @ w1) * (x @ w3)) @ w2),
        ("causal_attention", att_p, lambda L, x, a, b: att(L, x, a, b, True)),
        ("attention", att_p, lambda L, x, a, b: att(L, x, a, b, False)),
        ("softmax_rows", lambda r, d: [], lambda L, x: L.nn.softmax(x, axis=-1) * x.shape[-1]),
        ("gelu", lambda r, d: [], lambda L, x: L.nn.gelu(x, approximate=True)),
        ("tanh", lambda r, d: [], lambda L, x: L.np.tanh(x)),  # one op: hlo-fuse leaves it unfused
        ("tanh_sigmoid_gate", lambda r, d: [_n(r, d, scale=0.5)],
         lambda L, x, a: L.np.tanh(x * a) * L.nn.sigmoid(x)),
        ("linear", lambda r, d: [_n(r, d, d, scale=d ** -0.5), _n(r, d, scale=0.1)], lambda L, x, w, b: x @ w + b),
        ("token_mix", lambda r, d: [],  # a Mixer-style transpose round trip with a column softmax
         lambda L, x: L.nn.softmax(x.T, axis=-1).T * x.shape[0] + x),
        ("center_columns", lambda r, d: [], lambda L, x: x - x.mean(0, keepdims=True)),
    ]


def _image_pieces():
    def bn(r, c):
        return _bn(r, c)
    return [
        ("conv3x3_bn_relu", lambda r, c: [_conv_w(r, 3, c, c), *bn(r, c)],
         lambda L, x, w, s, t: bn_relu(L, conv(L, x, w), s, t)),
        ("depthwise_relu6", lambda r, c: [_n(r, 3, 3, 1, c, scale=1 / 3), *bn(r, c)],
         lambda L, x, w, s, t: L.np.clip(conv(L, x, w, groups=x.shape[-1]) * s + t, 0.0, 6.0)),
        ("pointwise_bn", lambda r, c: [_conv_w(r, 1, c, c), *bn(r, c)],
         lambda L, x, w, s, t: conv(L, x, w) * s + t),
        ("residual_conv", lambda r, c: [_conv_w(r, 3, c, c)], lambda L, x, w: L.nn.relu(x + conv(L, x, w))),
        ("channel_softmax", lambda r, c: [], lambda L, x: L.nn.softmax(x, axis=-1) * x.shape[-1]),
        ("squeeze_excite", lambda r, c: [_n(r, c, c // 4, scale=c ** -0.5), _n(r, c // 4, c, scale=(c // 4) ** -0.5)],
         lambda L, x, w1, w2: x * L.nn.sigmoid(L.nn.relu(x.mean((1, 2)) @ w1) @ w2)[:, None, None, :]),
    ]


def random_chain(seed: int):
    """A random composition: (description, build(L) -> fn, inputs(rng) -> arrays)."""
    r = np.random.default_rng(seed)
    if r.random() < 0.65:
        pieces, kind = _token_pieces(), "tokens"
        n, d = int(r.choice([64, 128, 256, 512, 1024])), int(r.choice([64, 128, 256, 384, 512]))
        shape, width = (n, d), d
    else:
        pieces, kind = _image_pieces(), "image"
        c = int(r.choice([16, 32, 64]))
        hw = int(r.choice([14, 28, 56]))
        shape, width = (int(r.choice([1, 4, 8])), hw, hw, c), c
    chosen = [pieces[i] for i in r.choice(len(pieces), size=int(r.integers(2, 6)))]
    param_seed = int(r.integers(1 << 30))

    def make_inputs(_rng):
        pr = np.random.default_rng(param_seed)
        arrays = [_n(pr, *shape)]
        counts = []
        for _, params, _ in chosen:
            p = params(pr, width)
            counts.append(len(p))
            arrays += p
        make_inputs.counts = counts
        return arrays
    make_inputs(None)
    counts = make_inputs.counts

    def build(L):
        def f(x, *params):
            k = 0
            for (_, _, fn), cnt in zip(chosen, counts):
                x = fn(L, x, *params[k:k + cnt])
                k += cnt
            return x
        return f
    desc = f"{kind}{list(shape)}: " + " -> ".join(name for name, _, _ in chosen)
    return desc, build, make_inputs


# --- measuring ------------------------------------------------------------------------------
def samples_ms(fn, args, repeats: int) -> list[float]:
    """`repeats` wall times in ms of fn(*args) after one warm-up call."""
    out = fn(*args)
    del out
    result = []
    for _ in range(repeats):
        start = time.perf_counter()
        out = fn(*args)
        for leaf in (out if isinstance(out, (tuple, list)) else [out]):
            getattr(leaf, "block_until_ready", lambda: None)()
        result.append((time.perf_counter() - start) * 1e3)
        del out  # back to MLC's buffer pool before the next call
    return result


def repeats_for(ms: float) -> int:
    """Enough calls for ~0.4 s per implementation per round, between 5 and 200."""
    return int(min(200, max(5, 400 / max(ms, 1e-3))))


class JaxPeer(ChildPeer):
    """jax.jit in a child process (`corpus.py --jax-child`, peers.py's protocol), kept up for
    the whole run. load() can also have the child write the block's StableHLO (for IREE)."""

    name = "jax"

    def __init__(self, workdir: Path):
        super().__init__([sys.executable, str(HERE), "--jax-child"], workdir,
                         env=dict(os.environ, JAX_PLATFORMS="cpu"))

    def load(self, spec: dict, args: list, ref, stablehlo: Path | None = None) -> dict:  # noqa: D102
        return super().load(args, ref, spec=spec, stablehlo=str(stablehlo) if stablehlo else None)


def _build_from_spec(spec: dict):
    if spec["kind"] == "block":
        block = next(b for b in blocks() if b.name == spec["name"])
        return block.build
    return random_chain(spec["seed"])[1]


def jax_child() -> None:
    """The child's side: load a block (build, jit, compile, check; write its StableHLO when
    asked), time it."""
    try:
        import jax
        L = jax_lib()
    except ImportError:
        serve({"version": lambda msg: {"version": None}})
        return
    state = {}

    def load(msg):
        state.clear()
        data, ref = read_inputs(msg)
        args = [jax.numpy.asarray(a) for a in data]
        fn = _build_from_spec(msg["spec"])(L)
        reply = {}
        if msg.get("stablehlo"):  # keep_unused: IREE's @main takes every input, as the others do
            try:
                Path(msg["stablehlo"]).write_text(jax.jit(fn, keep_unused=True).lower(*args).as_text())
                reply["stablehlo"] = msg["stablehlo"]
            except Exception as e:  # noqa: BLE001 - IREE's cell says why
                reply["stablehlo_failed"] = first_line(e)
        try:
            jitted = jax.jit(fn)
            start = time.perf_counter()
            compiled = jitted.lower(*args).compile()
            compile_s = time.perf_counter() - start
            out = compiled(*args)
        except Exception as e:  # noqa: BLE001 - reported, the run goes on
            return {**reply, "failed": first_line(e)}
        state.update(fn=compiled, args=args)
        return {**reply, "compile_s": compile_s, "error": max_error(out, ref)}

    def time_calls(msg):
        return {"samples": samples_ms(state["fn"], state["args"], msg["repeats"]) if state else []}

    serve({"version": lambda msg: {"version": jax.__version__}, "load": load, "time": time_calls})


def load_peers(peers: dict, spec: dict, args: list, ref, row: dict) -> None:
    """Loads the block into each peer child: jax.jit builds and compiles it and writes its
    StableHLO, which IREE compiles. Sets <peer>_compile_s / _error or <peer>_failed."""
    jax_peer, iree_peer = peers.get("jax"), peers.get("iree")
    hlo = iree_peer.workdir / "block.stablehlo.mlir" if iree_peer is not None else None
    loaded = {}
    if jax_peer is not None:
        loaded = jax_peer.load(spec, args, ref, stablehlo=hlo)
        if "failed" in loaded:
            row["jax_failed"] = loaded["failed"]
        else:
            row["jax_compile_s"], row["jax_error"] = loaded["compile_s"], loaded["error"]
    if iree_peer is None:
        return
    if "stablehlo" not in loaded:
        row["iree_failed"] = ("no StableHLO: " + loaded["stablehlo_failed"] if "stablehlo_failed" in loaded
                              else "no StableHLO (it comes from jax, " +
                              ("which failed)" if loaded else "not installed)"))
        return
    got = iree_peer.load(hlo, args, ref)
    if "failed" in got:
        row["iree_failed"] = got["failed"]
    else:
        row["iree_compile_s"], row["iree_error"], row["iree_out_mb"] = got["compile_s"], got["error"], got["out_mb"]


def measure(build, make_inputs, spec: dict, peers: dict, seed: int = 0, rounds: int = ROUNDS) -> dict:
    """One block or chain: correctness and compile of MLC and the peers, then `rounds`
    interleaved rounds of numpy, MLC, jax, IREE. peers: {"jax": JaxPeer | None, "iree": ...}."""
    import mlc
    rng = np.random.default_rng(seed)
    args = make_inputs(rng)
    ref = build(numpy_lib())(*f64(args))
    np_fn = build(numpy_lib())
    row: dict = {"numpy_f32_error": max_error(np_fn(*args), ref)}
    jitted = mlc.jit(build(mlc_lib()))
    start = time.perf_counter()
    compiled = None
    try:
        compiled = jitted.lower(*args).compile()
        row["compile_s"] = time.perf_counter() - start
        row["mlc_error"] = max_error(compiled(*args), ref)
        row["mlc_ok"] = row["mlc_error"] <= RTOL
    except Exception as e:  # noqa: BLE001 - a crash is a finding; numpy and the peers are still timed
        compiled = None
        row["mlc_failed"] = f"{type(e).__name__}: {str(e).splitlines()[0][:300] if str(e) else ''}"
    load_peers(peers, spec, args, ref, row)
    timed = {k: p for k, p in peers.items() if p is not None and f"{k}_compile_s" in row}
    # Size the repeats from one call each, then interleave the rounds.
    probe = min(samples_ms(np_fn, args, 1) + (samples_ms(compiled, args, 1) if compiled else []))
    n = repeats_for(probe)
    samples = {"numpy": [], "mlc": [], **{k: [] for k in timed}}
    d2h = []
    for _ in range(rounds):
        samples["numpy"] += samples_ms(np_fn, args, n)
        time.sleep(SETTLE_S)
        if compiled is not None:
            samples["mlc"] += samples_ms(compiled, args, n)
            time.sleep(SETTLE_S)
        for k, peer in timed.items():
            samples[k] += peer.time(n)
            time.sleep(SETTLE_S)
            if k == "iree":
                d2h += peer.last.get("d2h", [])
    row["repeats"] = n * rounds
    for k, v in samples.items():
        if v:
            row[f"{k}_ms"] = statistics.median(v)
    if d2h:
        row["iree_d2h_ms"] = statistics.median(d2h)
    if compiled is not None:
        row["mlc_vs_numpy"] = row["numpy_ms"] / row["mlc_ms"]
        peer_ratios(row)
    row["load_after"] = round(os.getloadavg()[0], 1)
    row["_compiled"] = compiled
    return row


def diagnose(compiled) -> dict:
    """The cost analysis summary kept in the json, to write the note from."""
    try:
        cost = compiled.cost_analysis()
    except Exception as e:  # noqa: BLE001
        return {"cost_analysis_failed": str(e)[:200]}
    keep = {}
    for k, v in (cost.items() if isinstance(cost, dict) else vars(cost).items()):
        if isinstance(v, (int, float, str)):
            keep[k] = v
    return keep


# Why a block misses the rule: one line each, written by hand from the block's cost analysis
# and hlo-fused text (`python benchmarks/corpus.py --explain NAME` prints both) and from the
# OPENBLAS_NUM_THREADS=1 run. Shown only for a block that misses in the table it is in.
_BLAS = ("GEMM-bound: its GEMMs run on MLC's packed kernel (f32 on 512-bit vectors, blas.OWN_F32_MIN_BITS), "
         "numpy's on OpenBLAS; jax.jit's on its own GEMM")
_BCAST = ("`x @ W` on a 3-D x keeps hlo.broadcast_in_dim(W) and a batched dot_general; with an epilogue or "
          "a fused operand, codegen copies W per batch element and makes one GEMM call per batch element where "
          "jnp.matmul makes one (single-threaded BLAS the cost is small, each OpenBLAS call is one more chance "
          "to stall on this host)")
NOTES: dict[str, str] = {
    "mlp_block": f"{_BLAS}; cost 2.16 GFLOP = nominal (no recompute); each GEMM an output fusion with its "
                 "epilogue (bias + tanh-GELU, bias + residual)",
    "attention": ("its 4 big GEMMs on MLC's packed kernel; the masked scores, softmax and "
                  "p @ v run head by head (16 heads) in one parallel loop (mlc-chain-tiling), on the packed kernel too"),
    "decoder_block": "within noise of the rule: the attention block's GEMMs plus two layer norms (4 row kernels "
                     "each, one row loop)",
    "swiglu_ffn": f"{_BLAS}; the RMSNorm a row kernel",
    "resnet_basic": "both 3x3 convs on mlc-direct-conv (no im2col), BN + ReLU fused per conv",
    "resnet_bottleneck": ("1x1-3x3-1x1 convs on mlc-direct-conv (no im2col copy), 12 kernels; 2.0x numpy and "
                          "jax.jit, 0.82-0.83x IREE (IREE's kernels not examined yet)"),
    "mixer_block": ("its token-mixing matmul swapaxes(x, 1, 2) @ W is one batched product on the packed kernel "
                    "(a loop of 4 OpenBLAS calls before, 0.82-0.83x jax.jit; a scalar loop nest of 102 ms before "
                    "that); two layer norms of 4 kernels each"),
    "lstm_cell": f"{_BLAS} (2 GEMMs 64x256x2048 and 64x512x2048; as OpenBLAS calls 1.41 ms, packed 1.12)",
    "gru_cell": ("both GEMMs (64x512x1536, 64x256x1536) on the packed kernel, the gates one kernel; as "
                 "OpenBLAS calls 0.92 ms, packed 0.80-0.82"),
    "attention_core": ("softmax(q k^T / 8) v, (8, 512, 64): mlc-chain-tiling runs q k^T, the softmax and "
                       "p v head by head in one parallel loop (4 heads a thread, each head's 1 MB scores read "
                       "back from cache; unfused they were written whole, 8 MB each); the heads' GEMMs on MLC's "
                       "packed kernel. Alone on a quiet host 3.5 ms median (p25 3.46) against 5.3 unfused; "
                       "across corpus runs 4.2-6.0 ms against jax.jit's 3.5-4.8 (YNNPACK runs the whole block as "
                       "one custom fusion): 0.79-1.14x, the spread is this host's noise"),
    "mlp_token": ("x (1, 768): both products are OpenBLAS gemv calls (vector contractions; before they were a loop "
                  "nest reading the weight by columns, 46 ms for 1x1024x4096)"),
    "embedding": ("gather, * sqrt(D) and + positions are one kernel, vectorized by mlc-vectorize's gather path (the "
                  "id clamped once per row, contiguous vector loads, rows split over both cores). Memory-bound: "
                  "alone 0.50-0.73 ms against jax.jit's 0.53-0.69 (0.95x, 1.08x in two single-row runs), one "
                  "thread 0.58 against two 0.63 (p25): the second core adds nothing on this VM's memory"),
    "softmax_xent": ("hlo-simplify moves the label gather above log_softmax's subtracts and broadcasts "
                     "(simplify/gather.py): 512 gathered points are computed instead of the 512x8192 log_softmax "
                     "(16.8 MB written, then read for 512 elements); two passes over the logits (max, exp-sum)"),
    "adam_update": ("one multi-output kernel (w', m', v' in one pass) with non-temporal stores (59 MB of traffic, "
                    "was 84 with the stores' line reads) plus 2 scalar kernels for the bias corrections"),
    "sgd_many_params": ("the Python per-array dispatch was the cost (0.60x, 0.76x and 0.67x numpy in the ninth, "
                        "tenth and eleventh sessions' earlier runs): with 16 arrays or more a call's arguments are "
                        "now checked against the compiled signature and their pointers stored in one native call "
                        "(runtime/signature_check.py: numpy's array struct and CPython's tuple read directly, "
                        "layouts probed once), no key built: 208-250 -> ~100 us a call, of which the kernels ~56 "
                        "and the 100 result arrays ~22. Compile 0.47-0.65 s against jax.jit's 0.11-0.14 (linear "
                        "in the parameters)"),
    "patch_embed": "patchify is a transpose copy, then one GEMM (the batch folds into M)",
    "rmsnorm": "one row kernel (cost: 1 kernel, 50.9 MB read); memory-bound",
    "depthwise_separable": ("depthwise 3x3 on mlc-direct-conv's channel-vectorized kernel (16.8 -> 6.1 ms alone), pointwise "
                            "1x1 64->128 on the direct dense kernel (the rule keeps im2col for >= 256 input "
                            "channels); the depthwise kernel reads x in place (no padded copy) and BN+ReLU6 and "
                            "the pointwise's BN+ReLU run in the conv kernels' stores: 2 kernels, ~32 MB moved "
                            "(was 5 kernels, ~105 MB; 0.80x IREE before); cost_analysis reads the buffers "
                            "stage and still counts the epilogue kernels"),
}

# Cliffs found while investigating the table and the random chains (not a row of either).
OTHER_FINDINGS: list[str] = [
    "`mlc.jit(lambda x, w: mnp.tanh(x) @ w)` on (512,512) x (512,512): 1.9 s per call against numpy's 18 ms "
    "(exp likewise 1.0 s; x @ tanh(w) too; relu, x+1 and tanh(x*2+1) were fine): hlo-fuse left the lone tanh "
    "unfused in @main, then upstream elementwise fusion, run on every function by the buffers stage, merged "
    "it into the matmul's linalg.generic: tanh recomputed for every output column (cost_analysis: 403 MFLOP "
    "against 268), no BLAS call, a scalar loop nest. Fixed: mlc-fuse-kernels runs elementwise fusion inside "
    "hlo-fuse's fusions only (now 15 ms). The `tanh` piece of --random targets it.",
    "`--random 24 --seed 300` (2026-12-04): 3 of 24 chains failed to compile, each with a small swiglu_residual "
    "(silu(x @ w1) * (x @ w3), 128-1024 tokens, register-tiled products): mlc-tile-matmul claimed the one "
    "elementwise op reading both products as the fused epilogue of both, so the first plan's handle was empty "
    "and the transform script failed ('requires exactly one containing_op handle'), surfacing as a raw "
    "ValueError. Fixed: an epilogue fuses into the first product only; a failing script is a CompileError.",
    "`--random 24 --seed 11` (2026-12-05, fifth session, tree 405889d..c0b1d65): 1 of 24 chains slower than numpy, "
    "none failed or wrong. Chain 1100055, tokens[1024, 64]: token_mix -> center_columns (softmax(x.T).T * n + "
    "x, then x - mean over tokens), 0.348 ms against numpy's 0.276 (jax 0.297), reproduced (0.335 against "
    "0.261, p25 of 500): hlo-fuse's kernels copied x transposed, reduced the copy's rows and transposed the "
    "result back. Fixed: hlo-simplify moves transposes below elementwise ops (XLA's ReshapeMover) and into "
    "reductions (reduce(transpose(x)) reduces x's dims), where the two transposes cancel: 0.060 ms, no "
    "transpose left, its reductions along x's columns.",
    "`--random 12 --seed 12` (2026-12-05, fifth session's end, tree 51f09d4): 12 chains, 0 slower than numpy eager, 0 failed or wrong, each also faster than jax.jit (MLC 0.022-2.05 ms against numpy 0.16-5.09 and jax 0.11-3.64).",
    "`--random 16 --seed 13` (2026-12-05, sixth session, tree 99e0dd6): 16 chains, 0 slower than numpy eager, 0 failed or wrong, each faster than jax.jit (1.06-36x); compile 0.07-0.74 s against jax's 0.04-0.27.",
    "`--random 16 --seed 14` (2026-12-05, sixth session, tree 2e9b687): 1 of 16 chains slower than numpy, none failed or wrong. Chain 1400053, tokens[64, 512]: center_columns -> linear (x - mean(x, 0), then x @ W + b with W 512 x 512), 0.340 ms against numpy's 0.283: the product with its bias epilogue went to mlc-tile-matmul's register tiles (the epilogue rule reached 256^3), which read all of W (1 MiB, twice the L2) again for every 4 rows: 363 us against 229 for the packed kernel with the same epilogue fused. Fixed: the tiles take an epilogue's matmul above the small-matmul rule only while B fits in one core's L2 (`codegen/tile_matmul.py`): the chain 0.236-0.298 ms against numpy's 0.237-0.285 in alternating runs (the product alone 225 against 215).",
    "`--random 16 --seed 15` (2026-12-05, sixth session's end, tree 8a9805d): 16 chains, 0 slower than numpy eager, 0 failed or wrong, each faster than jax.jit; compile 0.04-0.68 s against jax's 0.04-0.27 (the attention chains 2-3x jax's: item 3 of issue 17).",
    "`--random 16 --seed 16` (2026-12-05, seventh session, tree fd7b0d2): 16 chains, 0 slower than numpy "
    "eager, 0 failed or wrong, 15 of 16 faster than jax.jit (the other 0.99x); compile 0.06-0.69 s against "
    "jax's 0.04-0.34 (the slowest, swiglu_residual -> causal_attention, 0.69 against 0.17). The named blocks "
    "in the same session (no IREE): compile 0.04-0.38 s against jax's 0.02-0.30, 2.8 s in all against 3.9 "
    "in the table above (attention 0.43 -> 0.29, attention_core 0.30 -> 0.18, decoder_block 0.64 -> 0.38: "
    "LLVM without indvars and LSR, big modules' parts on both threads), every block still faster than or "
    "equal to jax.jit (mlp_block 1.00x).",
    "Compile column of the table (2026-12-06, eleventh session): dense direct convolutions whose tiles need no "
    "fused epilogue now call MLC's precompiled convolution kernels (codegen/conv_library.py, which also write "
    "the zero-padded input): resnet_basic's two 3x3 convs (depth 1152, K-blocked: their batch norm and ReLU "
    "never ran in the kernel's stores) and resnet_bottleneck's 3x3 and plain 1x1 convs. This process has the "
    "cache off, so the first block calling each variant builds it (0.1-0.14 s). In one warmed process, process "
    "CPU, kernels against gemm_kernels=False (medians of 5, alternating): resnet_basic 101 against 175 ms, "
    "resnet_bottleneck 182 against 259, depthwise_separable 144 against 144 (its convs apply their epilogues); "
    "run times unchanged (resnet_basic 9.54 against 9.33 ms, resnet_bottleneck 2.79 against 2.73, best of 40 "
    "interleaved calls).",
    "`--random 16 --seed 25` (2026-12-06, eleventh session, tree 168ddcf..HEAD with the precompiled convolution "
    "kernels, the random section below): 16 chains, 0 slower than numpy eager, 0 failed or wrong, 15 faster than "
    "jax.jit (the other 0.97x: token_mix -> causal_attention -> gelu on tokens[512, 64]). A first run of the same "
    "seed shared the machine with compile-time measurements and put chain 16 (tanh_sigmoid_gate -> softmax_rows "
    "-> swiglu_residual, tokens[256, 384]) at 0.82x numpy; alone, alternating 200 calls: 2.55 ms against "
    "numpy's 3.08 (p25), and 2.53 against 3.12 in the rerun kept here.",
    "`--random 16 --seed 24` (2026-12-06, tenth session, tree 76c36b9..HEAD with the precompiled GEMM kernels, "
    "the random section below): 16 chains, 0 slower than numpy eager, 0 failed or wrong, 15 faster than jax.jit "
    "(the other 0.99x: gelu -> layer_norm -> mlp_residual on tokens[1024, 512]); compile 0.07-0.65 s against "
    "jax's 0.04-0.37, the kernels built in that process by the first chain calling each (the cache off).",
    "Compile column of the table (2026-12-06, tenth session): f32 GEMMs now call MLC's precompiled kernels "
    "(codegen/gemm_library.py), built once per host and variant; this process has the persistent cache off, "
    "so the first block calling each kernel builds it (mlp_block 0.46 s, attention 0.63 s, mixer_block 0.39 s "
    "include ~0.15-0.35 s per kernel built), the later ones reuse them (decoder_block 0.22 s, was 0.38-0.64; "
    "swiglu_ffn, lstm_cell, gru_cell 0.10 s). In one warmed process with every kernel built, the 19 blocks and "
    "the 10 table rows compiled in 2.9 s against 4.9 s with the kernels generated per program (run times "
    "geomean ratio 0.975: equal within the noise).",
    "`--random 16 --seed 23` (2026-12-05, eighth session, tree 1098fab, load 2.1 at the start): 16 chains, "
    "0 slower than numpy eager, 0 failed or wrong, each faster than jax.jit (1.06-28.6x); compile 0.04-0.71 s "
    "against jax's 0.05-0.25 (the slowest: attention -> softmax_rows -> mlp_residual -> tanh, 0.71 against "
    "0.25, and causal_attention chains 0.60 against 0.25).",
]

# Findings of the --random run (seed -> one line), written by hand after reproducing each.
RANDOM_NOTES: dict[int, str] = {
    2: "reproduced (4 runs, with and without OPENBLAS_NUM_THREADS=1: 1.6-2.3 ms against 0.6-0.7): at 64 tokens the "
       "attention's small batched contractions, whose operand is a transposed slice of the qkv projection "
       "(batch dims (0, 2) of B,S,H,dh), are below mlc-blas's size threshold and lower to a scalar 6-d "
       "linalg.generic (no vectorization, no tiling): p @ v alone 0.83 ms against numpy's 0.075 ms, "
       "q @ k^T 0.30 against 0.086",
}


PROGRESS_KEYS = ("numpy_ms", "mlc_ms", "jax_ms", "iree_ms", "compile_s", "iree_compile_s")


def _progress(row: dict) -> str:
    text = "  ".join(f"{k}={row[k]:.3g}" for k in PROGRESS_KEYS if k in row)
    return text + "".join(f"  {k}: {row[k]}" for k in ("jax_failed", "iree_failed") if k in row) + "\n"


def run_blocks(selected: list[Block], peers: dict) -> list[dict]:
    rows = []
    for i, b in enumerate(selected):
        sys.stderr.write(f"[{i + 1}/{len(selected)}] {b.name} ...")
        sys.stderr.flush()
        row = {"block": b.name, "arch": b.arch, "flops": b.flops}
        row.update(measure(b.build, b.inputs, {"kind": "block", "name": b.name}, peers))
        compiled = row.pop("_compiled", None)
        if compiled is not None:
            row["cost"] = diagnose(compiled)
        sys.stderr.write(" " + _progress(row))
        rows.append(row)
    return rows


def run_random(count: int, seed: int, peers: dict) -> list[dict]:
    rows = []
    for i in range(count):
        s = seed * 100_003 + i
        desc, build, make_inputs = random_chain(s)
        sys.stderr.write(f"[random {i + 1}/{count}] {desc} ...")
        sys.stderr.flush()
        row = {"seed": s, "chain": desc}
        row.update(measure(build, make_inputs, {"kind": "random", "seed": s}, peers, rounds=2))
        row.pop("_compiled", None)
        sys.stderr.write(" " + _progress(row))
        rows.append(row)
    return rows


# --- results --------------------------------------------------------------------------------
def block_note(r: dict) -> str:
    parts = []
    if "mlc_failed" in r:
        parts.append(f"MLC FAILED: {r['mlc_failed']}")
    elif not r.get("mlc_ok", True):
        parts.append(f"WRONG: error {r['mlc_error']:.2e} > {RTOL}")
    misses = []
    if r.get("mlc_vs_numpy", 1.0) < MISS_NUMPY:
        misses.append("slower than numpy")
    if "mlc_vs_best" in r and r["mlc_vs_best"] < MISS_PEER:
        misses.append(f">1.2x {PEERS[r['best_peer']]}")
    if misses:
        parts.append("MISS (" + ", ".join(misses) + "): " + NOTES.get(r["block"], "cause not yet investigated"))
    for k, label in PEERS.items():
        if f"{k}_failed" in r:
            parts.append(f"{label} FAILED: {r[f'{k}_failed']}")
        elif r.get(f"{k}_error", 0.0) > RTOL:
            parts.append(f"{label} WRONG: error {r[f'{k}_error']:.2e} > {RTOL}")
    return "; ".join(parts) or "meets the rule"


TABLE_HEADER = ["| block | numpy ms | MLC ms | jax ms | IREE ms | MLC/numpy | MLC/jax | MLC/IREE | MLC/best peer "
                "| compile s | n | err | note |",
                "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|"]


def _fmt(r, key, spec=".2f", suffix=""):
    return format(r[key], spec) + suffix if key in r else "-"


def _compile_cell(r: dict) -> str:
    peers = [_fmt(r, f"{k}_compile_s") for k in PEERS]
    return _fmt(r, "compile_s") + (f" ({', '.join(peers)})" if any(p != "-" for p in peers) else "")


def _best_cell(r: dict) -> str:
    if "mlc_vs_best" not in r:
        return "-"
    return f"{r['mlc_vs_best']:.2f}x ({'jax' if r['best_peer'] == 'jax' else 'IREE'})"


def table_rows(rows: list[dict]) -> list[str]:
    lines = []
    fmt = _fmt
    for r in rows:
        peer_ratios(r)  # rows of an older json have no IREE column, or no best-peer ratio yet
        err = f"{r['mlc_error']:.1e} ({r['numpy_f32_error']:.1e})" if "mlc_error" in r else "-"
        lines.append(f"| {r['block']} | {fmt(r, 'numpy_ms', '.3f')} | {fmt(r, 'mlc_ms', '.3f')} | "
                     f"{fmt(r, 'jax_ms', '.3f')} | {fmt(r, 'iree_ms', '.3f')} | {fmt(r, 'mlc_vs_numpy', suffix='x')} | "
                     f"{fmt(r, 'mlc_vs_jax', suffix='x')} | {fmt(r, 'mlc_vs_iree', suffix='x')} | {_best_cell(r)} | "
                     f"{_compile_cell(r)} | {r.get('repeats', '-')} | {err} | {block_note(r)} |")
    return lines


def d2h_sentence(rows: list[dict]) -> str:
    """What `.to_host()` cost inside IREE's samples, on the row with the largest output."""
    rows = [r for r in rows if "iree_d2h_ms" in r and "iree_out_mb" in r]
    if not rows:
        return ""
    r = max(rows, key=lambda r: r["iree_out_mb"])
    name = r.get("block") or f"seed {r['seed']}"
    return (f" On `{name}`'s {r['iree_out_mb']:.1f} MB of outputs, `.to_host()` took {r['iree_d2h_ms']:.3f} ms "
            f"(median) of IREE's {r['iree_ms']:.3f} ms: on IREE's local-task CPU device the result buffer is "
            "host-visible and `.to_host()` maps it rather than copying, and the call itself returns once the "
            "work is done.")


def markdown(data: dict) -> str:
    m = data["machine"]
    lines = [
        f"# Model-block corpus ({m['date']})", "",
        f"{m['cpu']}, {m['cores']} cores, {m['vector_bits']}-bit vectors, numpy {m['numpy']}, "
        f"jax {m.get('jax') or 'not installed'}, IREE {m.get('iree') or 'not run'}. **The machine is shared with "
        f"other engineers' test runs (load average {m.get('load', '?')} at the start on 2 cores): timings are "
        "noisy, single numbers "
        "move by up to 2x between runs, and a call that waits does so in whole multiples of 4-16 ms (a "
        "descheduled OpenBLAS worker thread or CPU throttling), so a block that makes several GEMM calls can "
        "take 10x its unloaded time; numpy eager and MLC share numpy's OpenBLAS, jax.jit and IREE have their "
        "own GEMMs.** Each column is the median over "
        f"{ROUNDS} interleaved rounds (numpy, MLC, jax.jit, IREE back to back per round; jax and IREE each in "
        "a child process kept up for the run); `n` is the number of timed calls per implementation. IREE "
        f"(iree-base-compiler/-runtime, `llvm-cpu` backend, `{' '.join(IREE_FLAGS)}`, the multi-threaded "
        f"`{IREE_DEVICE}` device) compiles jax.jit's StableHLO of the block (`jit(f, keep_unused=True)"
        ".lower(...).as_text()`); its inputs are put on the device once, and each timed call includes "
        "`.to_host()` of every output (the device-to-host transfer, so the work is finished)."
        + d2h_sentence(data["blocks"] + [r for k, sec in data.items() if k.startswith("blocks_openblas")
                                         for r in sec["rows"]]) + " MLC/numpy, MLC/jax and MLC/IREE "
        "are the other's median over MLC's (above 1: MLC is faster); MLC/best peer is over the faster of jax.jit "
        "and IREE (among those whose output passed). Compile s: MLC's first call "
        "(trace + all stages + LLVM, no disk cache); in parentheses jax's lower + compile, then IREE's "
        "`compile_str` (StableHLO to vmfb). Correctness: "
        f"every output within {RTOL:g} x max(1, max|ref|) of numpy on float64-cast inputs, for MLC, jax and "
        "IREE alike (err column: MLC's, numpy float32's own in parentheses; a peer that fails it is named in the "
        "note).", "",
        "Rule (issue 14): no block slower than numpy eager, each within 1.2x of the faster of jax.jit and IREE "
        "(MLC/best peer >= 0.83), or the note says why.", "",
    ] + TABLE_HEADER

    fmt = _fmt
    lines += table_rows(data["blocks"])
    for key, sec in data.items():
        if key.startswith("blocks_openblas"):
            sm = sec["machine"]
            lines += ["", f"## The same corpus with {key[len('blocks_'):].replace('openblas', 'OPENBLAS_NUM_THREADS=')} "
                      f"({sm['date']}, load average {sm.get('load', '?')})", "",
                      "numpy's and MLC's GEMM calls (both numpy's OpenBLAS) single-threaded; MLC's own loops and "
                      "jax.jit and IREE still use both cores. A separate run, so its columns are not comparable with the table "
                      "above row by row.", ""] + TABLE_HEADER + table_rows(sec["rows"])
    lines += ["", "Blocks (sizes):", ""]
    lines += [f"- `{r['block']}`: {r['arch']}" for r in data["blocks"]]
    rnd = data.get("random")
    if rnd:
        slow = [r for r in rnd["rows"] if "mlc_vs_numpy" in r and r["mlc_vs_numpy"] < 1.0]
        bad = [r for r in rnd["rows"] if "mlc_failed" in r or not r.get("mlc_ok", True)]
        lines += ["", f"## Random compositions (`--random {len(rnd['rows'])} --seed {rnd['seed']}`, {rnd['date']})", "",
                  f"{len(rnd['rows'])} chains of 2-5 shape-preserving blocks with random sizes, 2 interleaved "
                  f"rounds each, load average {rnd.get('load', '?')} at the start"
                  + (f", run with OPENBLAS_NUM_THREADS={rnd['openblas_threads']} (numpy's and MLC's GEMMs "
                     "single-threaded, so OpenBLAS stalls do not hide the compilers' own costs)"
                     if rnd.get("openblas_threads") else "")
                  + f". **{len(slow)} slower than numpy eager**, {len(bad)} failed or wrong.", "",
                  "| seed | chain | numpy ms | MLC ms | jax ms | IREE ms | MLC/numpy | MLC/jax | MLC/IREE | "
                  "MLC/best peer | compile s | err |",
                  "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
        for r in rnd["rows"]:
            if "mlc_failed" in r:
                lines.append(f"| {r['seed']} | {r['chain']} | - | - | - | - | - | - | - | - | - | "
                             f"FAILED: {r['mlc_failed']} |")
                continue
            peer_ratios(r)
            flag = " **SLOWER**" if r["mlc_vs_numpy"] < 1.0 else ""
            err = f"{r['mlc_error']:.1e}" + ("" if r["mlc_ok"] else " **WRONG**")
            err += "".join(f"; {label} FAILED: {r[f'{k}_failed']}" if f"{k}_failed" in r
                           else (f"; {label} WRONG ({r[f'{k}_error']:.1e})" if r.get(f"{k}_error", 0.0) > RTOL else "")
                           for k, label in PEERS.items())
            lines.append(f"| {r['seed']} | {r['chain']} | {fmt(r, 'numpy_ms', '.3f')} | {fmt(r, 'mlc_ms', '.3f')} | "
                         f"{fmt(r, 'jax_ms', '.3f')} | {fmt(r, 'iree_ms', '.3f')} | {fmt(r, 'mlc_vs_numpy')}x{flag} | "
                         f"{fmt(r, 'mlc_vs_jax', suffix='x')} | {fmt(r, 'mlc_vs_iree', suffix='x')} | {_best_cell(r)} | "
                         f"{_compile_cell(r)} | {err} |")
        found = [r for r in rnd["rows"] if r["seed"] in RANDOM_NOTES]
        if found:
            lines += ["", "Findings (`python benchmarks/corpus.py --explain SEED` prints a chain's cost analysis "
                      "and hlo-fused text):", ""]
            lines += [f"- seed {r['seed']} ({r['chain']}): {RANDOM_NOTES[r['seed']]}" for r in found]
        if OTHER_FINDINGS:
            lines += ["", "Other cliffs found while investigating:", ""] + [f"- {f}" for f in OTHER_FINDINGS]
        others = [r for r in slow if r["seed"] not in RANDOM_NOTES]
        if others:
            lines += ["", "Slower than numpy but not reproduced as a compiler cause (noise or OpenBLAS stalls, see "
                      "the header): seeds " + ", ".join(str(r["seed"]) for r in others) + "."]
    return "\n".join(lines) + "\n"


def bar_chart(rows: list[dict], path: Path) -> bool:
    rows = [r for r in rows if "mlc_ms" in r]
    jax, iree = ([r["numpy_ms"] / r[f"{k}_ms"] if f"{k}_ms" in r else 0 for r in rows]
                 if any(f"{k}_ms" in r for r in rows) else None for k in ("jax", "iree"))
    return ratio_chart(path, [r["block"] for r in rows], [r["mlc_vs_numpy"] for r in rows], jax,
                       log=True, title="model-block corpus", iree_ratios=iree)


def explain(name: str) -> None:
    """Prints the cost analysis and the hlo-fused text of one block (or random seed)."""
    import mlc
    if name.isdigit():
        _, build, make_inputs = random_chain(int(name))
    else:
        b = next(b for b in blocks() if b.name == name)
        build, make_inputs = b.build, b.inputs
    args = make_inputs(np.random.default_rng(0))
    lowered = mlc.jit(build(mlc_lib())).lower(*args)
    compiled = lowered.compile()
    print(compiled.cost_analysis())
    print(lowered.as_text("hlo-fused"))


def parse_args(argv: list[str]):
    import argparse
    ap = argparse.ArgumentParser(description="The model-block corpus: MLC against numpy eager, jax.jit and IREE.")
    ap.add_argument("names", nargs="*", help="blocks whose name contains one of these (default: all)")
    ap.add_argument("--random", nargs="?", type=int, const=20, default=None, metavar="N",
                    help="N random chains of blocks instead of the blocks (default 20)")
    ap.add_argument("--seed", type=int, default=0, help="the random chains' seed (default 0)")
    ap.add_argument("--explain", metavar="NAME|SEED", help="cost analysis + hlo-fused text of one block/chain")
    ap.add_argument("--render", action="store_true", help="corpus.md/.png again from corpus.json")
    ap.add_argument("--out", type=Path, default=RESULTS,
                    help="directory of corpus.json/.md/.png (default benchmarks/results; a trial run: /tmp/...)")
    ap.add_argument("--no-iree", action="store_true", help="leave IREE out (no IREE child, no column values)")
    ap.add_argument("--no-jax", action="store_true", help="leave jax.jit out (and so IREE, which compiles jax's "
                    "StableHLO)")
    args = ap.parse_args(argv)
    if args.random is not None and args.names and all(n.isdigit() for n in args.names):  # `--random ... 30`
        args.random, args.names = int(args.names[0]), []
    return args


def main(argv: list[str]) -> None:
    if argv[:1] == ["--jax-child"]:
        jax_child()
        return
    if argv[:1] == ["--iree-child"]:
        from peers import iree_child
        iree_child()
        return
    opts = parse_args(argv)
    out_dir: Path = opts.out
    if opts.explain:
        explain(opts.explain)
        return
    if opts.render:  # the md and png again from the json (after editing NOTES)
        data = json.loads((out_dir / "corpus.json").read_text())
        (out_dir / "corpus.md").write_text(markdown(data))
        bar_chart(data["blocks"], out_dir / "corpus.png")
        print(markdown(data))
        return
    os.environ["MLC_CACHE"] = "0"  # compile times are real compiles
    from mlc.codegen.target import num_threads, vector_register_bits
    names = opts.names
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        peers = {"jax": None if opts.no_jax else start_peer(JaxPeer, Path(tmp)),
                 "iree": None if opts.no_iree or opts.no_jax else start_peer(IreePeer, Path(tmp))}
        if not (opts.no_iree or opts.no_jax) and peers["iree"] is None:
            sys.stderr.write("IREE not run: iree-base-compiler/iree-base-runtime not installed "
                             "(pip install -e '.[bench]')\n")
        machine = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cores": num_threads(),
                   "vector_bits": vector_register_bits(), "cpu": platform.processor() or platform.machine(),
                   "numpy": np.__version__, **{k: p.version if p else None for k, p in peers.items()},
                   "load": f"{os.getloadavg()[0]:.1f}"}
        path = out_dir / "corpus.json"
        data = json.loads(path.read_text()) if path.exists() else {}
        try:
            if opts.random is not None:
                rows = run_random(opts.random, opts.seed, peers)
                data["random"] = {"seed": opts.seed, "date": machine["date"], "rows": rows,
                                  "openblas_threads": os.environ.get("OPENBLAS_NUM_THREADS"),
                                  "load": machine["load"], "iree": machine["iree"]}
                data.setdefault("machine", machine)
                data.setdefault("blocks", [])
            else:
                selected = [b for b in blocks() if not names or any(n in b.name for n in names)]
                if not selected:
                    sys.exit(f"no block matches {names}; blocks: {', '.join(b.name for b in blocks())}")
                rows = run_blocks(selected, peers)
                if names and data.get("blocks") and BLAS_KEY == "blocks":  # a partial run keeps the other rows
                    order = [b.name for b in blocks()]
                    kept = [r for r in data["blocks"] if r["block"] not in {b.name for b in selected}]
                    rows = sorted(kept + rows, key=lambda r: order.index(r["block"]))
                if BLAS_KEY == "blocks":
                    data["machine"], data["blocks"] = machine, rows
                else:
                    data[BLAS_KEY] = {"machine": machine, "rows": rows}
                    data.setdefault("machine", machine)  # a fresh --out directory
                    data.setdefault("blocks", [])
        finally:
            for peer in peers.values():
                if peer is not None:
                    peer.close()
    out_dir.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2, default=str) + "\n")
    table = markdown(data)
    (out_dir / "corpus.md").write_text(table)
    chart = bar_chart(data["blocks"], out_dir / "corpus.png")
    print(table)
    print(f"wrote {path}, corpus.md" + (", corpus.png" if chart else " (no chart: pip install matplotlib)"))


if __name__ == "__main__":
    main(sys.argv[1:])
