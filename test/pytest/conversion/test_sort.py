"""hlo.sort and hlo.argsort against a stable reference: dtypes, dimensions, descending,
NaN placement, ties, empty and non-power-of-two sizes."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import assert_matches, random_array, run_hlo

from mlc.dialects import hlo


def reference_argsort(x, dim, descending):
    """Stable order with NaN last (ascending) or first (descending), ties in input order."""
    moved = np.moveaxis(x, dim, -1)
    out = np.empty(moved.shape, np.int64)
    for row in np.ndindex(moved.shape[:-1]):
        values = moved[row]
        key = [(bool(np.isnan(v)) if values.dtype.kind == "f" else False, v) for v in values.tolist()]
        out[row] = sorted(range(len(values)), key=lambda i: key[i], reverse=descending)
    return np.moveaxis(out, -1, dim)


CASES = [((7,), 0), ((3, 10), 1), ((10, 3), 0), ((2, 3, 5), 1), ((0, 4), 1), ((1,), 0), ((1000,), 0),
         ((2,), 0), ((17,), 0), ((33, 3), 0), ((4, 63), 1),  # odd counts: both merge ends meet
         ((40, 301), 1), ((301, 40), 0)]  # enough rows x length: the rows of a pass in parallel


@pytest.mark.parametrize("shape,dim", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int8, np.uint8, np.uint32, np.bool_])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_and_argsort(shape, dim, dtype, descending, rng):
    x = random_array(rng, shape, dtype)
    if np.issubdtype(np.dtype(dtype), np.integer):
        x = (x % 4).astype(dtype)  # many ties
    if np.issubdtype(np.dtype(dtype), np.floating) and x.size > 3:
        x.flat[[0, 2]] = [np.nan, np.inf]
    order = reference_argsort(x, dim, descending)
    assert_matches(run_hlo(lambda v: hlo.argsort(v, dim, descending), x), order)
    assert_matches(run_hlo(lambda v: hlo.sort(v, dim, descending), x), np.take_along_axis(x, order, dim))
