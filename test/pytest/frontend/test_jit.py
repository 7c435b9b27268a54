"""mlc.jit: the signature cache (hits, misses, no retrace), static arguments, nested
arguments and results, the staged API, source locations, debugging knobs and errors."""

from __future__ import annotations

import logging
import threading

import numpy as np
import pytest

import mlc
import mlc.nn as nn
import mlc.numpy as mnp

X = np.arange(12, dtype=np.float32).reshape(3, 4)


def test_cache_hits_misses_and_no_retrace():
    traces = []

    @mlc.jit
    def f(x, y):
        traces.append(1)
        return x * y + 1.0

    np.testing.assert_allclose(f(X, X), X * X + 1)
    f(X, X)
    f(X + 1, X)
    assert len(traces) == 1 and f.cache_info() == (2, 1, 1)
    f(X.astype(np.float64), X.astype(np.float64))   # new dtype
    f(X[:2], X[:2])                                 # new shape
    assert len(traces) == 3 and f.cache_info().misses == 3 and f.cache_info().size == 3


def test_static_argnums_and_argnames():
    traces = []

    @mlc.jit(static_argnums=1, static_argnames="mode")
    def f(x, axis, mode="sum"):
        traces.append(1)
        return x.sum(axis=axis) if mode == "sum" else x.max(axis=axis)

    np.testing.assert_allclose(f(X, 0), X.sum(0))
    np.testing.assert_allclose(f(X, 1), X.sum(1))
    np.testing.assert_allclose(f(X, 1, mode="max"), X.max(1))
    f(X, 1, mode="max")
    assert len(traces) == 3 and f.cache_info().hits == 1


def test_unhashable_static_argument_is_a_clear_error():
    f = mlc.jit(lambda x, axes: x.sum(axis=axes), static_argnums=1)
    with pytest.raises(TypeError, match=r"static argument 'axes' .* must be hashable, got list"):
        f(X, [0, 1])


def test_nested_arguments_and_results():
    @mlc.jit
    def f(params, batch):
        h = nn.relu(batch["x"] @ params[0] + params[1])
        return {"logits": h, "stats": (h.mean(), [h.max()])}

    w, b = np.ones((4, 2), np.float32), np.zeros(2, np.float32)
    out = f((w, b), {"x": X})
    h = np.maximum(X @ w + b, 0)
    np.testing.assert_allclose(out["logits"], h)
    np.testing.assert_allclose(out["stats"][0], h.mean())
    np.testing.assert_allclose(out["stats"][1][0], h.max())


def test_python_scalars_are_weakly_typed_arguments():
    f = mlc.jit(lambda x, s: x * s)
    out = f(X, 2.0)
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, X * 2)
    assert f(X, 3.0) is not None and f.cache_info().misses == 1  # the value is not in the key


def test_staged_api_and_locations():
    def softmax(x):
        return nn.softmax(x)

    lowered = mlc.jit(softmax).lower(X)
    hlo = lowered.as_text()
    assert '"hlo.exponential"' in hlo and '"hlo.reduce"' in hlo
    assert "linalg.generic" in lowered.as_text(stage="linalg")
    assert "llvm.func" in lowered.as_text(stage="llvm")
    with_locations = lowered.as_text()
    assert with_locations == lowered.compiler_ir()
    compiled = lowered.compile()
    e = np.exp(X - X.max(-1, keepdims=True))
    np.testing.assert_allclose(compiled(X), e / e.sum(-1, keepdims=True), rtol=1e-6)
    with pytest.raises(ValueError, match="unknown stage"):
        lowered.as_text(stage="asm")


def test_ops_carry_the_users_line():
    import inspect

    def f(x):
        return mnp.exp(x)  # this line

    text = mlc.jit(f).lower(X).as_text(debug_info=True)
    line = inspect.getsourcelines(f)[1] + 1
    assert f'test_jit.py":{line}' in text


