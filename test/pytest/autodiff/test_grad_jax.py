"""Gradients against jax.grad, when jax is installed (an optional test dependency).

jax's MLIR bindings cannot share a process with MLC's, so jax runs in a subprocess on the
same inputs. Each case is source text written against names mlc.numpy / mlc.lax and
jax.numpy / jax.lax share, evaluated once with each namespace."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import mlc
import mlc.lax as mlc_lax
import mlc.nn as mlc_nn
import mlc.numpy as mnp

CASES = {
    "mlp": ("lambda w, x: np.mean((nn.relu(x @ w[0] + w[1]) @ w[2]) ** 2)",
            lambda rng: ((rng.standard_normal((4, 6)), rng.standard_normal(6), rng.standard_normal((6, 3))),
                         rng.standard_normal((5, 4)))),
    "softmax_max_ties": ("lambda x, y: np.sum(nn.softmax(x) * y) + np.max(np.round(x))",
                         lambda rng: (rng.standard_normal((3, 5)), rng.standard_normal((3, 5)))),
    "conv": ("lambda x, w: np.sum(np.tanh(lax.conv_general_dilated(x, w, (2, 1), ((1, 1), (0, 2)), "
             "rhs_dilation=(1, 2), dimension_numbers=('NHWC', 'HWIO', 'NHWC'))))",
             lambda rng: (rng.standard_normal((2, 6, 5, 3)), rng.standard_normal((3, 2, 3, 4)))),
    "gather_duplicates": ("lambda x, y: np.sum(x[np.array([0, 2, 2, 1])] * y)",
                          lambda rng: (rng.standard_normal((3, 4)), rng.standard_normal((4, 4)))),
    "reduce_window_max": ("lambda x, y: np.sum(lax.reduce_window(x, -np.inf, lax.max, (2, 2), (1, 1), 'VALID') * y)",
                          lambda rng: (np.round(rng.standard_normal((4, 5))), rng.standard_normal((3, 4)))),
    "clamp_power_atan2": ("lambda x, y: np.sum(np.clip(x, -0.5, 0.5) + np.power(np.abs(x) + 1, y) + np.arctan2(x, y))",
                          lambda rng: (rng.standard_normal(6), rng.standard_normal(6))),
    "scan": ("lambda c, xs: np.sum(lax.scan(lambda c, x: (np.sin(c) * x, c * x), c, xs)[1])",
             lambda rng: (rng.standard_normal(3), rng.standard_normal((4, 3)))),
}

JAX_SCRIPT = r"""
import json, sys
import numpy
jax_cases = json.loads(sys.stdin.read())
import jax
jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp
out = {}
for name, (source, args) in jax_cases.items():
    fn = eval(source, {"np": jnp, "lax": jax.lax, "nn": jax.nn})
    def tree(a):
        return tuple(tree(x) for x in a["tuple"]) if "tuple" in a else jnp.asarray(a["array"])
    args = [tree(a) for a in args]
    grads = jax.grad(fn, argnums=tuple(range(len(args))))(*args)
    out[name] = [x for g in jax.tree_util.tree_leaves(grads) for x in numpy.ravel(g).tolist()]
print(json.dumps(out))
"""


def _jax_available() -> bool:
    try:
        return subprocess.run([sys.executable, "-c", "import jax"], capture_output=True, timeout=120).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


@pytest.mark.skipif(not _jax_available(), reason="jax is not installed")
def test_gradients_match_jax_grad():
    rng = np.random.default_rng(3)
    inputs = {name: make(rng) for name, (_, make) in CASES.items()}

    def listed(a):
        return {"tuple": [listed(x) for x in a]} if isinstance(a, tuple) else {"array": np.asarray(a).tolist()}
    request = {name: (source, [listed(a) for a in inputs[name]]) for name, (source, _) in CASES.items()}
    result = subprocess.run([sys.executable, "-c", JAX_SCRIPT], input=json.dumps(request),
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-2000:]
    want = json.loads(result.stdout.strip().splitlines()[-1])
    for name, (source, _) in CASES.items():
        fn = eval(source, {"np": mnp, "lax": mlc_lax, "nn": mlc_nn})
        args = inputs[name]
        got = mlc.grad(fn, argnums=tuple(range(len(args))))(*args)
        flat = np.concatenate([np.ravel(g) for g in mlc.tree_util.tree_leaves(got)])
        np.testing.assert_allclose(flat, np.asarray(want[name]), rtol=1e-9, atol=1e-12, err_msg=name)
