"""convolution: bilinear in (input, kernel); each cotangent is itself a convolution.

Per spatial dim, with input size n, kernel size k, output size m, stride s, padding
(lo, hi), input (lhs) dilation a and kernel (rhs) dilation d, and dilated sizes
n' = (n-1)a+1, k' = (k-1)d+1, m' = (m-1)s+1:

- ct_input = conv(pad(ct, 0, k'-lo-1, n'+k'-1-m'-(k'-lo-1), interior s-1),
  reverse(kernel) with in/out features swapped, stride a, kernel dilation d): a full
  correlation of the stride-dilated cotangent with the flipped kernel. Feature groups G
  regroup the kernel [G*Og, Cg] -> [Og, G*Cg] and convolve with G groups; batch groups B
  do the same with B, then move the B groups of features into the batch.
- ct_kernel = conv(pad(input, 0, lo, (m'-n') + (k'-lo-1), interior a-1), ct, stride d,
  kernel dilation s), with batch and feature roles swapped on both operands (the batch is
  contracted); feature groups become batch groups and vice versa.

Padding goes through hlo.pad (which crops where it is negative) so the convolutions built
here have no padding or input dilation of their own.
"""

from __future__ import annotations

from ...dialects import hlo
from ..registry import jvp_rule, vjp_rule
from ..values import add, etype, scalar_like, shape


def _dims(ctx) -> dict:
    names = ("input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
             "kernel_input_feature_dimension", "kernel_output_feature_dimension",
             "kernel_spatial_dimensions", "output_batch_dimension", "output_feature_dimension",
             "output_spatial_dimensions")
    return {n: ctx.attr(n) for n in names}


def _window(ctx, dims, lhs, rhs, out):
    n_sp = len(dims["input_spatial_dimensions"])
    strides = ctx.attr("window_strides") or [1] * n_sp
    padding = ctx.attr("padding") or [(0, 0)] * n_sp
    lhs_dil = ctx.attr("lhs_dilation") or [1] * n_sp
    rhs_dil = ctx.attr("rhs_dilation") or [1] * n_sp
    n = [shape(lhs)[d] for d in dims["input_spatial_dimensions"]]
    k = [shape(rhs)[d] for d in dims["kernel_spatial_dimensions"]]
    m = [shape(out)[d] for d in dims["output_spatial_dimensions"]]
    return strides, padding, lhs_dil, rhs_dil, n, k, m


def _dilated(size, factor):
    return (size - 1) * factor + 1 if size else 0


def _pad_spatial(x, spatial_dims, lows, highs, interiors):
    rank = len(shape(x))
    lo, hi, inner = [0] * rank, [0] * rank, [0] * rank
    for d, a, b, c in zip(spatial_dims, lows, highs, interiors):
        lo[d], hi[d], inner[d] = a, b, c
    if not any(lo) and not any(hi) and not any(inner):
        return x
    return hlo.pad(x, scalar_like(x, 0), lo, hi, inner)


def _conv(lhs, rhs, *, ib, if_, isp, ki, ko, ksp, ob, of, osp, strides, rhs_dil,
          feature_groups=1, batch_groups=1, result_type=None):
    return hlo.convolution(
        lhs, rhs, input_batch_dimension=ib, input_feature_dimension=if_,
        input_spatial_dimensions=isp, kernel_input_feature_dimension=ki,
        kernel_output_feature_dimension=ko, kernel_spatial_dimensions=ksp,
        output_batch_dimension=ob, output_feature_dimension=of, output_spatial_dimensions=osp,
        window_strides=strides, rhs_dilation=rhs_dil, feature_group_count=feature_groups,
        batch_group_count=batch_groups, result_element_type=result_type)


