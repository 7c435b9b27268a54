"""StableHLO import (mlc.stablehlo): JAX-exported fixtures in both text forms against JAX's
outputs, clear errors on unsupported input, and an imported model trained under mlc.grad.

The fixtures under data/stablehlo/ come from tools/gen_stablehlo_fixtures.py (jax is not
needed to run these tests)."""

from __future__ import annotations

import glob
import os

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp
from mlc import stablehlo
from mlc.stablehlo import StableHloError

DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "stablehlo")
FIXTURES = sorted(os.path.basename(p)[:-len(".npz")] for p in glob.glob(os.path.join(DATA, "*.npz")))

# rtol = atol per float dtype: JAX (XLA's CPU code) and MLC round transcendentals and
# reductions differently; integers and booleans must match exactly.
TOLERANCE = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 2e-5, np.dtype(np.float64): 1e-10}


def _arrays(name):
    data = np.load(os.path.join(DATA, f"{name}.npz"))
    count = lambda prefix: sum(1 for k in data.files if k.startswith(prefix))  # noqa: E731
    return [data[f"in{i}"] for i in range(count("in"))], [data[f"out{i}"] for i in range(count("out"))]


# Fixtures whose results are bit manipulation (random bits, rounding to a narrower format,
# reinterpretation): they must match JAX/XLA bit for bit, floats included (NaN payloads too).
EXACT = {"reduce_precision", "reduce_precision_f16", "reduce_precision_f64", "nextafter",
         "rng_three_fry", "rng_philox", "rng_variants", "bitcast_widths", "tuples",
         "sort_two_keys", "sort_carry", "sort_three", "lexsort",
         "scatter_variadic", "scatter_out_of_bounds", "reduce_general_long"}


def _check(got, want, name, exact=False):
    got = got if isinstance(got, tuple) else (got,)
    assert len(got) == len(want), name
    for i, (g, w) in enumerate(zip(got, want)):
        g = np.asarray(g)
        assert g.dtype == w.dtype and g.shape == w.shape, (name, i, g.dtype, g.shape, w.dtype, w.shape)
        tol = TOLERANCE.get(w.dtype)
        if exact and tol is not None:
            bits = np.dtype(f"u{w.dtype.itemsize}")
            np.testing.assert_array_equal(g.view(bits), w.view(bits), err_msg=f"{name} result {i} (bits)")
        elif tol is None:
            np.testing.assert_array_equal(g, w, err_msg=f"{name} result {i}")
        else:
            np.testing.assert_allclose(g, w, rtol=tol, atol=tol, err_msg=f"{name} result {i}")


def test_corpus_size():
    assert len(FIXTURES) >= 100


@pytest.mark.parametrize("name", FIXTURES)
def test_fixture_in_both_forms(name):
    # Both forms must import to the same hlo; that hlo compiles once (load's in-process
    # cache) and each form's program must give JAX's outputs.
    inputs, outputs = _arrays(name)
    programs = {form: stablehlo.load(os.path.join(DATA, f"{name}.{form}.mlir"))
                for form in ("generic", "pretty")}
    assert programs["pretty"].plain_text == programs["generic"].plain_text
    for form, program in programs.items():
        _check(program(*inputs), outputs, f"{name} ({form} form)", exact=name in EXACT)


@pytest.mark.parametrize("name", FIXTURES)
def test_fixture_on_the_reference_interpreter(name):
    # The imported hlo, run by MLC's numpy interpreter (what `mlc-run --reference` does).
    from mlc import reference
    inputs, outputs = _arrays(name)
    with open(os.path.join(DATA, f"{name}.generic.mlir")) as f:
        module = stablehlo.to_hlo_module(f.read())
    got = reference.run(module, *inputs, entry="main")
    _check(tuple(got) if isinstance(got, (list, tuple)) else got, outputs, f"{name} (reference)",
           exact=name in EXACT)


def test_compile_accepts_stablehlo_text():
    with open(os.path.join(DATA, "softmax.pretty.mlir")) as f:
        executable = mlc.compile(f.read())
    inputs, outputs = _arrays("softmax")
    _check(executable(*inputs), outputs, "softmax")


