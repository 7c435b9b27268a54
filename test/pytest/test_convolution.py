"""hlo.convolution against a direct numpy reference: layouts, strides, padding, dilations,
feature groups (grouped and depthwise) and batch groups."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from conftest import assert_matches, random_array, run_hlo
from test_slicing_ops import reference_pad

from mlc.dialects import hlo


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
