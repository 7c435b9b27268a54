"""batch_norm_inference / batch_norm_training / batch_norm_grad decomposed into hlo ops, by
the formulas of StableHLO's specification (per feature along `feature_index`; training's variance is the
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
    """(x - mean) / sqrt(variance + epsilon) * scale + offset, per feature."""
    x, scale, offset, mean, variance = cv.operands(op)
    feature = A.get(op, "feature_index").value
    return [_normalize(x, scale, offset, mean, variance, _epsilon(op), feature)]


@rule("stablehlo.batch_norm_training")
def batch_norm_training(cv, op):
    """mean and biased variance over the non-feature dims, then batch_norm_inference's
    formula with them; returns (normalized, mean, variance)."""
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


@rule("stablehlo.batch_norm_grad")
def batch_norm_grad(cv, op):
    """The gradients of batch_norm_training's normalized output (mean and variance given),
    per feature f, n = elements per feature, s = sqrt(variance + epsilon),
    x^ = (x - mean) / s:
      grad_offset = sum(dy), grad_scale = sum(dy * x^),
      grad_operand = scale / s * (dy - grad_offset / n - x^ * grad_scale / n)."""
    x, scale, mean, variance, dy = cv.operands(op)
    feature = A.get(op, "feature_index").value
    shape = ir.RankedTensorType(x.type).shape
    dims = [d for d in range(len(shape)) if d != feature]
    count = float(np.prod([shape[d] for d in dims]))
    zero = _scalar(x, 0.0)
    eps = hlo.broadcast_in_dim(_scalar(x, _epsilon(op)), [shape[feature]], [])
    stddev = hlo.sqrt(hlo.add(variance, eps))
    normalized = hlo.divide(hlo.subtract(x, _per_feature(mean, shape, feature)),
                            _per_feature(stddev, shape, feature))
    grad_offset = hlo.reduce(dy, zero, dims, "add")
    grad_scale = hlo.reduce(hlo.multiply(dy, normalized), zero, dims, "add")
    n = hlo.broadcast_in_dim(_scalar(x, count), [shape[feature]], [])
    mean_dy = _per_feature(hlo.divide(grad_offset, n), shape, feature)
    mean_dy_x = _per_feature(hlo.divide(grad_scale, n), shape, feature)
    inner = hlo.subtract(hlo.subtract(dy, mean_dy), hlo.multiply(normalized, mean_dy_x))
    factor = _per_feature(hlo.divide(scale, stddev), shape, feature)
    return [hlo.multiply(factor, inner), grad_scale, grad_offset]