def _input_ct(ctx, ct, lhs, rhs, dims):
    strides, padding, lhs_dil, rhs_dil, n, k, m = _window(ctx, dims, lhs, rhs, ct)
    # B batch groups regroup the kernel as B feature groups would; the B groups of input
    # features the convolution then gives are moved back into the batch (group-major).
    batch_groups = ctx.attr("batch_group_count", 1)
    groups = ctx.attr("feature_group_count", 1) * batch_groups
    ns = len(n)
    # The kernel as [O, I, spatial...], regrouped to [Og, G*Cg, spatial...] and flipped.
    kernel = hlo.transpose(rhs, [dims["kernel_output_feature_dimension"],
                                 dims["kernel_input_feature_dimension"],
                                 *dims["kernel_spatial_dimensions"]])
    o, cg, *ks = shape(kernel)
    if groups > 1:
        kernel = hlo.reshape(kernel, [groups, o // groups, cg, *ks])
        kernel = hlo.transpose(kernel, [1, 0, 2, *range(3, 3 + ns)])
        kernel = hlo.reshape(kernel, [o // groups, groups * cg, *ks])
    kernel = hlo.reverse(kernel, list(range(2, 2 + ns)))
    lows, highs = [], []
    for i in range(ns):
        n_d, k_d, m_d = _dilated(n[i], lhs_dil[i]), _dilated(k[i], rhs_dil[i]), _dilated(m[i], strides[i])
        lows.append(k_d - padding[i][0] - 1)
        highs.append(n_d + k_d - 1 - m_d - lows[-1])
    padded = _pad_spatial(ct, dims["output_spatial_dimensions"], lows, highs,
                          [s - 1 for s in strides])
    kernel = kernel if etype(kernel) == etype(padded) else hlo.convert(kernel, etype(padded))
    conv = dict(ib=dims["output_batch_dimension"], if_=dims["output_feature_dimension"],
                isp=dims["output_spatial_dimensions"], ki=0, ko=1, ksp=list(range(2, 2 + ns)),
                strides=lhs_dil, rhs_dil=rhs_dil, feature_groups=groups)
    if batch_groups == 1:
        out = _conv(padded, kernel, ob=dims["input_batch_dimension"], of=dims["input_feature_dimension"],
                    osp=dims["input_spatial_dimensions"], **conv)
    else:
        # [Nb, B*C, spatial...] -> [B*Nb, C, spatial...] -> lhs's layout.
        out = _conv(padded, kernel, ob=0, of=1, osp=list(range(2, 2 + ns)), **conv)
        nb, bc, *sp = shape(out)
        c = bc // batch_groups
        out = hlo.reshape(out, [nb, batch_groups, c, *sp])
        out = hlo.transpose(out, [1, 0, *range(2, 3 + ns)])
        out = hlo.reshape(out, [batch_groups * nb, c, *sp])
        layout = [dims["input_batch_dimension"], dims["input_feature_dimension"], *dims["input_spatial_dimensions"]]
        out = hlo.transpose(out, [layout.index(d) for d in range(2 + ns)])
    return out if etype(out) == etype(lhs) else hlo.convert(out, etype(lhs))


def _kernel_ct(ctx, ct, lhs, rhs, dims):
    strides, padding, lhs_dil, rhs_dil, n, k, m = _window(ctx, dims, lhs, rhs, ct)
    groups, batch_groups = ctx.attr("feature_group_count", 1), ctx.attr("batch_group_count", 1)
    highs = []
    for i in range(len(n)):
        n_d, k_d, m_d = _dilated(n[i], lhs_dil[i]), _dilated(k[i], rhs_dil[i]), _dilated(m[i], strides[i])
        highs.append((m_d - n_d) + (k_d - padding[i][0] - 1))
    padded = _pad_spatial(lhs, dims["input_spatial_dimensions"], [p[0] for p in padding], highs,
                          [a - 1 for a in lhs_dil])
    ct = ct if etype(ct) == etype(padded) else hlo.convert(ct, etype(padded))
    out = _conv(padded, ct, ib=dims["input_feature_dimension"], if_=dims["input_batch_dimension"],
                isp=dims["input_spatial_dimensions"], ki=dims["output_batch_dimension"],
                ko=dims["output_feature_dimension"], ksp=dims["output_spatial_dimensions"],
                ob=dims["kernel_input_feature_dimension"], of=dims["kernel_output_feature_dimension"],
                osp=dims["kernel_spatial_dimensions"], strides=rhs_dil, rhs_dil=strides,
                feature_groups=batch_groups, batch_groups=groups)
    return out if etype(out) == etype(rhs) else hlo.convert(out, etype(rhs))


@vjp_rule("hlo.convolution")
def convolution_vjp(ctx, cts):
    """conv(x, w): ct_x = conv(dilate_pad(ct), flip(w)^T), ct_w = conv(pad(x)^T, ct^T), with
    the paddings of the module docstring."""
    (ct,) = cts
    lhs, rhs = ctx.operands
    dims = _dims(ctx)
    return [_input_ct(ctx, ct, lhs, rhs, dims), _kernel_ct(ctx, ct, lhs, rhs, dims)]


@jvp_rule("hlo.convolution")
def convolution_jvp(ctx, ts):
    """conv(x, w): t = conv(t_x, w) + conv(x, t_w), with the op's own attributes."""
    lhs, rhs = ctx.operands
    attrs = dict(_dims(ctx), window_strides=ctx.attr("window_strides"), padding=ctx.attr("padding"),
                 lhs_dilation=ctx.attr("lhs_dilation"), rhs_dilation=ctx.attr("rhs_dilation"),
                 feature_group_count=ctx.attr("feature_group_count", 1),
                 batch_group_count=ctx.attr("batch_group_count", 1),
                 result_element_type=etype(ctx.result))
    parts = [hlo.convolution(ts[0], rhs, **attrs) if ts[0] is not None else None,
             hlo.convolution(lhs, ts[1], **attrs) if ts[1] is not None else None]
    return [add(*parts)]
