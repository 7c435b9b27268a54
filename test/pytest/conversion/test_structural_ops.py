"""constant, iota, broadcast_in_dim, reshape, transpose, reduce and dot_general against numpy."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_matches, random_array, run_hlo
from mlir import ir

import mlc
from mlc.dialects import hlo
from mlc.dtypes import mlir_element_name

DTYPES = [np.float32, np.float64, np.int32, np.int64, np.uint8, np.uint32, np.bool_]


def element_type(dtype):
    return ir.Type.parse(mlir_element_name(dtype))


@pytest.mark.parametrize("dtype", DTYPES + [np.float16, np.int8])
@pytest.mark.parametrize("shape", [(), (1,), (0, 3), (2, 3)])
def test_constant(dtype, shape, rng):
    value = random_array(rng, shape, dtype)
    assert_matches(run_hlo(lambda: hlo.constant(value)), value)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.int8])
@pytest.mark.parametrize("shape,dim", [((5,), 0), ((2, 3), 0), ((2, 3), 1), ((2, 0, 4), 2)])
def test_iota(dtype, shape, dim):
    want = np.broadcast_to(np.arange(shape[dim]).reshape([-1 if d == dim else 1 for d in range(len(shape))]), shape)
    got = run_hlo(lambda: hlo.iota(shape, element_type(dtype), dim))
    assert_matches(got, want.astype(dtype))


BROADCASTS = [
    ((), (2, 3), ()),
    ((3,), (2, 3), (1,)),
    ((2,), (2, 3), (0,)),
    ((1,), (4, 2), (1,)),
    ((1, 3), (2, 4, 3), (1, 2)),
    ((3, 1), (3, 5), (0, 1)),
    ((2, 3), (3, 2), (1, 0)),  # broadcast_in_dim may also transpose
    ((0,), (2, 0), (1,)),
]


@pytest.mark.parametrize("in_shape,out_shape,dims", BROADCASTS)
@pytest.mark.parametrize("dtype", DTYPES)
def test_broadcast_in_dim(in_shape, out_shape, dims, dtype, rng):
    x = random_array(rng, in_shape, dtype)
    # Reference: move operand dims into result order, then let numpy broadcast.
    order = np.argsort(dims)
    placed = np.transpose(x, order) if x.ndim else x
    expanded_shape = [1] * len(out_shape)
    for i, d in enumerate(sorted(dims)):
        expanded_shape[d] = placed.shape[i]
    want = np.broadcast_to(placed.reshape(expanded_shape), out_shape)
    assert_matches(run_hlo(lambda v: hlo.broadcast_in_dim(v, out_shape, dims), x), want)


@pytest.mark.parametrize("in_shape,out_shape", [((2, 3), (3, 2)), ((6,), (1, 2, 3)), ((), (1, 1)),
                                                ((1, 1), ()), ((2, 3, 4), (4, 6)), ((0, 4), (2, 0, 2)),
                                                ((5,), (5,))])
@pytest.mark.parametrize("dtype", DTYPES)
def test_reshape(in_shape, out_shape, dtype, rng):
    x = random_array(rng, in_shape, dtype)
    assert_matches(run_hlo(lambda v: hlo.reshape(v, out_shape), x), x.reshape(out_shape))


@pytest.mark.parametrize("shape,perm", [((2, 3), (1, 0)), ((2, 3, 4), (2, 0, 1)), ((2, 3, 4), (0, 1, 2)),
                                        ((1, 0, 3), (2, 1, 0)), ((5,), (0,)), ((), ())])
@pytest.mark.parametrize("dtype", DTYPES)
def test_transpose(shape, perm, dtype, rng):
    x = random_array(rng, shape, dtype)
    assert_matches(run_hlo(lambda v: hlo.transpose(v, perm), x), np.transpose(x, perm))


REDUCERS = {
    "add": lambda x, axes: np.sum(x, axis=axes, dtype=x.dtype) if x.dtype != np.bool_ else np.any(x, axis=axes),
    "mul": lambda x, axes: np.prod(x, axis=axes, dtype=x.dtype) if x.dtype != np.bool_ else np.all(x, axis=axes),
    "max": lambda x, axes: np.max(x, axis=axes, initial=None) if x.size else None,
    "min": lambda x, axes: np.min(x, axis=axes) if x.size else None,
    "and": lambda x, axes: np.bitwise_and.reduce(x, axis=axes),
    "or": lambda x, axes: np.bitwise_or.reduce(x, axis=axes),
    "xor": lambda x, axes: np.bitwise_xor.reduce(x, axis=axes),
}
COMBINE = {
    "add": lambda a, b: a | b if a.dtype == np.bool_ else a + b,
    "mul": lambda a, b: a & b if a.dtype == np.bool_ else a * b,
    "max": np.maximum, "min": np.minimum,
    "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor,
}


def reference_reduce(x, init, dims, kind):
    """init combined with every element along dims (init alone over empty dims)."""
    result = np.broadcast_to(init, [s for d, s in enumerate(x.shape) if d not in dims]).astype(x.dtype)
    if x.size:
        with np.errstate(all="ignore"):
            result = COMBINE[kind](result, REDUCERS[kind](x, tuple(dims)).astype(x.dtype))
    return np.asarray(result, dtype=x.dtype)


# Bitwise kinds need integer or bool elements (the verifier rejects them on floats).
REDUCE_CASES = [(kind, dtype) for kind in REDUCERS for dtype in DTYPES
                if kind not in ("and", "or", "xor") or not np.issubdtype(np.dtype(dtype), np.floating)]


@pytest.mark.parametrize("kind,dtype", REDUCE_CASES)
@pytest.mark.parametrize("shape,dims", [((10,), (0,)), ((3, 4), (1,)), ((3, 4), (0,)), ((2, 3, 4), (0, 2)),
                                        ((3, 4), ()), ((), ()), ((0, 3), (0,)), ((2, 5), (0, 1))])
def test_reduce(kind, dtype, shape, dims, rng):
    x = random_array(rng, shape, dtype)
    init = random_array(rng, (), dtype)
    got = run_hlo(lambda v, i: hlo.reduce(v, i, dims, kind), x, init)
    assert_matches(got, reference_reduce(x, init, dims, kind), loose=True)


def test_reduce_sum_large_f32_accuracy(rng):
    """A 1e6-element f32 sum stays within 1e-4 relative of the exact (f64) sum."""
    x = rng.standard_normal(1_000_000).astype(np.float32) + 1.0
    got = run_hlo(lambda v, i: hlo.reduce(v, i, [0], "add"), x, np.float32(0))
    np.testing.assert_allclose(got, np.sum(x, dtype=np.float64), rtol=1e-4)


DOTS = [
    # lhs shape, rhs shape, lhs batch, rhs batch, lhs contract, rhs contract
    ((3, 4), (4, 5), (), (), (1,), (0,)),      # matmul
    ((4, 3), (4, 5), (), (), (0,), (0,)),      # transposed lhs
    ((3, 4), (5, 4), (), (), (1,), (1,)),      # transposed rhs
    ((2, 3, 4), (2, 4, 5), (0,), (0,), (2,), (1,)),  # batch matmul
    ((3, 2, 4), (4, 2, 5), (1,), (1,), (2,), (0,)),  # batch dim in the middle
    ((4,), (4,), (), (), (0,), (0,)),          # vector dot -> scalar
    ((3,), (5,), (), (), (), ()),              # outer product
    ((2, 3, 4), (3, 4, 6), (), (), (1, 2), (0, 1)),  # two contracting dims
    ((0, 4), (4, 3), (), (), (1,), (0,)),      # empty free dim
    ((3, 0), (0, 2), (), (), (1,), (0,)),      # empty contraction -> zeros
]


def reference_dot(a, b, lb, rb, lc, rc):
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    la = [None] * a.ndim
    rb_ = [None] * b.ndim
    batch = []
    for i, j in zip(lb, rb):
        c = next(letters); la[i] = rb_[j] = c; batch.append(c)
    for i, j in zip(lc, rc):
        c = next(letters); la[i] = rb_[j] = c
    lfree = []
    for i in range(a.ndim):
        if la[i] is None:
            la[i] = next(letters); lfree.append(la[i])
    rfree = []
    for j in range(b.ndim):
        if rb_[j] is None:
            rb_[j] = next(letters); rfree.append(rb_[j])
    spec = f"{''.join(la)},{''.join(rb_)}->{''.join(batch + lfree + rfree)}"
    return np.einsum(spec, a.astype(np.float64), b.astype(np.float64))


@pytest.mark.parametrize("config", DOTS, ids=[str(i) for i in range(len(DOTS))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_dot_general(config, dtype, rng):
    ls, rs, lb, rb, lc, rc = config
    a, b = random_array(rng, ls, dtype), random_array(rng, rs, dtype)
    got = run_hlo(lambda x, y: hlo.dot_general(x, y, lb, rb, lc, rc), a, b)
    assert_matches(got, reference_dot(a, b, lb, rb, lc, rc).astype(dtype), loose=True)


def test_dot_general_widening_accumulator(rng):
    """i8 x i8 accumulated in i32, as quantized matmuls need."""
    a, b = random_array(rng, (4, 64), np.int8), random_array(rng, (64, 3), np.int8)
    got = run_hlo(lambda x, y: hlo.dot_general(x, y, (), (), (1,), (0,), element_type(np.int32)), a, b)
    assert_matches(got, a.astype(np.int32) @ b.astype(np.int32))


@pytest.mark.parametrize("kind", ["add", "mul", "max", "min"])
@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.uint32])
@pytest.mark.parametrize("shape,dims", [((4096,), (0,)), ((3, 2048), (1,)), ((2, 3, 1024), (0, 2))])
def test_long_reductions_split_into_lanes(kind, dtype, shape, dims, rng):
    """Innermost reductions of >= 1024 elements take the lane-split path: same results."""
    x = random_array(rng, shape, dtype)
    if kind == "mul":
        x = (np.sign(x) + (x == 0)).astype(dtype) if dtype != np.uint32 else np.ones(shape, dtype)
    init = random_array(rng, (), dtype)
    got = run_hlo(lambda v, i: hlo.reduce(v, i, dims, kind), x, init)
    assert_matches(got, reference_reduce(x, init, dims, kind), loose=True)


def test_row_fusion_of_kernels_on_dynamically_strided_buffers():
    """Two scf.if results bufferize to fully dynamic layouts; mlc-row-fusion's row views of
    them need their type stated (the builder raised 'mixed static/dynamic ... requires
    explicit result type')."""
    text = """func.func @main(%p: tensor<i1>, %a: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
      %e = tensor.extract %p[] : tensor<i1>
      %0 = scf.if %e -> (tensor<2x3xf32>) {
        %7 = "hlo.add"(%a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
        scf.yield %7 : tensor<2x3xf32>
      } else {
        %7 = "hlo.negate"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
        scf.yield %7 : tensor<2x3xf32>
      }
      %1 = scf.if %e -> (tensor<2x3xf32>) {
        %7 = "hlo.subtract"(%a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
        scf.yield %7 : tensor<2x3xf32>
      } else {
        %7 = "hlo.multiply"(%a, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
        scf.yield %7 : tensor<2x3xf32>
      }
      return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
    }"""
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    f = mlc.compile(text)
    for p, want in ((True, (a + a, a - a)), (False, (-a, a * a))):
        got = f(np.bool_(p), a)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
