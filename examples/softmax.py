"""softmax over the last axis, written with mlc.numpy and compiled by mlc.jit."""

import numpy as np

import mlc
import mlc.numpy as mnp


@mlc.jit
def softmax(x):
    shifted = x - mnp.max(x, axis=-1, keepdims=True)
    e = mnp.exp(shifted)
    return e / mnp.sum(e, axis=-1, keepdims=True)


if __name__ == "__main__":
    x = np.random.default_rng(0).standard_normal((4, 8)).astype(np.float32)
    y = softmax(x)
    print(y.round(3))
    print("rows sum to 1:", np.allclose(y.sum(-1), 1, atol=1e-6))
