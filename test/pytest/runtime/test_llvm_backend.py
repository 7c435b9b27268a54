"""runtime/llvm_backend.py: LLVM IR -> object code -> code in memory through LLVM's C API,
checked on hand-written LLVM IR and, for whole programs, against MLIR's ExecutionEngine
(CompileOptions(jit="execution-engine"), LLVM's own -O2 pipeline) as the oracle."""

from __future__ import annotations

import ctypes
import subprocess

import numpy as np
import pytest

import mlc
import mlc.lax as lax
import mlc.nn as mnn
import mlc.numpy as mnp
from mlc.options import CompileOptions
from mlc.codegen import target
from mlc.runtime import llvm_backend
from mlc.runtime.libraries import llvm_tool
from mlc.runtime.llvm_backend import JitLinked, LLVMError, object_code

ADD_ONE = """
define i32 @add_one(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}
"""


@pytest.mark.parametrize("opt_level", sorted(llvm_backend.LLVM_PIPELINES))
def test_every_pipeline_links_and_runs(opt_level):
    code = object_code(ADD_ONE, opt_level)
    assert code[:4] == b"\x7fELF"
    linked = JitLinked(code)
    add_one = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32)(linked.address("add_one"))
    assert add_one(41) == 42 and add_one(-1) == 0


def test_a_named_cpu_compiles_for_that_cpu(tmp_path):
    """The export's portable level: an x86-64-v2 object has no AVX instructions, whatever the host."""
    vector = """
    define void @scale(ptr %p) {
      %v = load <8 x float>, ptr %p, align 4
      %w = fmul <8 x float> %v, splat (float 2.0)
      store <8 x float> %w, ptr %p, align 4
      ret void
    }
    """
    import platform
    if platform.machine() not in ("x86_64", "AMD64"):
        pytest.skip("x86 CPU names")
    code = object_code(vector, 2, "x86-64-v2")
    buffer = (ctypes.c_float * 8)(*range(8))
    linked = JitLinked(code)  # the code lives as long as this object
    scale = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(linked.address("scale"))
    scale(ctypes.addressof(buffer))
    assert list(buffer) == [2.0 * i for i in range(8)]
    assembly = _disassemble(code, tmp_path)
    assert "xmm" in assembly and "ymm" not in assembly  # SSE registers only: no AVX
    native = _disassemble(object_code(vector), tmp_path)
    if "avx" in target.cpu_flags():
        assert "ymm" in native  # the host's own CPU: one 256-bit multiply


