"""convolution: the batch dim is folded into a dim the convolution already has.

    conv(x[b], w)    -> conv(x', w): B merged into x's batch dim (B-major), split off the
                        output batch dim and moved to the front
    conv(x, w[b])    -> conv(x, w'): B merged into w's output-feature dim inside each
                        feature group ((G, B, O/G)), split off the output feature dim
    conv(x[b], w[b]) -> conv(x', w') with B*G feature groups: B merged into x's input
                        features and w's output features (B-major), split off the output
                        feature dim
A convolution with batch_group_count > 1 and a batched operand is unrolled (one
convolution per example; rare: only the kernel gradient of a grouped convolution has it).
"""

from __future__ import annotations

from ...dialects import hlo
from ..registry import batch_rule
from ..values import etype, merge_dims, move_dim, shape, split_dim, unrolled

_DIMS = ("input_batch_dimension", "input_feature_dimension", "input_spatial_dimensions",
         "kernel_input_feature_dimension", "kernel_output_feature_dimension",
         "kernel_spatial_dimensions", "output_batch_dimension", "output_feature_dimension",
         "output_spatial_dimensions")


def _fold(v, dim: int):
    """A batched v ([B] + per-example dims) with B merged into per-example dim `dim` (B-major)."""
    v = move_dim(v, 0, dim)  # per-example dims before `dim` keep their positions
    return merge_dims(v, dim, 2)


def _unfold(v, dim: int, batch: int, outer: int = 1):
    """The inverse for a result: dim `dim` of size outer*B*rest split, B moved to the front."""
    rest = shape(v)[dim] // (outer * batch)
    v = split_dim(v, dim, [outer, batch, rest] if outer > 1 else [batch, rest])
    b_pos = dim + (1 if outer > 1 else 0)
    v = move_dim(v, b_pos, 0)
    return merge_dims(v, dim + 1, 2) if outer > 1 else v


@batch_rule("hlo.convolution")
def convolution(ctx, args):
    """conv(x[b], w) folds B into the batch dim; conv(x, w[b]) into the output features per
    group; conv(x[b], w[b]) into B*G feature groups (see the module docstring)."""
    (x, xb), (w, wb) = args
    groups, batch_groups = ctx.attr("feature_group_count", 1), ctx.attr("batch_group_count", 1)
    if batch_groups > 1:
        return unrolled(ctx, args)
    attrs = {name: ctx.attr(name) for name in _DIMS}
    attrs.update(window_strides=ctx.attr("window_strides"), padding=ctx.attr("padding"),
                 lhs_dilation=ctx.attr("lhs_dilation"), rhs_dilation=ctx.attr("rhs_dilation"),
                 feature_group_count=groups, batch_group_count=1,
                 result_element_type=etype(ctx.result))
    ko, of = attrs["kernel_output_feature_dimension"], attrs["output_feature_dimension"]
    if xb and not wb:
        ib, ob = attrs["input_batch_dimension"], attrs["output_batch_dimension"]
        out = hlo.convolution(_fold(x, ib), w, **attrs)
        return [_unfold(out, ob, ctx.size)]
    if wb and not xb:
        # w's output features as (G, B, O/G): each group keeps one contiguous block.
        o = shape(w)[ko + 1]
        w = split_dim(w, ko + 1, [groups, o // groups]) if groups > 1 else w
        w = move_dim(w, 0, ko + (1 if groups > 1 else 0))
        w = merge_dims(w, ko, 3 if groups > 1 else 2)
        out = hlo.convolution(x, w, **attrs)
        return [_unfold(out, of, ctx.size, groups)]
    attrs["feature_group_count"] = groups * ctx.size
    out = hlo.convolution(_fold(x, attrs["input_feature_dimension"]), _fold(w, ko), **attrs)
    return [_unfold(out, of, ctx.size)]
