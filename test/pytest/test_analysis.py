"""cost_analysis() counts what the generated loops do, whichever strategy made them: the
expected numbers are the programs' nominal arithmetic, computed here from their shapes
(2*M*N*K per matmul, 2*taps*channels per conv output, one op per element per elementwise
op), so a kernel the analysis skips or counts once instead of per loop trip fails."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.lax as lax
import mlc.nn as nn
import mlc.numpy as mnp


def _flops(fn, *args, **jit_options):
    return mlc.jit(fn, **jit_options).lower(*args).compile().cost_analysis()["flops"]


# (M, K, N): register tiles (mlc-tile-matmul, made before bufferization), the packed kernel
# or a BLAS call (after it): the analysis must see the product whichever runs it.
@pytest.mark.parametrize("m,k,n", [(64, 64, 64), (17, 127, 33), (512, 128, 256), (300, 256, 512)])
@pytest.mark.parametrize("fusion", [True, False])
def test_matmul_with_an_epilogue_counts_the_product_and_the_epilogue(m, k, n, fusion):
    rng = np.random.default_rng(m + k + n)
    a = rng.standard_normal((m, k)).astype(np.float32)
    b = rng.standard_normal((k, n)).astype(np.float32)
    flops = _flops(lambda a, b: mnp.tanh(a @ b), a, b, fusion=fusion)
    nominal = 2 * m * k * n + m * n
    assert nominal <= flops <= 1.05 * nominal, (flops, nominal)


@pytest.mark.parametrize("shape,kernel", [((2, 16, 16, 32), (3, 3, 32, 32)), ((1, 9, 7, 5), (3, 3, 5, 3))])
def test_convolution_counts_every_tap(shape, kernel):
    rng = np.random.default_rng(3)
    x = rng.standard_normal(shape).astype(np.float32)
    w = rng.standard_normal(kernel).astype(np.float32)

    def f(x, w):
        return mnp.tanh(lax.conv_general_dilated(x, w, (1, 1), "SAME",
                                                 dimension_numbers=("NHWC", "HWIO", "NHWC")))
    n, h, wd, _ = shape
    kh, kw, ci, co = kernel
    nominal = 2 * n * h * wd * co * kh * kw * ci + n * h * wd * co
    flops = _flops(f, x, w)
    assert nominal <= flops <= 1.05 * nominal, (flops, nominal)


def test_attention_tiled_by_rows_counts_every_block():
    """softmax(q k^T) v runs as one loop over blocks of rows (mlc-chain-tiling): the
    contractions inside count once per block, as many flops as the unfused program."""
    rng = np.random.default_rng(5)
    q, k, v = (rng.standard_normal((8, 512, 64)).astype(np.float32) for _ in range(3))

    def f(q, k, v):
        return nn.softmax(q @ k.transpose(0, 2, 1) / 8.0, axis=-1) @ v

    fused, unfused = _flops(f, q, k, v), _flops(f, q, k, v, fusion=False)
    nominal = 2 * 2 * 8 * 512 * 512 * 64
    assert nominal <= fused <= 1.1 * nominal and nominal <= unfused <= 1.1 * nominal, (fused, unfused)
    assert fused <= 1.1 * unfused


def test_row_fused_softmax_counts_every_row():
    x = np.random.default_rng(2).standard_normal((64, 256)).astype(np.float32)
    cost = mlc.jit(lambda x: nn.softmax(x, axis=-1)).lower(x).compile().cost_analysis()
    # max, subtract, exp, sum, divide: five ops per element, in one loop over rows.
    assert cost["flops"] == 5 * x.size and cost["kernels"] == 1, cost


def test_register_tiled_loop_reads_its_operands_once():
    """Bytes of a loop nest made before bufferization are its buffers, each counted whole."""
    rng = np.random.default_rng(9)
    a, b = (rng.standard_normal((64, 64)).astype(np.float32) for _ in range(2))
    cost = mlc.jit(lambda a, b: mnp.tanh(a @ b)).lower(a, b).compile().cost_analysis()
    assert cost["bytes_read"] >= a.nbytes + b.nbytes and cost["bytes_written"] >= a.nbytes, cost