def _disassemble(code: bytes, tmp_path) -> str:
    path = tmp_path / "code.o"
    path.write_bytes(code)
    done = subprocess.run([str(llvm_tool("llvm-objdump")), "-d", str(path)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout


VECTOR_LOOP = """
define void @axpy(ptr %x, ptr %y, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %j, %loop ]
  %px = getelementptr float, ptr %x, i64 %i
  %py = getelementptr float, ptr %y, i64 %i
  %a = load <8 x float>, ptr %px, align 4
  %b = load <8 x float>, ptr %py, align 4
  %c = call <8 x float> @llvm.fma.v8f32(<8 x float> %a, <8 x float> splat (float 2.0), <8 x float> %b)
  store <8 x float> %c, ptr %py, align 4
  %j = add i64 %i, 8
  %done = icmp sge i64 %j, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
declare <8 x float> @llvm.fma.v8f32(<8 x float>, <8 x float>, <8 x float>)
"""


def test_a_reused_target_machine_emits_what_a_new_one_does(monkeypatch):
    """object_code keeps its target machines for the next compile (one per CPU, features and
    level for each compile at once): interleaved CPUs, levels, failures and threads give
    the objects a machine made for each compile gives."""
    import concurrent.futures
    cases = [(ADD_ONE, 2, None), (VECTOR_LOOP, 2, None), (VECTOR_LOOP, 0, None), (VECTOR_LOOP, 2, "x86-64-v2"),
             (VECTOR_LOOP, 3, None)]

    def compile_all():
        return [object_code(text, level, cpu) for text, level, cpu in cases]

    reused = compile_all()
    with pytest.raises(LLVMError):
        object_code("garbage")  # a failed compile gives its machine back too
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(lambda _: compile_all(), range(8)))
    fresh = []
    for text, level, cpu in cases:
        monkeypatch.setattr(llvm_backend, "_MACHINES", llvm_backend._MachinePool())  # a new machine
        fresh.append(object_code(text, level, cpu))
    assert reused == fresh and all(t == fresh for t in threaded)
    assert len({*fresh}) == len(cases)  # the cases differ: each object is its own


def test_invalid_ir_names_the_line():
    with pytest.raises(LLVMError, match=r"invalid LLVM IR: .*:3:.*"):
        object_code("define i32 @f(i32 %x) {\n  %y = add i32 %x, 1\n  ret i32 %z\n}\n")


def test_a_bad_pipeline_is_an_error():
    with pytest.raises(LLVMError, match="no-such-pass"):
        object_code(ADD_ONE, pipeline="function(no-such-pass)")


def test_a_missing_symbol_fails_the_lookup_quietly(capfd):
    calls = """
    declare i32 @mlc_test_no_such_function(i32)
    define i32 @f(i32 %x) {
      %y = call i32 @mlc_test_no_such_function(i32 %x)
      ret i32 %y
    }
    """
    linked = JitLinked(object_code(calls))
    with pytest.raises(LLVMError):
        linked.address("f")
    assert "mlc_test_no_such_function" not in capfd.readouterr().err  # not printed by ORC


def _programs():
    """(name, function, arguments): elementwise math, reductions, a packed GEMM, a direct
    convolution, integers and f64, on odd shapes."""
    rng = np.random.default_rng(7)
    x = rng.standard_normal((37, 91)).astype(np.float32)
    w = rng.standard_normal((91, 53)).astype(np.float32)
    image = rng.standard_normal((2, 9, 11, 5)).astype(np.float32)
    kernel = rng.standard_normal((3, 3, 5, 7)).astype(np.float32)
    ints = rng.integers(-1000, 1000, (13, 29)).astype(np.int32)
    return [
        ("math chain", lambda a: mnp.tanh(mnp.exp(-a * a) * 3.0 + mnp.sin(a)) / (1.0 + mnp.abs(a)), (x,)),
        ("softmax", mnn.softmax, (x,)),
        ("row stats", lambda a: (mnp.max(a, axis=1), mnp.sum(a * a, axis=0), mnp.argmax(a, axis=1)), (x,)),
        ("matmul + gelu", lambda a, b: mnn.gelu(a @ b), (x, w)),
        ("conv", lambda i, k: lax.conv_general_dilated(i, k, (1, 1), "SAME",
                                                      dimension_numbers=("NHWC", "HWIO", "NHWC")),
         (image, kernel)),
        ("integers", lambda a: (a * 7 - (a >> 2)) % 97 + mnp.cumsum(a, axis=1), (ints,)),
        ("f64", lambda a: mnp.log1p(mnp.abs(a)) @ a.T, (x.astype(np.float64),)),
    ]


@pytest.mark.parametrize("name,function,arguments", _programs(), ids=[p[0] for p in _programs()])
def test_programs_agree_with_the_execution_engine(name, function, arguments):
    results = []
    for jit in ("orc", "execution-engine"):
        compiled = mlc.jit(function, options=CompileOptions(jit=jit)).lower(*arguments).compile()
        results.append(compiled(*arguments))
    ours, reference = (r if isinstance(r, tuple) else (r,) for r in results)
    for a, b in zip(ours, reference):
        if np.issubdtype(b.dtype, np.integer):
            np.testing.assert_array_equal(a, b)
        else:  # both contract a*b+c into FMAs in the same code generator: rounding may still differ
            tolerance = 1e-12 if b.dtype == np.float64 else 2e-6
            np.testing.assert_allclose(a, b, rtol=tolerance, atol=tolerance)


def _chain_module(n: int, mutable_global: bool = False) -> str:
    """f0(x) = helper(x); f_i(x) = f_{i-1}(x) + i (internal, noinline); @entry calls f_{n-1}."""
    lines = ["@table = internal constant [2 x i32] [i32 1, i32 2]"]
    if mutable_global:
        lines.append("@counter = internal global i32 0")
    lines += ["define internal i32 @helper(i32 %x) #1 {", "  %p = load i32, ptr @table", "  %y = add i32 %x, %p",
              "  ret i32 %y", "}", "define internal i32 @f0(i32 %x) #0 {", "  %y = call i32 @helper(i32 %x)",
              "  ret i32 %y", "}"]
    for i in range(1, n):
        lines += [f"define internal i32 @f{i}(i32 %x) #0 {{", f"  %a = call i32 @f{i - 1}(i32 %x)",
                  *[f"  %b{k} = add i32 %{'a' if k == 0 else f'b{k - 1}'}, {1 if k == 0 else 0}" for k in range(i % 5 + 1)],
                  f"  ret i32 %b{i % 5}", "}"]
    lines += ["define i32 @entry(i32 %x) {", f"  %y = call i32 @f{n - 1}(i32 %x)", "  ret i32 %y", "}",
              "attributes #0 = { noinline }", "attributes #1 = { alwaysinline }"]
    return "\n".join(lines) + "\n"


def test_a_big_module_compiles_in_parts_that_link_together(monkeypatch):
    monkeypatch.setattr(llvm_backend, "SPLIT_MIN_PART", 50)
    module = _chain_module(40)
    parts = llvm_backend.split_module(module, 2)
    assert len(parts) == 2
    for name in ["entry"] + [f"f{i}" for i in range(40)]:  # defined once, declared elsewhere
        assert sum(f"define i32 @{name}(" in p for p in parts) == 1
    assert all("define internal i32 @helper(" in p for p in parts)  # the always-inline helper: everywhere
    objects = llvm_backend.object_codes(module, threads=2)
    assert len(objects) == 2
    linked = JitLinked(objects)
    entry = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32)(linked.address("entry"))
    assert entry(5) == 5 + 1 + 39  # helper adds table[0] = 1, f1..f39 add 1 each


