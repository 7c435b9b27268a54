"""mlc-reshaped-results: a result that is a reshape of a computed buffer is written into the
caller's array directly, and equals numpy's for every shape of reshape."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp

CASES = [
    ("repeat", lambda a: mnp.repeat(a, 2, axis=0), lambda a: np.repeat(a, 2, axis=0)),
    ("tile", lambda a: mnp.tile(a * 2.0, (3, 1)), lambda a: np.tile(a * 2, (3, 1))),
    ("flatten", lambda a: mnp.tanh(a).reshape(-1), lambda a: np.tanh(a).reshape(-1)),
    ("split heads", lambda a: (a + 1.0).reshape(a.shape[0], 5, -1), lambda a: (a + 1).reshape(a.shape[0], 5, -1)),
    ("two reshaped results", lambda a: ((a * 3.0).reshape(-1), (a - 1.0).reshape(5, -1)),
     lambda a: ((a * 3).reshape(-1), (a - 1).reshape(5, -1))),
]


@pytest.mark.parametrize("name,fn,reference", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_reshaped_results_match_numpy_without_a_copy(name, fn, reference, dtype):
    x = (np.random.default_rng(11).standard_normal((7, 30)) * 10).astype(dtype)
    compiled = mlc.jit(fn).lower(x).compile(keep_stages=True)
    got, want = compiled(x), reference(x)
    for g, w in zip(got if isinstance(got, tuple) else (got,), want if isinstance(want, tuple) else (want,)):
        assert g.shape == w.shape
        np.testing.assert_allclose(g, w.astype(g.dtype), rtol=1e-6 if dtype != np.float64 else 1e-12)
    assert "memref.copy" not in compiled.as_text("buffers")
