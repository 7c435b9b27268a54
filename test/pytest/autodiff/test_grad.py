"""The autodiff API end to end (traced, compiled, run): grad, value_and_grad, vjp, jvp,
jacfwd, jacrev, hessian, custom_vjp/custom_jvp, stop_gradient; composition with jit and
pytrees; the errors for bad input. The per-op rules are in test_grad_rules.py."""

from __future__ import annotations

import numpy as np
import pytest

import mlc
import mlc.lax as lax
import mlc.nn as nn
import mlc.numpy as mnp

RNG = np.random.default_rng(7)


def r(*shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


def mlp_loss(params, x, y):
    h = nn.relu(x @ params["w1"] + params["b1"])
    out = h @ params["w2"] + params["b2"]
    return mnp.mean((out - y) ** 2)


def numpy_mlp_grads(params, x, y):
    pre = x @ params["w1"] + params["b1"]
    h = np.maximum(pre, 0)
    out = h @ params["w2"] + params["b2"]
    d_out = 2 * (out - y) / out.size
    d_h = d_out @ params["w2"].T * (pre > 0)
    return {"w1": x.T @ d_h, "b1": d_h.sum(0), "w2": h.T @ d_out, "b2": d_out.sum(0)}


def test_jit_value_and_grad_of_mlp_matches_numpy_and_compiles_once():
    params = {"w1": r(5, 8), "b1": r(8), "w2": r(8, 3), "b2": r(3)}
    x, y = r(4, 5), r(4, 3)
    step = mlc.jit(mlc.value_and_grad(mlp_loss))
    value, grads = step(params, x, y)
    want = numpy_mlp_grads(params, x, y)
    for k in params:
        np.testing.assert_allclose(grads[k], want[k], rtol=1e-10, atol=1e-12)
    step({k: v + 1 for k, v in params.items()}, x, y)
    assert step.cache_info().misses == 1 and step.cache_info().hits == 1


def test_grad_outside_jit_compiles_once_per_signature():
    g = mlc.grad(lambda x: mnp.sum(mnp.sin(x)))
    np.testing.assert_allclose(g(np.arange(3.0)), np.cos(np.arange(3.0)))
    np.testing.assert_allclose(g(np.ones(3)), np.cos(np.ones(3)))
    assert g.cache_info()[1] == 1


def test_grad_of_jit_and_jit_of_grad_agree():
    f = mlc.jit(lambda x: mnp.sum(mnp.tanh(x) ** 2))
    x = r(6)
    a = mlc.grad(f)(x)
    b = mlc.jit(mlc.grad(f))(x)
    np.testing.assert_allclose(a, b)
    np.testing.assert_allclose(a, 2 * np.tanh(x) * (1 - np.tanh(x) ** 2), rtol=1e-12)


def test_grad_of_grad():
    f = lambda x: mnp.sin(x) * x ** 3  # noqa: E731
    x = np.float64(0.7)
    d2 = mlc.grad(mlc.grad(f))(x)
    want = -np.sin(x) * x ** 3 + 6 * np.cos(x) * x ** 2 + 6 * x * np.sin(x)
    np.testing.assert_allclose(d2, want, rtol=1e-12)


def test_argnums_tuple_has_aux_and_nested_pytrees():
    def loss(tree, scale):
        a, (b, c) = tree["a"], tree["bc"]
        value = mnp.sum(a * b) * scale + mnp.sum(c ** 2)
        return value, {"norm": mnp.sum(a ** 2)}
    tree = {"a": r(3), "bc": (r(3), r(2, 2))}
    (value, aux), (g_tree, g_scale) = mlc.value_and_grad(loss, argnums=(0, 1), has_aux=True)(tree, np.float64(2.0))
    np.testing.assert_allclose(g_tree["a"], tree["bc"][0] * 2)
    np.testing.assert_allclose(g_tree["bc"][0], tree["a"] * 2)
    np.testing.assert_allclose(g_tree["bc"][1], 2 * tree["bc"][1])
    np.testing.assert_allclose(g_scale, np.sum(tree["a"] * tree["bc"][0]))
    np.testing.assert_allclose(aux["norm"], np.sum(tree["a"] ** 2))
    g, aux2 = mlc.grad(loss, has_aux=True)(tree, 2.0)
    np.testing.assert_allclose(g["a"], g_tree["a"])


def test_closure_and_same_array_twice():
    def outer(x):
        # d/dw (w * x) at w = x is x: the closed-over x is a constant.
        return mlc.grad(lambda w: mnp.sum(w * x))(x)
    x = r(3)
    np.testing.assert_allclose(mlc.jit(outer)(x), x)
    ga, gb = mlc.grad(lambda a, b: mnp.sum(a * b * b), argnums=(0, 1))(x, x)
    np.testing.assert_allclose(ga, x * x)
    np.testing.assert_allclose(gb, 2 * x * x)


def test_vjp_and_jvp():
    f = lambda x, y: (mnp.sin(x) * y, mnp.sum(x))  # noqa: E731
    x, y = r(3), r(3)
    out, f_vjp = mlc.vjp(f, x, y)
    np.testing.assert_allclose(out[0], np.sin(x) * y)
    ct = (np.ones(3), np.float64(2.0))
    gx, gy = f_vjp(ct)
    np.testing.assert_allclose(gx, np.cos(x) * y + 2)
    np.testing.assert_allclose(gy, np.sin(x))
    (o, t) = mlc.jvp(f, (x, y), (np.ones(3), np.zeros(3)))
    np.testing.assert_allclose(t[0], np.cos(x) * y)
    np.testing.assert_allclose(t[1], 3.0)

    @mlc.jit
    def inside(x, y):
        _, pullback = mlc.vjp(lambda a: mnp.sin(a) * y, x)
        return pullback(mnp.ones_like(x))[0]
    np.testing.assert_allclose(inside(x, y), np.cos(x) * y)


def test_jacobians_and_hessian():
    f = lambda x: mnp.stack([x[0] * x[1], mnp.sin(x[2]), x[0] ** 2])  # noqa: E731
    x = np.array([1.0, 2.0, 0.5])
    want = np.array([[2.0, 1.0, 0.0], [0.0, 0.0, np.cos(0.5)], [2.0, 0.0, 0.0]])
    np.testing.assert_allclose(mlc.jacfwd(f)(x), want, rtol=1e-12)
    np.testing.assert_allclose(mlc.jacrev(f)(x), want, rtol=1e-12)
    h = mlc.hessian(lambda x: mnp.sum(x ** 3) + x[0] * x[1])(x)
    np.testing.assert_allclose(h, np.diag(6 * x) + np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]]), rtol=1e-12)