def test_a_function_s_size_counts_the_helpers_it_inlines():
    """What code generation sees: a helper's lines at each of its calls (nested helpers too;
    a helper reaching itself again counts once), other calls as one line."""
    helper = ["define internal float @h(float %x) #1 {", "  %y = fadd float %x, %x", "  ret float %y", "}"]
    outer = ["define internal float @g(float %x) #1 {", "  %y = call float @h(float %x)",
             "  %z = call float @g(float %y)", "  ret float %z", "}"]
    size = llvm_backend._inlined_size([helper, outer])
    caller = ["define void @f(float %x) {", "  %a = call float @h(float %x)", "  %b = call float @h(float %a)",
              "  %c = call float @g(float %b)", "  call void @other(float %c)", "  ret void", "}"]
    assert size(caller) == len(caller) + 2 * len(helper) + (len(outer) + len(helper))


def test_parts_are_balanced_by_inlined_size(monkeypatch):
    """Two functions of equal lines, one calling a big always-inline helper: cut only when
    the lighter part, the one without the helper, has SPLIT_MIN_PART lines."""
    body = [f"  %v{k} = add i32 %x, {k}" for k in range(30)]
    module = "\n".join(
        ["define internal i32 @big(i32 %x) #1 {", *body, "  ret i32 %x", "}",
         "define i32 @a(i32 %x) {", "  %y = call i32 @big(i32 %x)", *body[:29], "  ret i32 %y", "}",
         "define i32 @b(i32 %x) {", *body, "  ret i32 %x", "}", "attributes #1 = { alwaysinline }"]) + "\n"
    b_lines = len(body) + 3
    monkeypatch.setattr(llvm_backend, "SPLIT_MIN_PART", b_lines)
    assert len(llvm_backend.split_module(module, 2)) == 2
    monkeypatch.setattr(llvm_backend, "SPLIT_MIN_PART", b_lines + 1)
    assert llvm_backend.split_module(module, 2) == [module]


