"""MLC's precompiled convolution kernels (codegen/conv_library.py): each variant called on
raw buffers against a float64 numpy convolution (odd sizes, strides, dilations, padding
written by the kernel, accumulate or overwrite, padded output rows, one and two threads,
both vector widths), and programs through mlc.jit: which convs call a kernel (and which
variant), what they compute, where the generated kernel stays (an applied epilogue,
gemm_kernels=False), the kernel kept in the persistent cache."""

from __future__ import annotations

import ctypes
import itertools

import numpy as np
import pytest
from conftest import linked_kernels

import mlc
import mlc.lax as lax
import mlc.numpy as mnp
from mlc import CompileOptions
from mlc.codegen import kernel_library
from mlc.codegen.blas import PACKED_PARALLEL_MIN_MNK
from mlc.codegen.conv_library import PREFIX, ConvVariant
from mlc.codegen.direct_conv import MARK
from mlc.codegen.packed_gemm import blocking
from mlc.codegen.target import vector_register_bits
from mlc.runtime import disk_cache

NP_TYPES = {"f32": np.float32, "f64": np.float64}
TOL = {"f32": 3e-5, "f64": 1e-12}  # relative to sqrt(depth) * max |x| * max |w|

# The lowered kernel: sizes, then each buffer as its rank-0 base memref (allocated,
# aligned, offset) followed by the element offset and strides (module docstring's order).
_I64, _P = ctypes.c_int64, ctypes.c_void_p
_BASE = [_P, _P, _I64]
KERNEL_TYPE = ctypes.CFUNCTYPE(None, *[_I64] * 11, *_BASE, *[_I64] * 4, *_BASE, _I64, _I64, *_BASE, _I64, _I64,
                               ctypes.c_bool, ctypes.c_bool, *_BASE, *[_I64] * 4, *[_I64] * 6)


def reference(x, w, strides, dilations, pads=((0, 0), (0, 0))):
    """O[b, i, j, o] = sum X'[b, i*sh + p*dh, j*sw + q*dw, c] W[p, q, c, o] in float64, X' the
    input zero padded by `pads` ((top, bottom), (left, right))."""
    xp = np.pad(x.astype(np.float64), ((0, 0), pads[0], pads[1], (0, 0)))
    kh, kw, _, co = w.shape
    (sh, sw), (dh, dw) = strides, dilations
    oh = (xp.shape[1] - (kh - 1) * dh - 1) // sh + 1
    ow = (xp.shape[2] - (kw - 1) * dw - 1) // sw + 1
    out = np.zeros((x.shape[0], oh, ow, co))
    for p, q in itertools.product(range(kh), range(kw)):
        window = xp[:, p * dh:p * dh + (oh - 1) * sh + 1:sh, q * dw:q * dw + (ow - 1) * sw + 1:sw, :]
        out += window @ w[p, q].astype(np.float64)
    return out


@pytest.fixture(scope="module")
def kernels():
    """Linked kernels by variant (each compiled once for the module's tests)."""
    return linked_kernels(KERNEL_TYPE)


def _base(array):
    return [array.ctypes.data, array.ctypes.data, 0]


# (n, h, w, ci, co, kh, kw, strides, dilations, pads): a 'same' 3x3, odd sizes, asymmetric
# padding, stride and dilation, a 1x1, a window past KC (blocked), one pixel.
RAW_SHAPES = [
    (2, 9, 11, 8, 24, 3, 3, (1, 1), (1, 1), ((1, 1), (1, 1))),
    (3, 7, 6, 5, 17, 2, 4, (2, 1), (1, 1), ((0, 1), (2, 1))),
    (1, 12, 13, 3, 40, 3, 2, (1, 3), (2, 1), ((2, 0), (0, 0))),
    (2, 5, 5, 7, 9, 1, 1, (1, 1), (1, 1), ((0, 0), (0, 0))),
    (1, 6, 6, 160, 33, 3, 3, (1, 1), (1, 1), ((1, 1), (1, 1))),
    (1, 1, 1, 4, 3, 1, 1, (1, 1), (1, 1), ((0, 0), (0, 0))),
]