def _numeric_jacobian(f, x, eps=1e-6):
    """Central differences in float64: d f(x) / d x with shape f(x).shape + x.shape."""
    out = np.asarray(f(x))
    jac = np.zeros(out.shape + x.shape)
    for k in np.ndindex(*x.shape):
        step = np.zeros_like(x)
        step[k] = eps
        jac[(...,) + k] = (np.asarray(f(x + step)) - np.asarray(f(x - step))) / (2 * eps)
    return jac


@pytest.mark.parametrize("mode", ["fwd", "rev"])
def test_jacobian_of_pytrees_argnums_and_aux_matches_central_differences(mode):
    """Pytree inputs and outputs, a tuple of argnums, has_aux, matrix-shaped leaves: every
    block d out_o / d in_i against float64 central differences of the same numpy formula."""
    jac = mlc.jacfwd if mode == "fwd" else mlc.jacrev
    rng = np.random.default_rng(11)
    w, b, x = rng.standard_normal((3, 4)), rng.standard_normal(4), rng.standard_normal((2, 3))

    def f(params, x, np_=mnp):
        h = np_.tanh(x @ params["w"] + params["b"])
        return {"h": h, "s": np_.sum(h ** 2, axis=0)}, np_.max(h)

    got, aux = jac(f, argnums=(0, 1), has_aux=True)({"w": w, "b": b}, x)  # {out: (d/dparams, d/dx)}
    np.testing.assert_allclose(aux, np.max(np.tanh(x @ w + b)), rtol=1e-12)
    for out in ("h", "s"):
        def out_of(w_=w, b_=b, x_=x, out=out):
            return f({"w": w_, "b": b_}, x_, np_=np)[0][out]
        d_params, d_x = got[out]
        np.testing.assert_allclose(d_params["w"], _numeric_jacobian(lambda v: out_of(w_=v), w), atol=1e-7)
        np.testing.assert_allclose(d_params["b"], _numeric_jacobian(lambda v: out_of(b_=v), b), atol=1e-7)
        np.testing.assert_allclose(d_x, _numeric_jacobian(lambda v: out_of(x_=v), x), atol=1e-7)