def test_a_linkonce_odr_function_is_defined_in_one_part_and_declared_in_the_others(monkeypatch):
    """convert-math-to-funcs outlines integer powers as linkonce_odr functions: a declaration
    cannot carry that linkage (fuzz run 33: 'invalid linkage for function declaration'), and
    a part calling none of them could drop its copy. The part defining one defines it
    external; both parts call it."""
    monkeypatch.setattr(llvm_backend, "SPLIT_MIN_PART", 8)
    body = [f"  %v{k} = add i32 %x, {k}" for k in range(8)]
    module = "\n".join(
        ["define linkonce_odr i32 @ipow(i32 %x, i32 %n) {", "  %y = mul i32 %x, %n", "  ret i32 %y", "}",
         "define i32 @a(i32 %x) {", *body, "  %y = call i32 @ipow(i32 %x, i32 3)", "  ret i32 %y", "}",
         "define i32 @b(i32 %x) {", *body, "  %y = call i32 @ipow(i32 %x, i32 5)", "  ret i32 %y", "}"]) + "\n"
    parts = llvm_backend.split_module(module, 2)
    assert len(parts) == 2
    assert sum("define i32 @ipow(" in p for p in parts) == 1
    assert not any("declare linkonce_odr" in p for p in parts)
    linked = JitLinked(llvm_backend.object_codes(module, threads=2))
    signature = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_int32)
    assert signature(linked.address("a"))(7) == 21 and signature(linked.address("b"))(7) == 35


def test_small_or_unsafe_modules_stay_whole(monkeypatch):
    module = _chain_module(40)
    assert llvm_backend.split_module(module, 2) == [module]  # parts under SPLIT_MIN_PART
    monkeypatch.setattr(llvm_backend, "SPLIT_MIN_PART", 50)
    with_state = _chain_module(40, mutable_global=True)
    assert llvm_backend.split_module(with_state, 2) == [with_state]  # a mutable global would be copied
    for extra in ("@c = private unnamed_addr global i32 0", "@g = global i32 0", "@k = constant i32 7"):
        other = extra + "\n" + module  # a second variable, or two definitions of one symbol
        assert llvm_backend.split_module(other, 2) == [other]
    shared = "@d = external global i32\n@s = private unnamed_addr constant [2 x i8] c\"a\\00\"\n" + module
    assert len(llvm_backend.split_module(shared, 2)) == 2  # declarations and local constants: copied
    assert llvm_backend.split_module(module, 1) == [module]


def test_a_program_compiled_in_parts_runs_like_one_compiled_whole(monkeypatch):
    """An MLP with a softmax on two threads, its module cut in parts, against one part."""
    rng = np.random.default_rng(3)
    x, w1, w2 = (rng.standard_normal(s).astype(np.float32) for s in ((257, 200), (200, 130), (130, 10)))
    splits = []
    real_split = llvm_backend.split_module
    monkeypatch.setattr(llvm_backend, "split_module", lambda text, parts: splits.append(real_split(text, parts)) or splits[-1])

    def f(x, w1, w2):
        return mnn.softmax(mnp.tanh(x @ w1) @ w2, axis=-1), mnp.max(x, axis=0)

    results = []
    for min_lines in (10 ** 9, 100):
        monkeypatch.setattr(llvm_backend, "SPLIT_MIN_PART", min_lines)
        compiled = mlc.jit(f, options=CompileOptions(threads=2)).lower(x, w1, w2).compile()
        results.append(compiled(x, w1, w2))
    assert [len(parts) for parts in splits] == [1, 2]  # whole, then in two parts
    for a, b in zip(*results):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(results[0][1], x.max(axis=0))
    np.testing.assert_allclose(results[0][0].sum(axis=-1), np.ones(257), rtol=1e-5)