def test_imported_model_trains_under_grad():
    forward = stablehlo.load(os.path.join(DATA, "mlp_forward.pretty.mlir"))
    params, (x,) = _arrays("mlp_forward")[0][:4], _arrays("mlp_forward")[0][4:]
    y = np.ones((x.shape[0], 2), np.float32)

    def loss(params, x, y):
        return mnp.mean((forward(*params, x) - y) ** 2)

    step = mlc.jit(mlc.value_and_grad(loss))
    losses = []
    for _ in range(4):
        value, grads = step(params, x, y)
        losses.append(float(value))
        params = [p - 0.1 * np.asarray(g) for p, g in zip(params, grads)]
    assert all(b < a for a, b in zip(losses, losses[1:])), losses


def test_imported_gradient_matches_jax():
    # MLC differentiating the imported forward pass == JAX's own exported value_and_grad.
    forward = stablehlo.load(os.path.join(DATA, "mlp_forward.generic.mlir"))
    inputs, outputs = _arrays("mlp_value_and_grad")
    loss = lambda params, x, y: mnp.mean((forward(*params, x) - y) ** 2)  # noqa: E731
    value, grads = mlc.jit(mlc.value_and_grad(loss))(inputs[:4], inputs[4], inputs[5])
    _check((value, *grads), outputs, "mlp_value_and_grad")


# -- bad input -------------------------------------------------------------------------------

_FUNC = "func.func @main({args}) -> {result} {{\n{body}\n}}\n"

