"""layer_norm with a learned scale and bias, written with mlc.numpy under mlc.jit."""

import numpy as np

import mlc
import mlc.numpy as mnp


@mlc.jit
def layer_norm(x, scale, bias):
    mean = mnp.mean(x, axis=-1, keepdims=True)
    var = mnp.mean(mnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) / mnp.sqrt(var + 1e-5) * scale + bias


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    x = rng.standard_normal((2, 16)).astype(np.float32)
    scale, bias = np.ones(16, np.float32), np.zeros(16, np.float32)
    y = layer_norm(x, scale, bias)
    print("mean ~ 0:", np.abs(y.mean(-1)).max() < 1e-5, " std ~ 1:", np.abs(y.std(-1) - 1).max() < 1e-3)
    print(layer_norm.lower(x, scale, bias).as_text())
