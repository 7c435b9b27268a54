"""hlo.convolution against a direct numpy reference: layouts, strides, padding, dilations,
feature groups (grouped and depthwise) and batch groups."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import assert_matches, random_array, run_hlo
from test_slicing_ops import reference_pad

from mlc.dialects import hlo
from mlc.options import CompileOptions


def reference_conv(x, w, strides, padding, lhs_dilation, rhs_dilation, groups, batch_groups):
    """x: [B, C, spatial...], w: [O, C/groups, kernel...] -> [B/batch_groups, O, out...]."""
    n = len(strides)
    x = reference_pad(x.astype(np.float64), 0.0, [0, 0] + [lo for lo, _ in padding],
                      [0, 0] + [hi for _, hi in padding], [0, 0] + [d - 1 for d in lhs_dilation])
    w = w.astype(np.float64)
    spans = [(k - 1) * d + 1 for k, d in zip(w.shape[2:], rhs_dilation)]
    out_spatial = [max((p - s) // st + 1, 0) if p >= s else 0 for p, s, st in zip(x.shape[2:], spans, strides)]
    batch, o_total = x.shape[0] // batch_groups, w.shape[0]
    out = np.zeros([batch, o_total] + out_spatial)
    ng = max(groups, batch_groups)
    og, cg = o_total // ng, w.shape[1]
    for k in itertools.product(*[range(s) for s in w.shape[2:]]):
        window = tuple(slice(k[i] * rhs_dilation[i], k[i] * rhs_dilation[i] + (out_spatial[i] - 1) * strides[i] + 1,
                             strides[i]) for i in range(n))
        xs = x[(slice(None), slice(None)) + window]
        wk = w[(slice(None), slice(None)) + k]
        for g in range(ng):
            if batch_groups > 1:
                part = xs[g * batch:(g + 1) * batch]
            else:
                part = xs[:, g * cg:(g + 1) * cg]
            out[:, g * og:(g + 1) * og] += np.einsum("bc...,oc->bo...", part, wk[g * og:(g + 1) * og])
    return out


CASES = [
    # x shape [B, C, spatial], w shape [O, C/g, kernel], strides, padding, lhs dil, rhs dil, groups, batch groups
    ((1, 1, 5), (1, 1, 3), (1,), ((0, 0),), (1,), (1,), 1, 1),
    ((2, 3, 6, 5), (4, 3, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), (1, 1), 1, 1),     # 'same' 3x3
    ((2, 3, 7, 7), (4, 3, 3, 2), (2, 3), ((0, 1), (2, 0)), (1, 1), (1, 1), 1, 1),     # strides, asymmetric pad
    ((1, 2, 5, 5), (3, 2, 2, 2), (1, 1), ((0, 0), (0, 0)), (2, 1), (1, 2), 1, 1),     # lhs and rhs dilation
    ((2, 4, 6, 6), (6, 2, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), (1, 1), 2, 1),     # grouped
    ((1, 3, 5, 5), (3, 1, 3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1), (1, 1), 3, 1),     # depthwise
    ((4, 2, 5), (6, 2, 2), (1,), ((0, 0),), (1,), (1,), 1, 2),                         # batch groups
    ((1, 2, 3, 4, 4), (2, 2, 2, 2, 2), (1, 2, 1), ((0, 0), (1, 0), (0, 1)), (1, 1, 1), (1, 1, 1), 1, 1),  # 3-d
]


@pytest.mark.parametrize("case", CASES, ids=[str(i) for i in range(len(CASES))])
@pytest.mark.parametrize("layout", ["nchw", "nhwc"])
def test_convolution(case, layout, rng):
    x_shape, w_shape, strides, padding, lhs_dil, rhs_dil, groups, batch_groups = case
    x, w = random_array(rng, x_shape, np.float32), random_array(rng, w_shape, np.float32)
    n = len(strides)
    want = reference_conv(x, w, strides, padding, lhs_dil, rhs_dil, groups, batch_groups).astype(np.float32)
    if layout == "nhwc":  # input [B, spatial, C], kernel [spatial, I, O], output [B, spatial, O]
        x = np.moveaxis(x, 1, -1).copy()
        w = np.transpose(w, list(range(2, 2 + n)) + [1, 0]).copy()
        want = np.moveaxis(want, 1, -1)
        dims = dict(input_batch_dimension=0, input_feature_dimension=n + 1,
                    input_spatial_dimensions=list(range(1, n + 1)), kernel_input_feature_dimension=n,
                    kernel_output_feature_dimension=n + 1, kernel_spatial_dimensions=list(range(n)),
                    output_batch_dimension=0, output_feature_dimension=n + 1,
                    output_spatial_dimensions=list(range(1, n + 1)))
    else:
        spatial = list(range(2, n + 2))
        dims = dict(input_batch_dimension=0, input_feature_dimension=1, input_spatial_dimensions=spatial,
                    kernel_input_feature_dimension=1, kernel_output_feature_dimension=0,
                    kernel_spatial_dimensions=spatial, output_batch_dimension=0, output_feature_dimension=1,
                    output_spatial_dimensions=spatial)
    got = run_hlo(lambda a, b: hlo.convolution(a, b, window_strides=strides, padding=padding,
                                               lhs_dilation=lhs_dil, rhs_dilation=rhs_dil,
                                               feature_group_count=groups, batch_group_count=batch_groups,
                                               **dims), x, w)
    assert_matches(got, want, loose=True)


def test_integer_convolution_accumulates_exactly(rng):
    x, w = random_array(rng, (1, 2, 6), np.int32), random_array(rng, (3, 2, 3), np.int32)
    dims = dict(input_batch_dimension=0, input_feature_dimension=1, input_spatial_dimensions=[2],
                kernel_input_feature_dimension=1, kernel_output_feature_dimension=0,
                kernel_spatial_dimensions=[2], output_batch_dimension=0, output_feature_dimension=1,
                output_spatial_dimensions=[2])
    got = run_hlo(lambda a, b: hlo.convolution(a, b, **dims), x, w)
    want = reference_conv(x, w, (1,), ((0, 0),), (1,), (1,), 1, 1).astype(np.int32)
    assert_matches(got, want)


# --- the direct convolution (codegen/direct_conv.py) --------------------------------------
# Plain 2-D float convolutions take it (conversion/hlo_to_linalg/convolution.py's rule):
# odd spatial sizes and channel counts (partial register tiles in pixels and channels),
# strides, padding, kernel dilation (the tap loop not merged with the channels), batch 1
# and 3, each dtype the kernel has, and shapes big enough to split between threads.
DIRECT_CASES = [
    # batch, (h, w), ci, (kh, kw), co, strides, padding, rhs dilation
    (1, (1, 1), 1, (1, 1), 1, (1, 1), ((0, 0), (0, 0)), (1, 1)),
    (1, (1, 1), 3, (3, 3), 17, (1, 1), ((1, 1), (1, 1)), (1, 1)),            # 'same' on a 1x1 image
    (3, (3, 3), 17, (3, 3), 3, (1, 1), ((0, 0), (0, 0)), (1, 1)),            # 'valid': one pixel
    (3, (17, 17), 3, (3, 3), 17, (2, 2), ((1, 1), (1, 1)), (1, 1)),          # stride 2 'same'
    (1, (17, 3), 1, (3, 1), 64, (1, 1), ((1, 1), (0, 0)), (1, 1)),
    (3, (17, 17), 64, (3, 3), 64, (1, 1), ((1, 1), (1, 1)), (1, 1)),         # threads, K blocks
    (1, (17, 17), 17, (3, 3), 17, (1, 2), ((2, 2), (0, 1)), (2, 2)),         # dilation
    (3, (9, 17), 64, (1, 1), 17, (2, 1), ((0, 0), (0, 0)), (1, 1)),          # pointwise, strided
    (1, (17, 17), 3, (7, 7), 64, (2, 2), ((3, 3), (3, 3)), (1, 1)),          # a stem conv
    (1, (3, 17), 96, (3, 3), 33, (1, 1), ((1, 1), (1, 1)), (1, 3)),          # K split in chunks
]


def _nhwc_dims():
    return dict(input_batch_dimension=0, input_feature_dimension=3, input_spatial_dimensions=[1, 2],
                kernel_input_feature_dimension=2, kernel_output_feature_dimension=3,
                kernel_spatial_dimensions=[0, 1], output_batch_dimension=0, output_feature_dimension=3,
                output_spatial_dimensions=[1, 2])


def _compile_conv(x_spec, w_spec, options=None, **attrs):
    """(executable, codegen-stage text) of one hlo.convolution."""
    from conftest import tensor_type
    from mlir import ir
    from mlir.dialects import func

    from mlc.compiler import compile_module
    from mlc.context import make_context

    with make_context(), ir.Location.unknown():
        module = ir.Module.create()
        with ir.InsertionPoint(module.body):
            @func.FuncOp.from_py_func(tensor_type(*x_spec), tensor_type(*w_spec), name="main")
            def main(a, b):
                return hlo.convolution(a, b, **attrs)
        compiled = compile_module(module, options=options, keep_stages=True, use_cache=False)
        return compiled.executable, compiled.stage_text("codegen")


DIRECT_TOLERANCE = {np.dtype(np.float16): 4e-3, np.dtype(np.float32): 2e-6, np.dtype(np.float64): 1e-14}


def _check_direct(case, dtype, rng, kernels: bool = False):
    """kernels: MLC's precompiled kernels on (f32/f64 then call conv_library's), else the
    direct kernel generated in the program."""
    batch, (h, w_), ci, (kh, kw), co, strides, padding, dil = case
    x = random_array(rng, (batch, h, w_, ci), dtype)
    w = random_array(rng, (kh, kw, ci, co), dtype)
    attrs = dict(window_strides=strides, padding=padding, rhs_dilation=dil, **_nhwc_dims())
    options = CompileOptions(gemm_kernels=kernels)
    executable, text = _compile_conv((x.shape, x.dtype), (w.shape, w.dtype), options, **attrs)
    called = kernels and np.dtype(dtype) in (np.float32, np.float64)
    assert ("call @mlc_conv_" if called else "mlc.direct_conv") in text  # the direct path, not im2col
    got = executable(x, w)
    to_nchw, to_oihw = (0, 3, 1, 2), (3, 2, 0, 1)
    args = (strides, padding, (1, 1), dil, 1, 1)
    want = np.moveaxis(reference_conv(x.transpose(to_nchw), w.transpose(to_oihw), *args), 1, -1)
    # Error bound of a sum of products: eps * (|x| conv |w|) (the summation order differs).
    bound = np.moveaxis(reference_conv(np.abs(x).transpose(to_nchw), np.abs(w).transpose(to_oihw), *args), 1, -1)
    assert got.shape == want.shape and got.dtype == x.dtype
    err = np.abs(got.astype(np.float64) - want)
    assert np.all(err <= DIRECT_TOLERANCE[np.dtype(dtype)] * (bound + 1)), float((err / (bound + 1)).max())


@pytest.mark.parametrize("case", DIRECT_CASES, ids=[str(i) for i in range(len(DIRECT_CASES))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("kernels", [False, True], ids=["generated", "precompiled"])
def test_direct_convolution(case, dtype, kernels, rng):
    _check_direct(case, dtype, rng, kernels)


@pytest.mark.parametrize("case", [DIRECT_CASES[i] for i in (2, 5, 6)], ids=["valid", "threads", "dilation"])
def test_direct_convolution_f16(case, rng):
    """f16 is summed in f32 (packed_gemm.compute_type) and rounded once."""
    _check_direct(case, np.float16, rng)


@pytest.mark.parametrize("case", [DIRECT_CASES[i] for i in (3, 5, 9)], ids=["stride", "threads", "chunks"])
def test_direct_convolution_both_vector_widths(case, vector_bits, rng):
    """AVX2 (6 x 16 f32 tiles) and AVX-512 (8 x 32) code, run on this host."""
    _check_direct(case, np.float32, rng)


def test_direct_convolution_nchw(rng):
    """Other layouts are transposed to NHWC / HWIO around the direct kernel."""
    x, w = random_array(rng, (2, 5, 9, 7), np.float32), random_array(rng, (6, 5, 3, 3), np.float32)
    dims = dict(input_batch_dimension=0, input_feature_dimension=1, input_spatial_dimensions=[2, 3],
                kernel_input_feature_dimension=1, kernel_output_feature_dimension=0,
                kernel_spatial_dimensions=[2, 3], output_batch_dimension=0, output_feature_dimension=1,
                output_spatial_dimensions=[2, 3])
    padding = ((1, 1), (0, 2))
    executable, text = _compile_conv((x.shape, x.dtype), (w.shape, w.dtype), window_strides=(2, 1),
                                     padding=padding, **dims)
    assert "mlc.direct_conv" in text or "call @mlc_conv_" in text
    want = reference_conv(x, w, (2, 1), padding, (1, 1), (1, 1), 1, 1).astype(np.float32)
    assert_matches(executable(x, w), want, loose=True)


# --- depthwise (channel multiplier 1): vectorized over channels (direct_conv.emit_depthwise) --
DEPTHWISE_CASES = [
    # batch, (h, w), channels, (kh, kw), strides, padding, rhs dilation
    (1, (1, 1), 3, (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)),
    (3, (3, 3), 17, (3, 3), (1, 1), ((0, 0), (0, 0)), (1, 1)),          # partial channel chunk (masks)
    (3, (37, 37), 64, (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)),        # threads (>= 2^21 multiply-adds)
    (1, (17, 17), 17, (3, 3), (2, 2), ((1, 1), (1, 1)), (1, 1)),
    (1, (17, 9), 40, (5, 3), (2, 1), ((2, 2), (0, 1)), (2, 1)),         # dilation, odd kernel
    (3, (17, 17), 2, (3, 3), (1, 1), ((1, 1), (1, 1)), (1, 1)),
]


def _check_depthwise(case, dtype, rng, layout="nhwc"):
    batch, (h, w_), c, (kh, kw), strides, padding, dil = case
    x = random_array(rng, (batch, c, h, w_), dtype)          # NCHW
    w = random_array(rng, (c, 1, kh, kw), dtype)             # OIHW, one input channel per group
    args = (strides, padding, (1, 1), dil, c, 1)
    want = reference_conv(x, w, *args)
    bound = reference_conv(np.abs(x), np.abs(w), *args)
    if layout == "nhwc":
        x, w = np.moveaxis(x, 1, -1).copy(), w.transpose(2, 3, 1, 0).copy()
        want, bound = np.moveaxis(want, 1, -1), np.moveaxis(bound, 1, -1)
        dims = _nhwc_dims()
    else:
        spatial = [2, 3]
        dims = dict(input_batch_dimension=0, input_feature_dimension=1, input_spatial_dimensions=spatial,
                    kernel_input_feature_dimension=1, kernel_output_feature_dimension=0,
                    kernel_spatial_dimensions=spatial, output_batch_dimension=0, output_feature_dimension=1,
                    output_spatial_dimensions=spatial)
    executable, text = _compile_conv((x.shape, x.dtype), (w.shape, w.dtype), window_strides=strides,
                                     padding=padding, rhs_dilation=dil, feature_group_count=c, **dims)
    assert "mlc.direct_conv" in text  # the depthwise kernel, not the generic loop nest
    got = executable(x, w)
    assert got.shape == want.shape and got.dtype == x.dtype
    err = np.abs(got.astype(np.float64) - want)
    assert np.all(err <= DIRECT_TOLERANCE[np.dtype(dtype)] * (bound + 1)), float((err / (bound + 1)).max())


@pytest.mark.parametrize("case", DEPTHWISE_CASES, ids=[str(i) for i in range(len(DEPTHWISE_CASES))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_depthwise_convolution(case, dtype, rng):
    _check_depthwise(case, dtype, rng)


@pytest.mark.parametrize("case", [DEPTHWISE_CASES[i] for i in (1, 4)], ids=["masks", "dilation"])
def test_depthwise_convolution_both_vector_widths_nchw(case, vector_bits, rng):
    _check_depthwise(case, np.float32, rng, layout="nchw")


# --- epilogues and padding inside the kernels (direct_conv.match_epilogue, padded_source) ----
# A convolution's elementwise consumer (batch norm, ReLU6, a residual add) is applied to the
# register tiles before they are stored; a depthwise conv reads its unpadded input in place
# (edge pixels masked). Each case runs the same function through mlc.jit and against numpy;
# the last field says what mlc-direct-conv alone, on the buffers stage, must leave: no
# elementwise kernel (the epilogue fused) and/or no copy or fill (the padded copy gone).
EPILOGUE_CASES = [
    # batch, (h, w), ci, (kh, kw), co (None: depthwise), strides, padding, rhs dilation,
    # (epilogue fused, padded copy gone)
    (3, (17, 13), 17, (3, 3), None, (1, 1), "SAME", (1, 1), (True, True)),  # odd sizes, masked channels
    (1, (17, 17), 40, (3, 3), None, (2, 2), "SAME", (1, 1), (True, True)),  # stride 2
    (2, (9, 11), 24, (5, 3), None, (2, 1), ((2, 1), (0, 2)), (2, 1), (True, True)),  # explicit, dilation
    (2, (7, 7), 8, (3, 3), None, (1, 1), "VALID", (1, 1), (True, True)),     # no padding
    (1, (2, 2), 3, (3, 3), None, (1, 1), "SAME", (1, 1), (True, True)),      # every tile an edge
    (3, (9, 9), 17, (1, 1), 33, (1, 1), "SAME", (1, 1), (True, True)),      # pointwise, 33 channels
    (2, (11, 7), 5, (3, 3), 16, (2, 2), "SAME", (1, 1), (True, False)),     # dense 3x3: padded copy kept
    (1, (9, 9), 64, (3, 3), 20, (1, 1), "SAME", (1, 1), (False, False)),    # K blocks: epilogue not fused
]


def _epilogue_case(case, dtype, rng):
    import mlc
    import mlc.lax as mlax
    import mlc.numpy as mnp

    batch, (h, w_), ci, (kh, kw), co, strides, padding, dil, _ = case
    depthwise = co is None
    co = ci if depthwise else co
    x = random_array(rng, (batch, h, w_, ci), dtype)
    w = random_array(rng, (kh, kw, 1 if depthwise else ci, co), dtype) / 3
    s = random_array(rng, (co,), dtype) / 3
    t = random_array(rng, (co,), dtype)
    r = random_array(rng, _reference_epilogue(case, x, w, s, t, 0.0).shape, dtype)

    def f(x, w, s, t, r):
        y = mlax.conv_general_dilated(x, w, strides, padding, rhs_dilation=dil,
                                      dimension_numbers=("NHWC", "HWIO", "NHWC"),
                                      feature_group_count=ci if depthwise else 1)
        return mnp.minimum(mnp.maximum(y * s + t, 0.0), 6.0) + r  # batch norm, ReLU6, a residual

    fn = mlc.jit(f)
    return fn, (x, w, s, t, r)


def _reference_epilogue(case, x, w, s, t, r):
    batch, (h, w_), ci, (kh, kw), co, strides, padding, dil, _ = case
    depthwise = co is None
    if isinstance(padding, str):
        pads = []
        for size, k, st, d in zip((h, w_), (kh, kw), strides, dil):
            span = (k - 1) * d + 1
            if padding == "VALID":
                pads.append((0, 0))
            else:
                out = -(-size // st)
                total = max((out - 1) * st + span - size, 0)
                pads.append((total // 2, total - total // 2))
    else:
        pads = list(padding)
    to_nchw, to_oihw = (0, 3, 1, 2), (3, 2, 0, 1)
    y = np.moveaxis(reference_conv(x.transpose(to_nchw).astype(np.float64), w.transpose(to_oihw).astype(np.float64),
                                   strides, pads, (1, 1), dil, ci if depthwise else 1, 1), 1, -1)
    y = np.minimum(np.maximum(y * s.astype(np.float64) + t.astype(np.float64), 0.0), 6.0)
    return y + np.asarray(r, np.float64)


EPILOGUE_TOLERANCE = {np.dtype(np.float16): 2e-2, np.dtype(np.float32): 1e-5, np.dtype(np.float64): 1e-12}


def _check_epilogue(case, dtype, rng):
    fn, args = _epilogue_case(case, dtype, rng)
    got = np.asarray(fn(*args))
    want = _reference_epilogue(case, *args)
    assert got.shape == want.shape and got.dtype == np.dtype(dtype)
    scale = max(1.0, float(np.abs(want).max()))
    err = float(np.abs(got.astype(np.float64) - want).max())
    assert err <= EPILOGUE_TOLERANCE[np.dtype(dtype)] * scale, err
    return fn, args


@pytest.mark.parametrize("case", EPILOGUE_CASES, ids=[str(i) for i in range(len(EPILOGUE_CASES))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.float16])
def test_convolution_epilogue_and_padding(case, dtype, rng):
    _check_epilogue(case, dtype, rng)


@pytest.mark.parametrize("case", [EPILOGUE_CASES[i] for i in (0, 2, 4, 5)], ids=["same", "explicit", "tiny", "pw"])
def test_convolution_epilogue_both_vector_widths(case, vector_bits, rng):
    _check_epilogue(case, np.float32, rng)


@pytest.mark.parametrize("case", EPILOGUE_CASES, ids=[str(i) for i in range(len(EPILOGUE_CASES))])
def test_convolution_epilogue_fused_in_kernel(case, rng):
    """After mlc-direct-conv alone, on the buffers stage: no elementwise kernel left when the
    rule fuses it (the bias/ReLU6 applied to the tiles), and for a padded depthwise conv no
    copy or fill left (the kernel reads the unpadded input)."""
    from mlir import ir

    from mlc.codegen.direct_conv import DirectConv
    from mlc.compiler import run_passes
    from mlc.context import make_context

    fn, args = _epilogue_case(case, np.float32, rng)
    buffers = fn.lower(*args).as_text("buffers")
    with make_context():
        module = ir.Module.parse(buffers)
        run_passes(module, [DirectConv(register_bits=256, threads=2)])
        text = str(module)
    assert "linalg.conv" not in text and "linalg.depthwise" not in text
    fused, unpadded = case[-1]
    assert text.count("linalg.generic") == (0 if fused else 1), text
    if unpadded:
        assert "linalg.copy" not in text and "memref.copy" not in text and "linalg.fill" not in text, text


@pytest.mark.parametrize("pool", [False, True], ids=["block", "pooled"])
@pytest.mark.parametrize("batch", [1, 3])
def test_depthwise_separable_chain(batch, pool, rng):
    """MobileNet's block (depthwise 3x3 + batch norm + ReLU6, pointwise + batch norm + ReLU) at
    odd sizes: the depthwise epilogue's output is a temporary that the scratch allocator put
    on the padded input's bytes, so the kernel writes it into the conv's own buffer instead
    and the pointwise conv reads that (direct_conv._redirect_ok). Pooled: the pointwise
    epilogue's output is a temporary too, whose view is made after the conv (moved before it)."""
    import mlc
    import mlc.lax as mlax
    import mlc.numpy as mnp

    dn = ("NHWC", "HWIO", "NHWC")
    x = random_array(rng, (batch, 13, 11, 24), np.float32)
    wd = random_array(rng, (3, 3, 1, 24), np.float32) / 9
    s1, t1 = random_array(rng, (24,), np.float32) / 3, random_array(rng, (24,), np.float32)
    wp = random_array(rng, (1, 1, 24, 40), np.float32) / 15
    s2, t2 = random_array(rng, (40,), np.float32) / 3, random_array(rng, (40,), np.float32)

    def f(x, wd, s1, t1, wp, s2, t2):
        h = mlax.conv_general_dilated(x, wd, (1, 1), "SAME", dimension_numbers=dn, feature_group_count=24)
        h = mnp.minimum(mnp.maximum(h * s1 + t1, 0.0), 6.0)
        y = mlax.conv_general_dilated(h, wp, (1, 1), "SAME", dimension_numbers=dn)
        y = mnp.maximum(y * s2 + t2, 0.0)
        return mnp.sum(y, axis=(1, 2)) if pool else y

    got = np.asarray(mlc.jit(f)(x, wd, s1, t1, wp, s2, t2))
    f64 = lambda a: a.astype(np.float64)  # noqa: E731
    h = np.moveaxis(reference_conv(f64(x).transpose(0, 3, 1, 2), f64(wd).transpose(3, 2, 0, 1), (1, 1),
                                   [(1, 1), (1, 1)], (1, 1), (1, 1), 24, 1), 1, -1)
    h = np.minimum(np.maximum(h * s1 + t1, 0.0), 6.0)
    want = np.maximum((h.reshape(-1, 24) @ f64(wp).reshape(24, 40)).reshape(h.shape[:3] + (40,)) * s2 + t2, 0.0)
    if pool:
        want = want.sum(axis=(1, 2))
    assert float(np.abs(got - want).max()) <= 1e-5 * max(1.0, float(np.abs(want).max()))
