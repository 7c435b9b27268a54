"""Fusion never changes results: 20+ composite functions agree with and without fusion
(and with numpy); the analyses show what fusion saves."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.nn as nn
import mlc.numpy as mnp

RNG = np.random.default_rng(5)
X = RNG.standard_normal((8, 32)).astype(np.float32)
W = RNG.standard_normal((32, 16)).astype(np.float32) * 0.2
B = RNG.standard_normal(16).astype(np.float32)
V = RNG.standard_normal(1000).astype(np.float32)
Q = RNG.standard_normal((2, 4, 8)).astype(np.float32)


def np_softmax(x, axis=-1):
    e = np.exp(x - x.max(axis, keepdims=True))
    return e / e.sum(axis, keepdims=True)


COMPOSITES = {
    "model_fn": (lambda x, y, z: mnp.sum(x * y + z), lambda x, y, z: np.sum(x * y + z), (V, V, V)),
    "softmax": (nn.softmax, np_softmax, (X,)),
    "log_softmax": (nn.log_softmax, lambda x: np.log(np_softmax(x)), (X,)),
    "layer_norm": (nn.layer_norm, lambda x: (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-5), (X,)),
    "gelu_tanh": (nn.gelu, lambda x: 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x ** 3))), (X,)),
    "silu": (nn.silu, lambda x: x / (1 + np.exp(-x)), (X,)),
    "dense_bias_relu": (lambda x, w, b: nn.relu(x @ w + b), lambda x, w, b: np.maximum(x @ w + b, 0), (X, W, B)),
    "dense_gelu": (lambda x, w: nn.gelu(x @ w), lambda x, w: 0.5 * (x @ w) * (1 + np.tanh(np.sqrt(2 / np.pi) * ((x @ w) + 0.044715 * (x @ w) ** 3))), (X, W)),
    "attention_scores": (lambda q: nn.softmax(q @ mnp.swapaxes(q, -1, -2) / np.sqrt(8.0)),
                         lambda q: np_softmax(q @ np.swapaxes(q, -1, -2) / np.sqrt(8.0)), (Q,)),
    "mean_square": (lambda x: mnp.mean(x * x, axis=0), lambda x: np.mean(x * x, axis=0), (X,)),
    "rms_norm": (lambda x: x * (1.0 / mnp.sqrt(mnp.mean(x * x, axis=-1, keepdims=True) + 1e-6)),
                 lambda x: x / np.sqrt(np.mean(x * x, axis=-1, keepdims=True) + 1e-6), (X,)),
    "logsumexp": (lambda x: nn.logsumexp(x, axis=1), lambda x: np.log(np.exp(x).sum(1)), (X,)),
    "sigmoid_chain": (lambda x: nn.sigmoid(mnp.tanh(x) * 2.0 + 1.0), lambda x: 1 / (1 + np.exp(-(np.tanh(x) * 2 + 1))), (X,)),
    "exp_two_users": (lambda x: mnp.exp(x) + mnp.exp(x).sum(), lambda x: np.exp(x) + np.exp(x).sum(), (V,)),
    "broadcast_scale": (lambda x, b: (x * b + b) * 0.5, lambda x, b: (x * b + b) * 0.5, (X[:, :16], B)),
    "transpose_add": (lambda x: x.T + 1.0, lambda x: x.T + 1, (X,)),
    "max_pool_like": (lambda x: mnp.max(x.reshape(8, 8, 4), axis=-1), lambda x: x.reshape(8, 8, 4).max(-1), (X,)),
    "variance": (lambda x: mnp.var(x, axis=1), lambda x: x.var(1), (X,)),
    "l2_normalize": (lambda x: x / mnp.sqrt(mnp.sum(x * x, axis=1, keepdims=True)),
                     lambda x: x / np.sqrt((x * x).sum(1, keepdims=True)), (X,)),
    "where_chain": (lambda x: mnp.where(x > 0, x * 2.0, -x) + 1.0, lambda x: np.where(x > 0, x * 2, -x) + 1, (X,)),
    "mlp_2layer": (lambda x, w: nn.relu(x @ w) @ w.T, lambda x, w: np.maximum(x @ w, 0) @ w.T, (X, W)),
    "cumulative": (lambda x: mnp.cumsum(x * 2.0, axis=1), lambda x: np.cumsum(x * 2, axis=1), (X,)),
    "sibling_sum_max": (lambda x: (mnp.sum(mnp.exp(x), axis=1), mnp.max(x, axis=1)),
                        lambda x: (np.exp(x).sum(1), x.max(1)), (X,)),
    "mean_epilogue": (lambda x: mnp.sum(x, axis=1) / 32.0 + 1.0, lambda x: x.sum(1) / 32 + 1, (X,)),
}


@pytest.mark.parametrize("name", COMPOSITES)
def test_fusion_keeps_results(name):
    fn, reference, args = COMPOSITES[name]
    fused = mlc.jit(fn)(*args)
    unfused = mlc.jit(fn, fusion=False)(*args)
    np.testing.assert_allclose(fused, unfused, rtol=2e-5, atol=2e-5)
    np.testing.assert_allclose(fused, reference(*args), rtol=1e-4, atol=1e-4)


def test_model_fn_is_one_kernel_without_temporaries():
    compiled = mlc.jit(COMPOSITES["model_fn"][0]).lower(V, V, V).compile()
    cost = compiled.cost_analysis()
    assert cost["kernels"] <= 2  # the fused loop, and the init fill of the result
    assert cost["temp_bytes"] == 0
    unfused = mlc.jit(COMPOSITES["model_fn"][0], fusion=False).lower(V, V, V).compile().cost_analysis()
    assert unfused["temp_bytes"] >= 2 * V.nbytes and unfused["kernels"] > cost["kernels"]
    memory = compiled.memory_analysis()
    assert memory == {"argument_size_in_bytes": 3 * V.nbytes, "output_size_in_bytes": 4, "temp_size_in_bytes": 0}


@pytest.mark.parametrize("name", ["softmax", "layer_norm"])
def test_fusion_shrinks_kernels_and_temporaries(name):
    fn = COMPOSITES[name][0]
    fused = mlc.jit(fn).lower(X).compile().cost_analysis()
    unfused = mlc.jit(fn, fusion=False).lower(X).compile().cost_analysis()
    assert fused["kernels"] < unfused["kernels"]
    assert fused["kernels"] <= 2  # hlo fusions merged into one loop over rows (mlc-row-fusion)
    assert fused["temp_bytes"] < unfused["temp_bytes"]
    assert fused["temp_bytes"] < X.nbytes  # no temporary as large as the output: rows are private


def test_fusion_report_from_the_api():
    from mlc.context import make_context
    from mlc.diagnostics import parse_module
    from mlc.transforms.fusion_report import fusions
    lowered = mlc.jit(COMPOSITES["softmax"][0]).lower(X)
    module = parse_module(lowered.as_text("hlo-fused"), make_context())
    found = fusions(module)
    # max(x) | e = exp(x - max) and sum(e), e leaving as a second result | e / sum
    assert sorted(f["kind"] for f in found) == ["input", "input", "loop"]
    assert sorted(len(f["outputs"]) for f in found) == [1, 1, 2]


def test_sibling_reductions_are_one_multi_output_fusion():
    from mlc.context import make_context
    from mlc.diagnostics import parse_module
    from mlc.transforms.fusion_report import fusions
    x = np.ones((64, 32), np.float32)  # 2048 elements: a large enough shared input
    lowered = mlc.jit(COMPOSITES["sibling_sum_max"][0]).lower(x)
    found = fusions(parse_module(lowered.as_text("hlo-fused"), make_context()))
    assert [(f["kind"], len(f["outputs"])) for f in found] == [("input", 2)]


def test_output_fusion_is_one_loop_nest(monkeypatch):
    """Generated matmul code (no BLAS) runs the bias + relu epilogue on the product tile in
    registers: one loop nest, no product-sized temporary. (Single-threaded, the result still
    takes one copy into the output: tiled loops on tensors do not bufferize in place.)"""
    monkeypatch.setenv("MLC_BLAS", "0")
    monkeypatch.setenv("MLC_NUM_THREADS", "2")
    # 256*128*128 = 2^22 multiply-adds: big enough for threads (matmul.PARALLEL_MIN_MNK)
    x = RNG.standard_normal((256, 128)).astype(np.float32)
    w = RNG.standard_normal((128, 128)).astype(np.float32)
    b = RNG.standard_normal(128).astype(np.float32)
    fn = lambda x, w, b: nn.relu(x @ w + b)  # noqa: E731
    compiled = mlc.jit(fn).lower(x, w, b).compile()
    cost = compiled.cost_analysis()
    assert cost["kernels"] == 1 and cost["temp_bytes"] == 0, cost
    np.testing.assert_allclose(compiled(x, w, b), np.maximum(x @ w + b, 0), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("blas", [True, False])
def test_matmul_epilogue_reading_a_bool_mask(blas):
    """A causal mask in a register-tiled matmul's epilogue (attention's where(mask, q k^T, -inf)):
    the tile loop reads the bool operand as a vector, which mlc-bool-to-byte turns into a byte
    read plus a truncation (it failed to verify: 'requires formal padding and source of the
    same elemental type')."""
    rng = np.random.default_rng(5)
    q = rng.standard_normal((2, 64, 32)).astype(np.float32)
    k = rng.standard_normal((2, 64, 32)).astype(np.float32)
    mask = np.tril(np.ones((64, 64), bool))
    fn = lambda q, k, m: mnp.where(m, q @ mnp.swapaxes(k, -1, -2), -1e9)  # noqa: E731
    got = mlc.jit(fn, options=mlc.CompileOptions(blas=blas))(q, k, mask)
    want = np.where(mask, q @ np.swapaxes(k, -1, -2), np.float32(-1e9))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)