BAD_INPUTS = {
    "dynamic shape": (_FUNC.format(args="%a: tensor<?xf32>", result="tensor<?xf32>",
                                   body="  %0 = stablehlo.add %a, %a : tensor<?xf32>\n  return %0 : tensor<?xf32>"),
                      "1:1", "dynamic shapes"),
    "complex": (_FUNC.format(args="%a: tensor<4xf32>", result="tensor<4xf32>",
                             body="  %0 = stablehlo.constant dense<(1.0,2.0)> : tensor<4xcomplex<f32>>\n"
                                  "  return %a : tensor<4xf32>"),
                "2:8", "complex"),
    "quantized": ('func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n'
                  '  %0 = "stablehlo.uniform_quantize"(%a) : (tensor<4xf32>) -> tensor<4x!quant.uniform<i8:f32, 1.0>>\n'
                  '  return %a : tensor<4xf32>\n}\n', "2:8", "quantized"),
    "collective": ('func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n'
                   '  %0 = "stablehlo.all_reduce"(%a) ({\n  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n'
                   '    "stablehlo.return"(%x) : (tensor<f32>) -> ()\n  }) : (tensor<4xf32>) -> tensor<4xf32>\n'
                   '  return %0 : tensor<4xf32>\n}\n', "2:8", "'stablehlo.all_reduce' with this reduction body is not supported"),
    "unsupported pretty op": (_FUNC.format(args="%a: tensor<f32>, %b: tensor<f32>, %s: tensor<1xi64>",
                                           result="tensor<3xf32>",
                                           body="  %0 = stablehlo.rng %a, %b, %s, distribution = NORMAL : "
                                                "(tensor<f32>, tensor<f32>, tensor<1xi64>) -> tensor<3xf32>\n"
                                                "  return %0 : tensor<3xf32>"),
                              "2:8", "'stablehlo.rng' is not supported"),
    "dynamic operand": (_FUNC.format(args="%a: tensor<4xf32>, %p: tensor<f32>, %lo: tensor<1xi64>",
                                     result="tensor<6xf32>",
                                     body="  %z = stablehlo.constant dense<0> : tensor<1xi64>\n"
                                          "  %0 = stablehlo.dynamic_pad %a, %p, %lo, %z, %z : (tensor<4xf32>, tensor<f32>, "
                                          "tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<6xf32>\n"
                                          "  return %0 : tensor<6xf32>"),
                        "3:8", "'stablehlo.dynamic_pad' with a edge_padding_low operand that is not a constant"),
    "tuple through while": ('func.func @main(%t: tuple<tensor<f32>>) -> tuple<tensor<f32>> {\n'
                            '  %0 = "stablehlo.while"(%t) ({\n  ^bb0(%x: tuple<tensor<f32>>):\n'
                            '    %c = stablehlo.constant dense<false> : tensor<i1>\n'
                            '    stablehlo.return %c : tensor<i1>\n  }, {\n  ^bb0(%x: tuple<tensor<f32>>):\n'
                            '    stablehlo.return %x : tuple<tensor<f32>>\n'
                            '  }) : (tuple<tensor<f32>>) -> tuple<tensor<f32>>\n'
                            '  return %0 : tuple<tensor<f32>>\n}\n', "2:8",
                            "'stablehlo.while' with tuple-typed operands or results is not supported"),
    "rng state": (_FUNC.format(args="%s: tensor<3xui64>", result="tensor<4xui32>",
                               body="  %0:2 = \"stablehlo.rng_bit_generator\"(%s) {rng_algorithm = "
                                    "#stablehlo<rng_algorithm THREE_FRY>} : (tensor<3xui64>) -> "
                                    "(tensor<3xui64>, tensor<4xui32>)\n  return %0#1 : tensor<4xui32>"),
                  "2:10", "rng_bit_generator THREE_FRY needs a u64[2] state"),
    "complex real": (_FUNC.format(args="%a: tensor<2xcomplex<f32>>", result="tensor<2xf32>",
                                  body="  %0 = stablehlo.real %a : (tensor<2xcomplex<f32>>) -> tensor<2xf32>\n"
                                       "  return %0 : tensor<2xf32>"),
                     "1:1", "complex"),
    "elided constant": (_FUNC.format(args="", result="tensor<4xf32>",
                                     body="  %0 = stablehlo.constant dense_resource<__elided__> : tensor<4xf32>\n"
                                          "  return %0 : tensor<4xf32>"),
                        "2:8", "dense_resource"),
    "token": ('func.func @main(%t: !stablehlo.token) -> !stablehlo.token {\n'
              '  return %t : !stablehlo.token\n}\n', "1:1", "token"),
    "bytecode": ("ML\xefR\x00\x01vhlo", "1:1", "bytecode"),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_unsupported_input_is_a_located_error(case):
    text, where, what = BAD_INPUTS[case]
    with pytest.raises(StableHloError) as info:
        stablehlo.to_hlo(text, "bad.mlir")
    message = str(info.value)
    assert message.startswith(f"bad.mlir:{where}: error: "), message
    assert what in message, message


def test_pretty_syntax_error_names_the_line():
    text = _FUNC.format(args="%a: tensor<4xf32>", result="tensor<4xf32>",
                        body="  %0 = stablehlo.add %a %a : tensor<4xf32>\n  return %0 : tensor<4xf32>")
    with pytest.raises(StableHloError, match=r"^bad.mlir:2:\d+: error: "):
        stablehlo.to_hlo(text, "bad.mlir")


# -- ops JAX's corpus does not exercise ------------------------------------------------------

IF_BARRIER_SHARDING = """
func.func @main(%p: tensor<i1>, %a: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = "stablehlo.if"(%p) ({
    %t = stablehlo.add %a, %a : tensor<2x3xf32>
    stablehlo.return %t : tensor<2x3xf32>
  }, {
    %f = stablehlo.negate %a : tensor<2x3xf32>
    stablehlo.return %f : tensor<2x3xf32>
  }) : (tensor<i1>) -> tensor<2x3xf32>
  %b:2 = stablehlo.optimization_barrier %0, %a : tensor<2x3xf32>, tensor<2x3xf32>
  %s = stablehlo.custom_call @Sharding(%b#0) {mhlo.sharding = "{replicated}"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %s, %b#1 : tensor<2x3xf32>, tensor<2x3xf32>
}
"""

CASE = """
func.func @main(%i: tensor<i32>, %a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %1 = "stablehlo.case"(%i) ({
    %z = stablehlo.subtract %a, %a : tensor<2x3xf32>
    stablehlo.return %z : tensor<2x3xf32>
  }, {
    %m = stablehlo.multiply %a, %a : tensor<2x3xf32>
    stablehlo.return %m : tensor<2x3xf32>
  }) : (tensor<i32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
"""

REWRITTEN_OPS = """
func.func @main(%a: tensor<2x3xf32>) -> (tensor<4x2x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = "stablehlo.broadcast"(%a) {broadcast_sizes = array<i64: 4>} : (tensor<2x3xf32>) -> tensor<4x2x3xf32>
  %shape = stablehlo.constant dense<[3, 2]> : tensor<2xi64>
  %1 = "stablehlo.dynamic_reshape"(%a, %shape) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %2 = "stablehlo.composite"(%a) {name = "my.double", decomposition = @double} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = stablehlo.imag %a : tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<4x2x3xf32>, tensor<3x2xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}
func.func private @double(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = stablehlo.add %x, %x : tensor<2x3xf32>
  %1 = stablehlo.real %0 : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
"""

_A = np.arange(6, dtype=np.float32).reshape(2, 3) - 2


@pytest.mark.parametrize("pred", [True, False])
def test_if_barrier_sharding(pred):
    program = stablehlo.load(IF_BARRIER_SHARDING)
    _check(program(np.bool_(pred), _A), (2 * _A if pred else -_A, _A), "if")


@pytest.mark.parametrize("index", [0, 1, 7, -1])
def test_case_out_of_range_runs_the_last_branch(index):
    # StableHLO's rule: an index outside [0, n) runs the last branch.
    program = stablehlo.load(CASE)
    _check(program(np.int32(index), _A), (_A - _A if index == 0 else _A * _A,), "case")


def test_legacy_dynamic_composite_real_imag():
    expected = (np.broadcast_to(_A, (4, 2, 3)), _A.reshape(3, 2), 2 * _A, np.zeros_like(_A))
    _check(stablehlo.load(REWRITTEN_OPS)(_A), expected, "rewritten ops")


GENERAL_REGIONS = """
func.func @main(%a: tensor<3x4xf32>, %b: tensor<3x4xf32>) -> (tensor<3xf32>, tensor<3x4xf32>, tensor<3xf32>, tensor<3xf32>) {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %c) across dimensions = [1] : (tensor<3x4xf32>, tensor<f32>) -> tensor<3xf32>
   reducer(%x: tensor<f32>, %y: tensor<f32>) {
    %two = stablehlo.constant dense<2.0> : tensor<f32>
    %m = stablehlo.multiply %y, %two : tensor<f32>
    %s = stablehlo.add %x, %m : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }
  %1 = "stablehlo.map"(%a, %b) ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = stablehlo.maximum %x, %y : tensor<f32>
    %s = stablehlo.add %m, %x : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) {dimensions = array<i64: 0, 1>} : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %2:2 = stablehlo.reduce(%a init: %c), (%b init: %c) across dimensions = [1] : (tensor<3x4xf32>, tensor<3x4xf32>, tensor<f32>, tensor<f32>) -> (tensor<3xf32>, tensor<3xf32>)
   reducer(%x1: tensor<f32>, %y1: tensor<f32>) (%x2: tensor<f32>, %y2: tensor<f32>) {
    %s1 = stablehlo.add %x1, %y1 : tensor<f32>
    %s2 = stablehlo.multiply %y1, %y2 : tensor<f32>
    %s3 = stablehlo.add %x2, %s2 : tensor<f32>
    stablehlo.return %s1, %s3 : tensor<f32>, tensor<f32>
  }
  return %0, %1, %2#0, %2#1 : tensor<3xf32>, tensor<3x4xf32>, tensor<3xf32>, tensor<3xf32>
}
"""


def test_general_elementwise_regions():
    # reduce bodies that are not one binary op (and map bodies) run elementwise on whole tensors.
    a = np.random.default_rng(0).normal(size=(3, 4)).astype(np.float32)
    b = a[::-1].copy()
    expected = (2 * a.sum(1), np.maximum(a, b) + a, a.sum(1), (a * b).sum(1))
    _check(stablehlo.load(GENERAL_REGIONS)(a, b), expected, "general regions")


def test_general_region_with_a_non_elementwise_op_is_rejected():
    text = GENERAL_REGIONS.replace("%m = stablehlo.multiply %y, %two : tensor<f32>",
                                   "%m = stablehlo.dot_general %y, %two, contracting_dims = [] x [] : "
                                   "(tensor<f32>, tensor<f32>) -> tensor<f32>")
    with pytest.raises(StableHloError, match=r"^<input>:7:\d+: error: 'stablehlo.dot_general' in the "
                                             r"region of 'stablehlo.reduce': only elementwise"):
        stablehlo.to_hlo(text)


BATCH_NORM = """
func.func @main(%x: tensor<4x3xf32>, %scale: tensor<3xf32>, %offset: tensor<3xf32>, %mean: tensor<3xf32>, %var: tensor<3xf32>) -> (tensor<4x3xf32>, tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>) {
  %0 = "stablehlo.batch_norm_inference"(%x, %scale, %offset, %mean, %var) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<4x3xf32>
  %1:3 = "stablehlo.batch_norm_training"(%x, %scale, %offset) {epsilon = 1.0e-3 : f32, feature_index = 1 : i64} : (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>)
  return %0, %1#0, %1#1, %1#2 : tensor<4x3xf32>, tensor<4x3xf32>, tensor<3xf32>, tensor<3xf32>
}
"""


def test_batch_norm_decompositions():
    rng = np.random.default_rng(1)
    x, scale, offset, mean = (rng.normal(size=s).astype(np.float32) for s in ((4, 3), 3, 3, 3))
    var = rng.uniform(0.5, 2.0, 3).astype(np.float32)
    norm = lambda m, v: (x - m) / np.sqrt(v + 1e-3) * scale + offset  # noqa: E731
    expected = (norm(mean, var), norm(x.mean(0), x.var(0)), x.mean(0), x.var(0))
    _check(stablehlo.load(BATCH_NORM)(x, scale, offset, mean, var), expected, "batch_norm")


def test_pass_converts_a_module_parsed_with_unregistered_dialects():
    from mlir import ir

    from mlc.compiler import run_passes
    from mlc.context import make_context
    from mlc.passes import get_pass_class
    context = make_context()
    context.allow_unregistered_dialects = True
    with open(os.path.join(DATA, "argmax.generic.mlir")) as f, context:
        module = ir.Module.parse(f.read())
    run_passes(module, [get_pass_class("stablehlo-to-hlo")()])
    text = str(module)
    assert '"hlo.argmax"' in text and "stablehlo" not in text and "func.call" not in text


GENERAL_REDUCE_WINDOW = """
func.func @main(%a: tensor<5x6xf32>) -> tensor<3x3xf32> {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = "stablehlo.reduce_window"(%a, %c) <{window_dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 2>, window_dilations = array<i64: 1, 1>, padding = dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %m = stablehlo.multiply %y, %y : tensor<f32>
    %s = stablehlo.add %x, %m : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }) : (tensor<5x6xf32>, tensor<f32>) -> tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
}
"""


def test_general_reduce_window_region():
    a = np.random.default_rng(0).normal(size=(5, 6)).astype(np.float32)
    p = np.pad(a, ((0, 1), (1, 0)))  # padded with the init value, 0
    want = np.array([[(p[2 * i:2 * i + 2, 2 * j:2 * j + 3] ** 2).sum() for j in range(3)]
                     for i in range(3)], np.float32)
    _check(stablehlo.load(GENERAL_REDUCE_WINDOW)(a), (want,), "reduce_window")


def test_pretty_composite_inlines_its_decomposition():
    text = """func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.composite "my.square" %a {composite_attributes = {k = 1 : i64}, decomposition = @sq} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}
func.func private @sq(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = stablehlo.multiply %x, %x : tensor<3xf32>
  return %0 : tensor<3xf32>
}"""
    hlo_text = stablehlo.to_hlo(text)
    assert '"hlo.multiply"(%arg0, %arg0)' in hlo_text and "@sq" not in hlo_text


# -- the tools on StableHLO files --------------------------------------------------------------


def test_mlc_run_reference_imports_stablehlo(capsys):
    # --reference (the numpy interpreter) on a StableHLO file: imported first, like the
    # compiled path.
    from mlc.tools import mlc_run
    inputs, outputs = _arrays("cholesky")
    path = os.path.join(DATA, "cholesky.pretty.mlir")
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        np.save(os.path.join(tmp, "a.npy"), inputs[0])
        np.savez(os.path.join(tmp, "want.npz"), outputs[0])
        code = mlc_run.main([path, "--reference", "--input", os.path.join(tmp, "a.npy"),
                             "--check-against", os.path.join(tmp, "want.npz")])
    out = capsys.readouterr()
    assert code == 0, out.err
    assert "all 1 results match" in out.out


def test_mlc_opt_emit_library_imports_stablehlo(tmp_path, capsys):
    from mlc.tools import mlc_opt
    library = tmp_path / "softmax.so"
    code = mlc_opt.main([os.path.join(DATA, "softmax.generic.mlir"), "--emit=library", "-o", str(library)])
    assert code == 0, capsys.readouterr().err
    assert library.exists() and (tmp_path / "softmax_generic.h").exists()


def test_grad_through_imported_cholesky():
    # The decompositions are ordinary hlo (loops included): mlc.grad differentiates them.
    chol = stablehlo.load(os.path.join(DATA, "cholesky.generic.mlir"))
    (a,), _ = _arrays("cholesky")
    loss = lambda a: mnp.sum(chol(a) ** 2)  # noqa: E731 - sum L^2 = trace(A): dA = I
    grad = np.asarray(mlc.jit(mlc.grad(loss))(a))
    want = np.broadcast_to(np.eye(a.shape[-1], dtype=np.float32), a.shape)
    # Only the lower triangle is read: the gradient of the symmetric input lands there.
    np.testing.assert_allclose(np.tril(grad) + np.triu(grad, 1).transpose(0, 2, 1),
                               want, rtol=1e-4, atol=1e-4)
