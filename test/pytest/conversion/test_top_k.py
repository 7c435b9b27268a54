"""hlo.argsort with `limit` (top-k) against the stable order: the selection per row
(conversion/hlo_to_linalg/top_k.py) and, for large k, the sort's first k; through
lax.top_k, its values, vmap and gradient."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_matches, random_array, run_hlo
from test_sort import _special_values, reference_argsort

import mlc
import mlc.lax as lax
import mlc.numpy as mnp
from mlc.dialects import hlo

# (shape, dim, k): selections (small k on long rows, along either dimension, one row and
# rows in parallel), a k that makes the sort run instead (200 of 500), k = 1 and k = n - 1.
CASES = [((500,), 0, 5), ((3, 500), 1, 7), ((500, 3), 0, 4), ((64, 900), 1, 10), ((2, 500), 1, 200),
         ((4, 300), 1, 1), ((2, 40), 1, 39)]
DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int32, np.int64, np.uint8, np.uint32]


def _first(order, dim, k):
    return np.take(order, np.arange(k), axis=dim)


@pytest.mark.parametrize("shape,dim,k", CASES)
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("descending", [False, True])
def test_argsort_limit_is_the_first_k(shape, dim, k, dtype, descending, rng):
    x = random_array(rng, shape, dtype)
    if np.issubdtype(np.dtype(dtype), np.integer):
        x = (x // 16).astype(dtype)  # many ties: the lower position must come first
    x = _special_values(x, rng)
    got = run_hlo(lambda v: hlo.argsort(v, dim, descending, limit=k), x)
    assert_matches(got, _first(reference_argsort(x, dim, descending), dim, k))


@pytest.mark.parametrize("order", ["ascending", "descending", "constant"])
def test_selection_worst_cases(order, rng):
    """Rows in order (every element inserted at the front, or never) and all-equal rows."""
    x = np.sort(rng.standard_normal((3, 700)).astype(np.float32), axis=1)
    if order == "descending":
        x = x[:, ::-1].copy()
    if order == "constant":
        x = np.full((3, 700), 2.5, np.float32)
    for descending in (False, True):
        got = run_hlo(lambda v: hlo.argsort(v, 1, descending, limit=6), x)
        assert_matches(got, _first(reference_argsort(x, 1, descending), 1, 6))


@pytest.mark.parametrize("shape,k", [((1000,), 10), ((5, 400), 3), ((2, 3, 300), 8), ((7,), 7)])
def test_lax_top_k_values_and_indices(shape, k, rng):
    x = rng.standard_normal(shape).astype(np.float32)
    x.reshape(-1)[:2] = [np.nan, -0.0]
    values, indices = mlc.jit(lambda v: lax.top_k(v, k))(x)
    order = _first(reference_argsort(x, x.ndim - 1, True), x.ndim - 1, k)
    np.testing.assert_array_equal(np.asarray(indices), order.astype(np.int32))
    want = np.take_along_axis(x, order, axis=-1)
    np.testing.assert_array_equal(np.asarray(values).view(np.uint32), want.view(np.uint32))


def test_lax_top_k_vmap_and_grad(rng):
    x = rng.standard_normal((4, 300)).astype(np.float32)
    batched = mlc.vmap(lambda row: lax.top_k(row, 5)[0])(x)
    np.testing.assert_array_equal(np.asarray(batched), -np.sort(-x, axis=1)[:, :5])
    grad = mlc.grad(lambda v: mnp.sum(lax.top_k(v, 5)[0] * mnp.arange(1.0, 6.0)))(x)
    want = np.zeros_like(x)
    np.put_along_axis(want, np.argsort(-x, axis=1, kind="stable")[:, :5], np.arange(1.0, 6.0, dtype=np.float32), 1)
    np.testing.assert_array_equal(np.asarray(grad), want)


def test_argsort_limit_from_the_frontend_idiom(rng):
    """argsort(...)[..., :k] becomes argsort with limit (hlo-simplify) and stays correct."""
    x = rng.standard_normal((6, 512)).astype(np.float32)
    f = mlc.jit(lambda v: mnp.argsort(v, axis=-1)[:, :4])
    assert "limit = 4" in f.lower(x).as_text("hlo-optimized")
    np.testing.assert_array_equal(np.asarray(f(x)), np.argsort(x, axis=-1, kind="stable")[:, :4])