@pytest.mark.parametrize("mode", ["fwd", "rev"])
def test_jacobian_dtypes_and_empty_inputs(mode):
    """float32 in -> float32 blocks (tolerance 1e-5); a size-0 input gives empty blocks of
    shape out.shape + (0,); one vmapped derivative serves a 300-element input."""
    jac = mlc.jacfwd if mode == "fwd" else mlc.jacrev
    x = np.random.default_rng(12).standard_normal(300).astype(np.float32)
    got = jac(lambda v: mnp.sin(v) * mnp.sum(v))(x)
    assert got.dtype == np.float32 and got.shape == (300, 300)
    xd = x.astype(np.float64)
    want = np.diag(np.cos(xd)) * np.sum(xd) + np.outer(np.sin(xd), np.ones_like(xd))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-4)
    empty = jac(lambda v: mnp.stack([mnp.sum(v), 2.0 * mnp.sum(v)]))(np.zeros(0))
    assert empty.shape == (2, 0)


def test_custom_vjp_rule_is_used():
    calls = []

    @mlc.custom_vjp
    def clip_gradient(x):
        return x

    def fwd(x):
        return x, None

    def bwd(_, g):
        calls.append(1)
        return (mnp.clip(g, -1.0, 1.0),)
    clip_gradient.defvjp(fwd, bwd)
    g = mlc.grad(lambda x: mnp.sum(clip_gradient(x) * np.array([5.0, 0.5, -3.0])))(np.ones(3))
    np.testing.assert_allclose(g, [1.0, 0.5, -1.0])
    assert calls


def test_custom_vjp_with_residuals_in_jit():
    @mlc.custom_vjp
    def f(x, y):
        return mnp.sin(x) * y

    def fwd(x, y):
        return mnp.sin(x) * y, (mnp.cos(x), mnp.sin(x), y)

    def bwd(res, g):
        cos, sin, y = res
        return (10 * g * cos * y, g * sin)
    f.defvjp(fwd, bwd)
    x, y = r(4), r(4)
    gx, gy = mlc.jit(mlc.grad(lambda x, y: mnp.sum(f(x, y)), argnums=(0, 1)))(x, y)
    np.testing.assert_allclose(gx, 10 * np.cos(x) * y)
    np.testing.assert_allclose(gy, np.sin(x))


def test_custom_jvp_in_both_modes():
    @mlc.custom_jvp
    def f(x):
        return mnp.exp(x)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return f(x), 3.0 * t
    x = r(3)
    np.testing.assert_allclose(mlc.jvp(f, (x,), (np.ones(3),))[1], 3.0)
    np.testing.assert_allclose(mlc.grad(lambda x: mnp.sum(f(x)))(x), 3.0)


def test_relu_derivative_is_zero_at_zero_and_stop_gradient():
    x = np.array([-1.0, 0.0, 2.0])
    np.testing.assert_array_equal(mlc.grad(lambda x: mnp.sum(nn.relu(x)))(x), [0.0, 0.0, 1.0])
    g = mlc.grad(lambda x: mnp.sum(mlc.stop_gradient(x) * x))(x)
    np.testing.assert_array_equal(g, x)
    assert mlc.stop_gradient(x) is x


