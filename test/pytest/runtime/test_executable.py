"""mlc.compile and Executable: signatures, argument checking, results, thread safety."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest
from conftest import run_threads

import mlc

MODEL_FN = """
func.func @main(%x: tensor<8xf32>, %y: tensor<8xf32>, %z: tensor<8xf32>) -> tensor<f32> {
  %0 = "hlo.multiply"(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %1 = "hlo.add"(%0, %z) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
  %c = "hlo.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %2 = "hlo.reduce"(%1, %c) {dimensions = array<i64: 0>, kind = "add"} : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
  return %2 : tensor<f32>
}
"""

TWO_RESULTS = """
func.func @main(%x: tensor<2x3xf64>) -> (tensor<3x2xf64>, tensor<2x3xf64>) {
  %0 = "hlo.transpose"(%x) {permutation = array<i64: 1, 0>} : (tensor<2x3xf64>) -> tensor<3x2xf64>
  %1 = "hlo.negate"(%x) : (tensor<2x3xf64>) -> tensor<2x3xf64>
  return %0, %1 : tensor<3x2xf64>, tensor<2x3xf64>
}
"""


@pytest.fixture(scope="module")
def model_fn():
    return mlc.compile(MODEL_FN)


def test_model_fn_matches_numpy(model_fn):
    rng = np.random.default_rng(0)
    x, y, z = (rng.standard_normal(8).astype(np.float32) for _ in range(3))
    got = model_fn(x, y, z)
    assert got.shape == () and got.dtype == np.float32
    np.testing.assert_allclose(got, np.sum(x * y + z), rtol=1e-6, atol=1e-6)


def test_signature_and_specs(model_fn):
    assert model_fn.signature == "main(float32[8], float32[8], float32[8]) -> (float32[])"
    assert [s.shape for s in model_fn.inputs] == [(8,)] * 3


def test_several_results_come_back_as_a_tuple():
    x = np.arange(6, dtype=np.float64).reshape(2, 3)
    t, n = mlc.compile(TWO_RESULTS)(x)
    np.testing.assert_array_equal(t, x.T)
    np.testing.assert_array_equal(n, -x)


def test_wrong_argument_count_is_a_type_error(model_fn):
    with pytest.raises(TypeError, match=r"takes 3 arguments, got 2"):
        model_fn(np.zeros(8, np.float32), np.zeros(8, np.float32))


def test_wrong_dtype_is_a_type_error(model_fn):
    with pytest.raises(TypeError, match=r"argument 1 .* must have dtype float32, got float64"):
        model_fn(np.zeros(8, np.float32), np.zeros(8), np.zeros(8, np.float32))


def test_wrong_shape_is_a_value_error(model_fn):
    with pytest.raises(ValueError, match=r"argument 2 .* must have shape \(8,\), got \(9,\)"):
        model_fn(np.zeros(8, np.float32), np.zeros(8, np.float32), np.zeros(9, np.float32))


def test_not_an_array_is_a_type_error(model_fn):
    with pytest.raises(TypeError, match=r"must be a numpy array, got list"):
        model_fn([0.0] * 8, np.zeros(8, np.float32), np.zeros(8, np.float32))


def test_non_contiguous_inputs_are_read_correctly(model_fn):
    x = np.arange(16, dtype=np.float32)[::2]
    assert not x.flags.c_contiguous
    np.testing.assert_allclose(model_fn(x, x, x), np.sum(x * x + x))


def test_inputs_are_never_written():
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.exponential"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}"""
    x = np.ones(4, np.float32)
    mlc.compile(text)(x)
    np.testing.assert_array_equal(x, np.ones(4, np.float32))


def test_python_scalar_for_a_0d_argument():
    text = """
func.func @main(%x: tensor<f64>) -> tensor<f64> {
  %0 = "hlo.add"(%x, %x) : (tensor<f64>, tensor<f64>) -> tensor<f64>
  return %0 : tensor<f64>
}"""
    assert mlc.compile(text)(1.5) == 3.0


def test_results_are_fresh_arrays(model_fn):
    x = np.ones(8, np.float32)
    first, second = model_fn(x, x, x), model_fn(x, x, x)
    assert first is not second and first == second == 16.0


def test_concurrent_calls_from_threads(model_fn):
    rng = np.random.default_rng(1)
    inputs = [tuple(rng.standard_normal(8).astype(np.float32) for _ in range(3)) for _ in range(8)]
    expected = [np.sum(x * y + z) for x, y, z in inputs]
    errors = []

    def worker(k):
        for _ in range(200):
            got = model_fn(*inputs[k])
            if not np.allclose(got, expected[k], rtol=1e-5, atol=1e-5):
                errors.append((k, got))

    run_threads(worker, 8)
    assert errors == []


def test_malformed_text_is_a_compile_error_with_location():
    with pytest.raises(mlc.CompileError, match=r"<input>:2:\d+: error:"):
        mlc.compile("func.func @main() {\n  %0 = what\n}")


def test_invalid_op_is_a_compile_error_naming_the_op():
    text = """
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.transpose"(%x) {permutation = array<i64: 3>} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}"""
    with pytest.raises(mlc.CompileError, match=r"<input>:3:8: error: 'hlo.transpose' op permutation"):
        mlc.compile(text)


def test_missing_entry_names_the_functions(model_fn):
    with pytest.raises(mlc.CompileError, match=r"no function @nope in the module \(functions: main\)"):
        mlc.compile(MODEL_FN, entry="nope")


def test_dynamic_shapes_are_rejected_clearly():
    text = """
func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
  return %x : tensor<?xf32>
}"""
    with pytest.raises(mlc.CompileError, match=r"argument 0 of @main must be a statically shaped tensor"):
        mlc.compile(text)


def test_bad_opt_level():
    with pytest.raises(ValueError, match="opt_level must be 0..3"):
        mlc.compile(MODEL_FN, opt_level=7)


def test_missing_runtime_package_is_a_clear_error():
    from mlc.runtime.libraries import MissingRuntimeError, _distribution_file
    with pytest.raises(MissingRuntimeError, match=r"the package 'no-such-dist' is not installed"):
        _distribution_file("no-such-dist", "lib/libfoo.so")


def test_missing_file_in_an_installed_package_is_a_clear_error():
    from mlc.runtime.libraries import MissingRuntimeError, runtime_library
    with pytest.raises(MissingRuntimeError, match=r"'mlir/lib/libno_such_library.so' is missing"):
        runtime_library("no_such_library")


def test_a_declaration_as_entry_is_a_compile_error():
    text = "func.func private @main(%x: tensor<4xf32>) -> tensor<4xf32>"
    with pytest.raises(mlc.CompileError, match=r"model.mlir:1:1: error: @main is a declaration \(no body\)"):
        mlc.compile(text, source_name="model.mlir")


@pytest.mark.parametrize("element", ["f8E4M3FN", "tf32", "i128", "i4", "index"])
def test_unsupported_element_types_are_compile_errors(element):
    text = (f"func.func @main(%x: tensor<4x{element}>) -> tensor<4x{element}> {{\n"
            f"  return %x : tensor<4x{element}>\n}}")
    with pytest.raises(mlc.CompileError, match=f"argument 0 of @main: element type {element} has no numpy equivalent"):
        mlc.compile(text)


_RUNNER_UTILS_CHILD = '''
import numpy as np
from mlir import ir, passmanager
import mlc, mlc.nn as nn
from mlc import context
from mlc.runtime.executable import Executable
from mlc.runtime.memref import TensorSpec

def libmlir_loaded():
    return any("libMLIR.so" in line for line in open("/proc/self/maps"))

x = np.random.default_rng(0).standard_normal((8, 16)).astype(np.float32)
np.testing.assert_allclose(mlc.jit(nn.softmax)(x).sum(axis=-1), np.ones(8), rtol=1e-5)
assert not libmlir_loaded(), "a softmax loaded MLIR's runner utilities"
COPY = """
func.func @f(%x: memref<4x6xf32>, %out: memref<2x3xf32>) attributes {llvm.emit_c_interface} {
  %v = memref.subview %x[0, 1] [2, 3] [2, 2] : memref<4x6xf32> to memref<2x3xf32, strided<[12, 2], offset: 1>>
  memref.copy %v, %out : memref<2x3xf32, strided<[12, 2], offset: 1>> to memref<2x3xf32>
  return
}
"""
with context.make_context(), ir.Location.unknown():
    m = ir.Module.parse(COPY)
    passmanager.PassManager.parse("builtin.module(expand-strided-metadata,finalize-memref-to-llvm,"
                                  "convert-to-llvm,reconcile-unrealized-casts)").run(m.operation)
    assert "memrefCopy" in str(m)
    exe = Executable.from_llvm(m, "f", [TensorSpec((4, 6), np.dtype(np.float32))],
                               [TensorSpec((2, 3), np.dtype(np.float32))])
    y = np.arange(24, dtype=np.float32).reshape(4, 6)
    np.testing.assert_array_equal(exe(y), y[0:4:2, 1:7:2])
assert libmlir_loaded()
print("ok")
'''


def test_runner_utilities_are_loaded_only_for_code_that_calls_them():
    """MLIR's C runner utilities pull in libMLIR.so (~35 ms, and its memory) when loaded: a
    compiled softmax does not load them; code calling memrefCopy (a generic strided copy)
    fails its first link, gets them loaded and links again. In a child: this process may
    have loaded them already."""
    done = subprocess.run([sys.executable, "-c", _RUNNER_UTILS_CHILD], capture_output=True, text=True,
                          timeout=300, env={**os.environ, "MLC_CACHE": "0"})
    assert done.returncode == 0 and done.stdout.strip().endswith("ok"), done.stderr[-1500:]


def _many_arrays(n: int):
    """A function of n arrays returning n: more pointers than a direct call may take when
    2n + 1 passes the limit."""
    xs = [np.arange(i, i + 3, dtype=np.float32) for i in range(n)]
    return (lambda xs, s: [x * s + 1.0 for x in xs]), (xs, np.float32(2))


def _check_many(out, xs):
    assert len(out) == len(xs)
    for o, x in zip(out, xs):
        np.testing.assert_array_equal(o, x * np.float32(2) + np.float32(1))


def test_more_arrays_than_a_direct_call_takes():
    """513 inputs and 512 results: past ctypes' 1,024 arguments (and abi.MAX_DIRECT_ARGUMENTS),
    the entry is called through its packed interface (a table of the descriptor pointers)."""
    from mlc import abi
    fn, (xs, s) = _many_arrays(512)
    compiled = mlc.jit(fn).lower(xs, s).compile()
    assert abi.uses_packed_interface(len(compiled.executable.inputs) + len(compiled.executable.outputs))
    _check_many(compiled(xs, s), xs)
    _check_many(compiled(xs[::-1], s), xs[::-1])  # the table is reused, the pointers are new


@pytest.mark.parametrize("jit", ["orc", "execution-engine"])
def test_packed_interface_on_both_jits(jit, monkeypatch):
    """The same path with the limit lowered to 4 (3 inputs + 3 results + the scalar): MLC's
    trampoline under ORC, the engine's own packed wrapper under the ExecutionEngine."""
    from mlc import abi
    from mlc.options import CompileOptions
    monkeypatch.setattr(abi, "MAX_DIRECT_ARGUMENTS", 4)
    fn, (xs, s) = _many_arrays(3)
    f = mlc.jit(fn, options=CompileOptions(jit=jit))
    _check_many(f(xs, s), xs)
    assert len(next(iter(f._cache.values())).executable._arguments) == 1  # the table's address


@pytest.mark.parametrize("jit", ["orc", "execution-engine"])
def test_packed_interface_from_the_disk_cache(jit, tmp_path, monkeypatch):
    """A packed entry is stored with its trampoline (also the engine's object), and a later
    compile loads it."""
    from mlc import abi
    from mlc.options import CompileOptions
    from mlc.runtime import disk_cache
    monkeypatch.setattr(abi, "MAX_DIRECT_ARGUMENTS", 4)
    monkeypatch.setenv("MLC_CACHE", "1")
    monkeypatch.setenv("MLC_CACHE_DIR", str(tmp_path))
    fn, (xs, s) = _many_arrays(3)
    options = CompileOptions(jit=jit)
    first = mlc.jit(fn, options=options).lower(xs, s).compile()
    disk_cache.flush_all()
    again = mlc.jit(fn, options=options).lower(xs, s).compile()
    assert not first.cache_hit and again.cache_hit
    assert len(again.executable._arguments) == 1
    _check_many(again(xs, s), xs)


@pytest.mark.parametrize("native,jit", [(True, "orc"), (False, "orc"), (True, "execution-engine")])
def test_many_arrays_store_their_pointers_natively_or_not(native, jit, monkeypatch):
    """From memref.NATIVE_POINTERS_MIN arrays on, a call stores the data pointers with the
    native helper (signature_check.py); without it (numpy's layout not confirmed) the Python stores. Both
    see new arrays at every call: other inputs, a non-contiguous one (copied), fresh results;
    also through the ExecutionEngine's packed wrapper (its table of cells, with the limit
    lowered so that the call goes through it)."""
    from mlc import abi
    from mlc.options import CompileOptions
    from mlc.runtime import executable, memref
    if not native:
        monkeypatch.setattr(executable, "argument_check", lambda: None)
    if jit == "execution-engine":
        monkeypatch.setattr(abi, "MAX_DIRECT_ARGUMENTS", 4)
    n = memref.NATIVE_POINTERS_MIN
    fn, (xs, s) = _many_arrays(n)
    compiled = mlc.jit(fn, options=CompileOptions(jit=jit)).lower(xs, s).compile()
    assert compiled.executable._stores_natively == native
    rng = np.random.default_rng(7)
    for _ in range(3):
        ys = [rng.standard_normal(3).astype(np.float32) for _ in range(n)]
        ys[1] = rng.standard_normal(6).astype(np.float32)[::2]  # strided: copied to a contiguous one
        first = compiled(ys, s)
        _check_many(first, ys)
        _check_many(compiled(ys[::-1], s), ys[::-1])
        _check_many(first, ys)  # the earlier results are theirs, not the next call's
