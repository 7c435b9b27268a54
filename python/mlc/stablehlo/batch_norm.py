"""batch_norm_inference / batch_norm_training decomposed into hlo ops, by the formulas of
StableHLO's specification (per feature along `feature_index`; training's variance is the
biased one, divided by the element count)."""

from __future__ import annotations

import numpy as np
from mlir import ir

from ..dialects import hlo
from ..dtypes import numpy_dtype
from . import attributes as A
from .registry import rule


def _epsilon(op) -> float:
    return ir.FloatAttr(A.get(op, "epsilon")).value


def _per_feature(v: ir.Value, shape, feature: int) -> ir.Value:
    return hlo.broadcast_in_dim(v, shape, [feature])


def _scalar(like: ir.Value, value: float) -> ir.Value:
    t = ir.RankedTensorType(like.type)
    return hlo.constant(np.asarray(value, numpy_dtype(t.element_type)))


def _normalize(x, scale, offset, mean, variance, epsilon, feature):
    shape = ir.RankedTensorType(x.type).shape
    eps = hlo.broadcast_in_dim(_scalar(x, epsilon), shape, [])
    inv = hlo.rsqrt(hlo.add(_per_feature(variance, shape, feature), eps))
    centered = hlo.subtract(x, _per_feature(mean, shape, feature))
    scaled = hlo.multiply(hlo.multiply(centered, inv), _per_feature(scale, shape, feature))
    return hlo.add(scaled, _per_feature(offset, shape, feature))


@rule("stablehlo.batch_norm_inference")
def batch_norm_inference(cv, op):
    x, scale, offset, mean, variance = cv.operands(op)
    feature = A.get(op, "feature_index").value
    return [_normalize(x, scale, offset, mean, variance, _epsilon(op), feature)]


@rule("stablehlo.batch_norm_training")
def batch_norm_training(cv, op):
    x, scale, offset = cv.operands(op)
    feature = A.get(op, "feature_index").value
    shape = ir.RankedTensorType(x.type).shape
    dims = [d for d in range(len(shape)) if d != feature]
    count = float(np.prod([shape[d] for d in dims]))
    zero = _scalar(x, 0.0)

    def mean_of(v):
        total = hlo.reduce(v, zero, dims, "add")
        return hlo.divide(total, hlo.broadcast_in_dim(_scalar(x, count), [shape[feature]], []))

    mean = mean_of(x)
    centered = hlo.subtract(x, _per_feature(mean, shape, feature))
    variance = mean_of(hlo.multiply(centered, centered))
    return [_normalize(x, scale, offset, mean, variance, _epsilon(op), feature), mean, variance]