def test_control_flow_in_jit():
    def f(x):
        y = lax.cond(mnp.sum(x) > 0, lambda a: a * 2.0, lambda a: mnp.sin(a), x)
        return mnp.sum(lax.fori_loop(0, 3, lambda i, c: c * y, x))
    x = r(3)
    np.testing.assert_allclose(mlc.jit(mlc.grad(f))(x), mlc.grad(f)(x))
    # forward mode works through a data-dependent while loop
    g = lambda x: lax.while_loop(lambda c: mnp.sum(c) < 10.0, lambda c: c * 2.0, x)  # noqa: E731
    out, t = mlc.jvp(g, (np.ones(2),), (np.ones(2),))
    np.testing.assert_allclose(out, [8.0, 8.0])
    np.testing.assert_allclose(t, [8.0, 8.0])


def test_error_non_scalar_output_names_the_line():
    with pytest.raises(TypeError, match=r"test_grad.py:\d+: Gradient only defined for scalar-output "
                                        r"functions. Output had shape: \(3,\)"):
        mlc.grad(lambda x: x * 2)(np.ones(3))


def test_error_integer_argument():
    with pytest.raises(TypeError, match=r"test_grad.py:\d+: grad requires real-valued inputs .* got int32"):
        mlc.grad(lambda x: mnp.sum(x * 2.0))(np.arange(3, dtype=np.int32))


def test_error_reverse_mode_through_data_dependent_while():
    def f(x):
        return mnp.sum(lax.while_loop(lambda c: mnp.sum(c) < 10.0, lambda c: c * 2.0, x))
    with pytest.raises(mlc.DifferentiationError, match=r"test_grad.py:\d+: Reverse-mode differentiation "
                                                        r"does not work for lax.while_loop"):
        mlc.grad(f)(np.ones(2))


def test_passes_are_registered():
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "mlc.tools.mlc_opt", "--list-passes"],
                         capture_output=True, text=True, check=True).stdout
    assert "--hlo-grad" in out and "--hlo-jvp" in out


def test_hlo_grad_pass_on_text_compiles_and_runs():
    from mlc.compiler import run_passes
    from mlc.context import make_context
    from mlc.diagnostics import parse_module
    from mlc.passes import get_pass_class
    text = """func.func @f(%x: tensor<3xf32>) -> tensor<f32> {
      %e = "hlo.exponential"(%x) : (tensor<3xf32>) -> tensor<3xf32>
      %z = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
      %s = "hlo.reduce"(%e, %z) {dimensions = array<i64: 0>, kind = "add"} : (tensor<3xf32>, tensor<f32>) -> tensor<f32>
      return %s : tensor<f32>
    }"""
    module = parse_module(text, make_context())
    run_passes(module, [get_pass_class("hlo-grad")(func="f")])
    value, grad = mlc.compile(module.operation.get_asm(), entry="f_grad")(np.arange(3, dtype=np.float32), np.float32(1))
    np.testing.assert_allclose(grad, np.exp(np.arange(3, dtype=np.float32)), rtol=1e-6)


def test_second_order_through_a_loop():
    f = lambda x: mnp.sum(lax.fori_loop(0, 3, lambda i, c: mnp.sin(c) * x, x))  # noqa: E731
    x = np.array([0.3, 0.7])
    g = mlc.jit(mlc.grad(f))
    eps = 1e-5
    want = np.stack([(g(x + eps * e) - g(x - eps * e)) / (2 * eps) for e in np.eye(2)], 1)
    np.testing.assert_allclose(mlc.hessian(f)(x), want, rtol=1e-6, atol=1e-8)  # forward over reverse
    np.testing.assert_allclose(mlc.jacrev(mlc.grad(f))(x), want, rtol=1e-6, atol=1e-8)  # reverse over reverse


def test_training_example_learns(tmp_path):
    pytest.importorskip("sklearn")
    pytest.importorskip("tqdm")
    pytest.importorskip("matplotlib")
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[3] / "examples" / "train_mlp.py"
    spec = importlib.util.spec_from_file_location("train_mlp", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    history = example.main(["--epochs", "3", "--plot", str(tmp_path / "curves.png")])
    assert history["test_accuracy"][-1] > 0.85
    assert history["train_loss"][-1] < history["train_loss"][0]
    assert (tmp_path / "curves.png").stat().st_size > 0
