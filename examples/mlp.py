"""A 2-layer MLP forward pass (dense -> gelu -> dense -> log_softmax) under mlc.jit,
with its parameters as a nested dict."""

import numpy as np

import mlc
import mlc.nn as nn


@mlc.jit
def mlp(params, x):
    h = nn.gelu(x @ params["w1"] + params["b1"])
    return nn.log_softmax(h @ params["w2"] + params["b2"])


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    params = {"w1": rng.standard_normal((64, 128)).astype(np.float32) * 0.1,
              "b1": np.zeros(128, np.float32),
              "w2": rng.standard_normal((128, 10)).astype(np.float32) * 0.1,
              "b2": np.zeros(10, np.float32)}
    x = rng.standard_normal((32, 64)).astype(np.float32)
    logp = mlp(params, x)
    print("log-probabilities:", logp.shape, "rows normalized:", np.allclose(np.exp(logp).sum(-1), 1, atol=1e-5))
    print("cache:", mlp.cache_info())