@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("bits", [256, 512])
@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("merged, k_blocked", list(itertools.product((False, True), repeat=2)))
def test_kernel_on_raw_buffers(kernels, merged, k_blocked, threads, bits, dtype):
    """Each variant on each shape, padding written by the kernel (into a buffer holding NaN:
    every element it reads must be one it wrote) or not, overwriting or accumulating into
    an output whose pixel rows are 3 elements longer than Co (those never written)."""
    kernel = kernels(ConvVariant(dtype, merged, k_blocked, threads, bits))
    rng = np.random.default_rng([merged, k_blocked, threads, bits, dtype == "f64"])
    np_type = NP_TYPES[dtype]
    for (n, h, w, ci, co, kh, kw, st, dil, pads), pad, overwrite in itertools.product(
            RAW_SHAPES, (True, False), (True, False)):
        x = rng.standard_normal((n, h, w, ci)).astype(np_type)
        wt = rng.standard_normal((kh, kw, ci, co)).astype(np_type)
        want = reference(x, wt, st, dil, pads)
        _, oh, ow, _ = want.shape
        hp, wp = h + sum(pads[0]), w + sum(pads[1])
        if pad:  # the padded input the kernel writes: every element starts as NaN
            padded = np.full((n, hp, wp, ci), np.nan, np_type)
            source = x
        else:
            padded = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)))
            source = padded
        o_buf = rng.standard_normal((n * oh * ow, co + 3)).astype(np_type)
        o_buf[:, co:] = np.nan
        before = o_buf.copy()
        kernel(n, oh, ow, ci, co, kh, kw, *st, *dil,
               *_base(padded), 0, *(s // padded.itemsize for s in padded.strides[:3]),
               *_base(wt), 0, co,
               *_base(o_buf), 0, co + 3,
               overwrite, pad,
               *_base(source), 0, *(s // source.itemsize for s in source.strides[:3]),
               h, w, pads[0][0], pads[1][0], hp, wp)
        got = o_buf[:, :co].reshape(n, oh, ow, co)
        expected = want + (0 if overwrite else before[:, :co].reshape(n, oh, ow, co))
        scale = np.sqrt(kh * kw * ci) * np.abs(x).max() * np.abs(wt).max()
        np.testing.assert_allclose(got, expected, rtol=0, atol=TOL[dtype] * scale,
                                   err_msg=str((n, h, w, ci, co, kh, kw, st, dil, pads, pad, overwrite)))
        assert np.isnan(o_buf[:, co:]).all()  # nothing past Co written
        if pad:
            np.testing.assert_array_equal(padded, np.pad(x, ((0, 0), pads[0], pads[1], (0, 0))))


def test_variant_symbols_round_trip():
    for variant in (ConvVariant("f32", True, False, 2, 512), ConvVariant("f64", False, True, 1, 256)):
        assert ConvVariant.parse(variant.symbol) == variant
        assert kernel_library.parse(variant.symbol) == variant
    assert ConvVariant.parse("mlc_conv_f16_mw_t1_v512") is None and ConvVariant.parse("mlc_gemm_f32_nn_m2_v512") is None


def _conv(strides=(1, 1), padding="SAME", dilation=(1, 1)):
    return lambda x, w: lax.conv_general_dilated(x, w, strides, padding, rhs_dilation=dilation,
                                                 dimension_numbers=("NHWC", "HWIO", "NHWC"))


def _pads(x_shape, w_shape, strides, padding, dilation):
    """XLA's 'SAME' / 'VALID' padding per spatial dim ((low, high) twice)."""
    if padding == "VALID":
        return ((0, 0), (0, 0))
    pads = []
    for size, k, s, d in zip(x_shape[1:3], w_shape[:2], strides, dilation):
        out = -(-size // s)
        total = max((out - 1) * s + (k - 1) * d + 1 - size, 0)
        pads.append((total // 2, total - total // 2))
    return tuple(pads)


# (x shape, w shape, strides, padding, dilation): the variant each calls follows from the
# target's facts (vector width, threads): merged unless dilated along W, blocked when the
# depth exceeds the GEMM's KC, two threads from PACKED_PARALLEL_MIN_MNK multiply-adds.
JIT_CASES = [
    ((8, 20, 20, 32), (3, 3, 32, 64), (1, 1), "SAME", (1, 1)),
    ((2, 17, 13, 5), (5, 3, 5, 11), (2, 1), "VALID", (1, 1)),
    ((1, 15, 16, 6), (3, 3, 6, 8), (1, 1), "SAME", (1, 2)),
    ((1, 9, 9, 200), (3, 3, 200, 24), (1, 1), "SAME", (1, 1)),
    ((3, 8, 7, 3), (2, 2, 3, 4), (2, 2), "SAME", (1, 1)),
]


@pytest.mark.parametrize("dtype", ["f32", "f64"])
@pytest.mark.parametrize("xs, ws, strides, padding, dilation", JIT_CASES)
def test_programs_call_the_variant_their_shape_selects(xs, ws, strides, padding, dilation, dtype):
    rng = np.random.default_rng(list(xs) + list(ws))
    np_type = NP_TYPES[dtype]
    x, w = rng.standard_normal(xs).astype(np_type), rng.standard_normal(ws).astype(np_type)
    compiled = mlc.jit(_conv(strides, padding, dilation)).lower(x, w).compile()
    bits, threads = vector_register_bits(), compiled.options.threads
    kh, kw, ci, co = ws
    want = reference(x, w, strides, dilation, _pads(xs, ws, strides, padding, dilation))
    depth = kh * kw * ci
    macs = want.shape[0] * want.shape[1] * want.shape[2] * co * depth
    variant = ConvVariant(dtype, dilation[1] == 1, depth > _kc(dtype, bits),
                          1 if macs < PACKED_PARALLEL_MIN_MNK else threads, bits)
    text = compiled.as_text("codegen")
    assert f"call @{variant.symbol}(" in text, (variant, [line for line in text.splitlines() if PREFIX in line])
    scale = np.sqrt(depth) * np.abs(x).max() * np.abs(w).max()
    np.testing.assert_allclose(compiled(x, w), want, rtol=0, atol=TOL[dtype] * scale)


def _kc(dtype: str, bits: int) -> int:
    from mlir import ir

    from mlc.context import make_context
    with make_context():
        return blocking(ir.F32Type.get() if dtype == "f32" else ir.F64Type.get(), bits).kc


def test_a_padded_conv_is_only_the_call():
    """The kernel writes the padded input: @main keeps no loop of its own (the border fills
    and the interior copy are gone), only the call."""
    rng = np.random.default_rng(5)
    x, w = rng.standard_normal((2, 10, 10, 16)).astype(np.float32), rng.standard_normal((3, 3, 16, 16)).astype(np.float32)
    compiled = mlc.jit(_conv()).lower(x, w).compile()
    text = compiled.as_text("codegen")
    assert f"call @{PREFIX}" in text and "scf.for" not in text and "scf.forall" not in text
    np.testing.assert_allclose(compiled(x, w), reference(x, w, (1, 1), (1, 1), ((1, 1), (1, 1))), rtol=0, atol=1e-3)


def test_an_applied_epilogue_keeps_the_generated_kernel():
    """conv + bias + ReLU: the generated kernel applies them to its tiles (no call); a conv
    whose depth is blocked (the epilogue is never applied there) calls the kernel and the
    elementwise consumer runs after it."""
    rng = np.random.default_rng(6)
    f = lambda x, w, b: mnp.maximum(_conv()(x, w) + b, 0.0)  # noqa: E731
    for ci, calls in ((8, False), (512, True)):
        x = rng.standard_normal((1, 6, 6, ci)).astype(np.float32)
        w = (rng.standard_normal((3, 3, ci, 16)) / np.sqrt(9 * ci)).astype(np.float32)
        b = rng.standard_normal(16).astype(np.float32)
        compiled = mlc.jit(f).lower(x, w, b).compile()
        text = compiled.as_text("codegen")
        assert (f"call @{PREFIX}" in text) == calls and (MARK in text) != calls, ci
        want = np.maximum(reference(x, w, (1, 1), (1, 1), ((1, 1), (1, 1))) + b, 0)
        np.testing.assert_allclose(compiled(x, w, b), want, rtol=0, atol=1e-4)


def test_gemm_kernels_off_generates_the_conv():
    rng = np.random.default_rng(8)
    x, w = rng.standard_normal((1, 8, 8, 4)).astype(np.float32), rng.standard_normal((3, 3, 4, 8)).astype(np.float32)
    for options in (CompileOptions(gemm_kernels=False), CompileOptions(jit="execution-engine")):
        compiled = mlc.jit(_conv(), options=options).lower(x, w).compile()
        text = compiled.as_text("codegen")
        assert PREFIX not in text and MARK in text, options
        np.testing.assert_allclose(compiled(x, w), reference(x, w, (1, 1), (1, 1), ((1, 1), (1, 1))), rtol=0, atol=1e-4)


def test_a_conv_kernel_persists(tmp_path, monkeypatch):
    """Built once, kept as a `.kernel` file, loaded (not built) by a process that forgot it."""
    monkeypatch.setenv("MLC_CACHE", "1")
    monkeypatch.setenv("MLC_CACHE_DIR", str(tmp_path))
    kernel_library.forget_compiled()
    built = []
    build = kernel_library._build
    monkeypatch.setattr(kernel_library, "_build", lambda *a: built.append(a) or build(*a))
    try:
        variant = ConvVariant("f32", True, False, 1, 256)
        first = kernel_library.compiled(variant, 2)
        kernel_library.forget_compiled()
        assert kernel_library.compiled(variant, 2) == first and len(built) == 1
        assert len(list((tmp_path / f"v{disk_cache.FORMAT}").glob("*.kernel"))) == 1
    finally:
        disk_cache.flush_all()
        kernel_library.forget_compiled()


def test_convs_on_channel_slices_and_into_a_concatenation():
    """Strided operands: a 'valid' conv reading a channel slice in place (pixels 24 elements
    apart, not Ci = 8: the variant whose taps are not merged), a 'same' conv of another
    slice (its padded copy contiguous: merged) whose result is written into a concatenation."""
    rng = np.random.default_rng(9)
    x = rng.standard_normal((2, 9, 10, 24)).astype(np.float32)
    w, w2 = (rng.standard_normal((3, 3, 8, 16)).astype(np.float32) for _ in range(2))

    def f(x, w, w2):
        return (mnp.concatenate([_conv()(x[..., 4:12], w), x[..., :16]], axis=-1),
                _conv(padding="VALID")(x[..., 12:20], w2))

    compiled = mlc.jit(f).lower(x, w, w2).compile()
    text = compiled.as_text("codegen")
    bits = vector_register_bits()
    for merged in (True, False):
        assert f"call @{ConvVariant('f32', merged, False, 1, bits).symbol}(" in text, merged
    got, got_valid = compiled(x, w, w2)
    want = np.concatenate([reference(x[..., 4:12], w, (1, 1), (1, 1), ((1, 1), (1, 1))), x[..., :16]], axis=-1)
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-4)
    np.testing.assert_allclose(got_valid, reference(x[..., 12:20], w2, (1, 1), (1, 1)), rtol=0, atol=1e-4)