def test_concurrent_first_calls_compile_once():
    f = mlc.jit(lambda x: x + 1.0)
    results = []
    threads = [threading.Thread(target=lambda: results.append(f(X))) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert f.cache_info().misses == 1 and len(results) == 6


def test_dump_dir_and_compile_log(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("MLC_DUMP_DIR", str(tmp_path))
    monkeypatch.setenv("MLC_LOG_COMPILES", "1")

    def g(x):
        return x * 2.0

    f = mlc.jit(g)
    with caplog.at_level(logging.WARNING, logger="mlc"):
        f(X)
        f(X[:1])
    names = sorted(p.name for p in tmp_path.iterdir())
    assert [n for n in names if n.startswith("g.1.")] == [
        "g.1.buffers.mlir", "g.1.codegen.mlir", "g.1.hlo-fused.mlir", "g.1.hlo-optimized.mlir", "g.1.hlo.mlir", "g.1.linalg.mlir",
        "g.1.llvm.mlir"]
    assert "compiling g for (float32[3, 4])" in caplog.text
    assert "re-compiled because argument leaf 0 changed from float32[3, 4] to float32[1, 4]" in caplog.text


def test_python_control_flow_on_traced_values_explains():
    @mlc.jit
    def f(x):
        if x.sum() > 0:
            return x
        return -x

    with pytest.raises(mlc.ConcretizationError, match=r"truth value .* mlc.lax.cond .* static_argnums"):
        f(X)


def test_shape_errors_name_the_op_and_the_users_line():
    def f(x, y):
        return mnp.matmul(x, y)

    with pytest.raises(ValueError, match=r"matmul: contracted dimensions differ"):
        mlc.jit(f)(X, X)
    with pytest.raises(ValueError, match=r"could not be broadcast together with shapes \(3, 4\) \(3,\)"):
        mlc.jit(lambda x, y: x + y)(X, X[:, 0])
    with pytest.raises(TypeError, match=r"test_jit.py:\d+: hlo.reshape"):
        mlc.jit(lambda x: mlc.frontend.core.wrap(mlc.frontend.tracing.emit(
            mlc.dialects.hlo.reshape, x.value, [5])))(X)


def test_unsupported_numpy_function_and_boolean_masks():
    with pytest.raises(NotImplementedError, match="mlc.numpy.fft is not implemented"):
        mnp.fft
    with pytest.raises(IndexError, match="boolean mask indexing .* use mlc.numpy.where"):
        mlc.jit(lambda x: x[x > 0])(X)


def test_non_array_arguments_are_type_errors():
    with pytest.raises(TypeError, match=r"jit arguments must be numpy arrays, .* got str"):
        mlc.jit(lambda x: x)("hello")
    with pytest.raises(TypeError, match="jit expects a function"):
        mlc.jit(3)


def _exp_twice(x):
    t = mnp.exp(x)
    return t, t


REPEATED_RESULTS = {
    "x*2 twice": (lambda x: (x * 2, x * 2), lambda x: (x * 2, x * 2)),
    "x.T and x.transpose()": (lambda x: (x.T, x.transpose()), lambda x: (x.T, x.T)),
    "t = exp(x); t, t": (_exp_twice, lambda x: (np.exp(x), np.exp(x))),
    "y = -x; y, y, y": (lambda x: (lambda y: (y, y, y))(-x), lambda x: (-x, -x, -x)),
    "t and a view of t": (lambda x: (lambda t: (t, t.reshape(-1)))(x + 1), lambda x: (x + 1, (x + 1).reshape(-1))),
    "sum twice": (lambda x: (mnp.sum(x), mnp.sum(x)), lambda x: (np.sum(x, dtype=np.float64),) * 2),
    "the input twice": (lambda x: (x, x), lambda x: (x, x)),
}


@pytest.mark.parametrize("opt_level, fusion", [(0, False), (2, False), (2, True)])
@pytest.mark.parametrize("name", REPEATED_RESULTS)
@pytest.mark.parametrize("shape", [(2, 3), (300, 1000)], ids=str)
def test_repeated_results_are_separate_correct_arrays(name, opt_level, fusion, shape):
    """A value returned twice comes back as two separate arrays (it segfaulted in
    buffer-results-to-out-params), none of them sharing memory with the input.
    f32 within 1e-6 relative; the sum within 1e-6 of sum(|x|) (lanes reassociate it)."""
    fn, np_fn = REPEATED_RESULTS[name]
    x = np.random.default_rng(3).standard_normal(shape).astype(np.float32)
    got = mlc.jit(fn, opt_level=opt_level, fusion=fusion)(x)
    want = np_fn(x)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-6 * np.abs(x).sum() if g.ndim == 0 else 0)
    arrays = list(got) + [x]
    for i, a in enumerate(arrays):
        for b in arrays[i + 1:]:
            assert not np.shares_memory(a, b)


def test_import_mlc_exposes_the_jax_shaped_namespaces():
    """`import mlc` alone gives mlc.numpy, mlc.lax, mlc.nn, mlc.tree_util (as `import jax;
    jax.lax.fori_loop` works); a fresh interpreter, so no other test's import helps."""
    import subprocess
    import sys
    code = ("import mlc; print(mlc.lax.fori_loop.__name__, mlc.numpy.sum.__name__, mlc.nn.relu.__name__, "
            "mlc.tree_util.tree_map.__name__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["fori_loop", "sum", "relu", "tree_map"]


def test_varargs_and_kwargs_functions():
    x = np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(mlc.jit(lambda *a: a[0] + a[1])(x, x), 2 * x)
    np.testing.assert_array_equal(mlc.jit(lambda v, **kw: v * kw["s"])(x, s=x), x * x)
    np.testing.assert_array_equal(mlc.jit(lambda v, *rest, scale=2.0: (v + sum(rest)) * scale)(x, x, x), 6 * x)


@pytest.mark.parametrize("nums, names, message", [
    ((2,), (), "static_argnums 2 is out of range: it takes 2 named positional argument"),
    ((-3,), (), "static_argnums -3 is out of range"),
    ((), ("m",), "static_argnames 'm' is not a parameter"),
])
def test_static_arguments_out_of_range_are_errors(nums, names, message):
    def f(x, n):
        return x * n
    with pytest.raises(ValueError, match=message):
        mlc.jit(f, static_argnums=nums, static_argnames=names)


def test_negative_static_argnums_count_from_the_end():
    def f(x, n):
        return x * n
    np.testing.assert_array_equal(mlc.jit(f, static_argnums=-1)(np.ones(2, np.float32), 3), [3, 3])


def test_jit_inside_jit_is_traced_inline():
    inner = mlc.jit(lambda v: v * 10)
    outer = mlc.jit(lambda v: inner(v) + 1)
    np.testing.assert_array_equal(outer(np.ones(2, np.float32)), [11, 11])
    assert inner.cache_info().misses == 0


def test_leaked_tracer_is_an_unexpected_tracer_error():
    leaked = []

    def f(x):
        leaked.append(x * 2)
        return x + 1

    mlc.jit(f)(np.ones(2, np.float32))
    with pytest.raises(mlc.UnexpectedTracerError, match="escaped the function being traced"):
        mlc.jit(lambda y: y + leaked[0])(np.ones(2, np.float32))
    with pytest.raises(mlc.TracingError):  # outside any jit
        leaked[0] + 1


@pytest.mark.parametrize("use", [lambda t: t.item(), lambda t: t.tolist(), lambda t: complex(t)])
def test_python_values_of_tracers_are_concretization_errors(use):
    with pytest.raises(mlc.ConcretizationError, match="unknown while tracing"):
        mlc.jit(lambda t: use(t))(np.ones(1, np.float32))


def test_deep_or_cyclic_pytrees_are_clear_errors():
    deep = np.ones(2)
    for _ in range(5000):
        deep = [deep]
    with pytest.raises(ValueError, match="nested deeper than"):
        mlc.jit(lambda a: a)(deep)
    cyclic: list = []
    cyclic.append(cyclic)
    with pytest.raises(ValueError, match="nested deeper than"):
        mlc.tree_util.tree_leaves(cyclic)


def test_jit_of_an_object_with_its_own_fun_attribute():
    """update_wrapper copied the wrapped callable's __dict__ over the Jitted, so jit of a
    callable with a `fun` attribute (another transformation's wrapper) compiled that
    attribute instead of the callable."""
    def plus_one(x):
        return x + 1.0
    plus_one.fun = lambda x: x * 100.0    # not what calling it does
    x = np.arange(3, dtype=np.float32)
    np.testing.assert_array_equal(mlc.jit(plus_one)(x), x + 1.0)
    np.testing.assert_array_equal(mlc.jit(mlc.jit(lambda v: v * 2.0))(x), x * 2.0)


def test_jit_of_callable_objects_and_partials():
    """A callable object (a model with its weights) and a functools.partial have no
    __name__; jit names them after their class / function, as jax.jit accepts them."""
    import functools

    class Dense:
        def __init__(self, w):
            self.w = w

        def __call__(self, x):
            return x @ self.w

    rng = np.random.default_rng(7)
    w, x = rng.standard_normal((4, 3)).astype(np.float32), rng.standard_normal((2, 4)).astype(np.float32)
    jitted = mlc.jit(Dense(w))
    np.testing.assert_allclose(jitted(x), x @ w, rtol=1e-5, atol=1e-6)
    assert jitted.__name__ == "Dense"
    scaled = mlc.jit(functools.partial(lambda a, v: a * v, 3.0))
    np.testing.assert_array_equal(scaled(x), 3.0 * x)
    assert scaled.__name__ == "partial(<lambda>)"


def test_fast_path_with_default_parameters():
    """A function with defaulted parameters (nn.layer_norm's scale, bias, axis, epsilon) takes
    the cached-call fast path when called with positional arrays; calls of another arity or
    with a keyword are their own signatures, and the defaults stay constants."""
    rng = np.random.default_rng(11)
    x = rng.standard_normal((3, 5)).astype(np.float32)

    def scaled(x, k=2.0, *, shift=0.5):
        return x * k + shift

    f = mlc.jit(scaled)
    np.testing.assert_allclose(f(x), x * 2 + 0.5, rtol=1e-6)
    np.testing.assert_allclose(f(x), x * 2 + 0.5, rtol=1e-6)
    np.testing.assert_allclose(f(x, np.float32(3.0)), x * 3 + 0.5, rtol=1e-6)
    np.testing.assert_allclose(f(x, shift=1.0), x * 2 + 1.0, rtol=1e-6)
    np.testing.assert_allclose(f(x), x * 2 + 0.5, rtol=1e-6)
    assert len(f._fast) == 1 and f._misses == 3, (f._fast, f._misses)


@pytest.mark.parametrize("nested", [False, True])
def test_a_cache_hit_still_checks_each_arguments_layout_and_type(nested):
    """After a hit the executable trusts the key for shapes and dtypes, not for the rest: a
    strided view, a Python scalar and an ndarray subclass of the compiled signature are each
    read correctly (positional arrays take the fast path; nested ones the pytree path)."""
    class Tagged(np.ndarray):
        pass

    rng = np.random.default_rng(11)
    x = rng.standard_normal((6, 5)).astype(np.float32)
    s = np.float32(0.5)
    if nested:
        f = mlc.jit(lambda t: t[0] * t[1] + 1.0)
        call = lambda a, b: f((a, b))
    else:
        f = mlc.jit(lambda a, b: a * b + 1.0)
        call = f
    np.testing.assert_allclose(call(x, s), x * s + 1, rtol=1e-6)  # the compile
    strided = rng.standard_normal((12, 10)).astype(np.float32)[::2, ::2]
    assert not strided.flags.c_contiguous
    np.testing.assert_allclose(call(strided, s), strided * s + 1, rtol=1e-6)
    np.testing.assert_allclose(call(x.view(Tagged), s), x * s + 1, rtol=1e-6)
    np.testing.assert_allclose(call(x.T.copy().T, np.float32(2)), x * 2 + 1, rtol=1e-6)  # F order
    assert f.cache_info().misses == 1
