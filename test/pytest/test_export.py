"""AOT export: a shared library and C header that C and plain ctypes call without MLC."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp
from mlc.export import ExportError
from mlc.options import CompileOptions

ROOT = Path(__file__).resolve().parents[2]
AOT = ROOT / "examples" / "aot"
pytestmark = pytest.mark.skipif(shutil.which("cc") is None, reason="needs the system C compiler")


def test_the_c_example_builds_and_runs(tmp_path):
    sys.path.insert(0, str(AOT))
    try:
        import model
    finally:
        sys.path.remove(str(AOT))
    library, header = model.export(str(tmp_path))
    assert "int classifier(const float *in0, float *out0);" in Path(header).read_text()
    binary = tmp_path / "classify"
    subprocess.run(["cc", "-O2", str(AOT / "main.c"), "-I", str(tmp_path), "-L", str(tmp_path), "-lclassifier",
                    f"-Wl,-rpath,{tmp_path}", "-o", str(binary)], check=True)
    out = subprocess.run([str(binary)], capture_output=True, text=True, check=True).stdout
    rows = [line.split(":", 1)[1].split() for line in out.splitlines()]
    got = np.array([[float(v) for v in row[-model.CLASSES:]] for row in rows])
    np.testing.assert_allclose(got, model.reference(model.example_input()), atol=2e-6)


def test_ctypes_calls_it_without_mlc_or_mlir(tmp_path):
    f = mlc.jit(lambda x, y: (mnp.sin(x) * y, mnp.sum(x, axis=0)))
    x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(4, 6)
    y = np.arange(24, dtype=np.float64).reshape(4, 6)
    header = f.lower(x, y).compile().export_library(str(tmp_path / "libtwo.so"), name="two")
    assert "int two(const float *in0, const double *in1, double *out0, float *out1);" in Path(header).read_text()
    script = textwrap.dedent(f"""
        import ctypes, sys
        import numpy as np
        lib = ctypes.CDLL({str(tmp_path / "libtwo.so")!r})
        x = np.linspace(-3, 3, 24, dtype=np.float32).reshape(4, 6)
        y = np.arange(24, dtype=np.float64).reshape(4, 6)
        a, b = np.empty((4, 6)), np.empty(6, np.float32)
        p = lambda arr: ctypes.c_void_p(arr.ctypes.data)
        assert lib.two(p(x), p(y), p(a), p(b)) == 0
        np.testing.assert_allclose(a, np.sin(x.astype(np.float64)) * y, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(b, x.sum(0), rtol=1e-6, atol=1e-6)
        assert not [m for m in sys.modules if m.split(".")[0] in ("mlc", "mlir")]
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.strip() == "ok", done.stderr
    needed = subprocess.run(["readelf", "-d", str(tmp_path / "libtwo.so")], capture_output=True, text=True).stdout
    assert "mlir" not in needed and "openblas" not in needed and "TEXTREL" not in needed


def test_mlc_opt_emits_a_library(tmp_path):
    source = tmp_path / "scale.mlir"
    source.write_text(textwrap.dedent("""
        func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
          %c = "hlo.constant"() {value = dense<2.5> : tensor<3xf32>} : () -> tensor<3xf32>
          %0 = "hlo.multiply"(%x, %c) : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
          return %0 : tensor<3xf32>
        }
    """))
    from mlc.tools import mlc_opt
    library = tmp_path / "libscale.so"
    assert mlc_opt.main([str(source), "--emit=library", "-o", str(library), "--cpu=native"]) == 0
    assert "int scale(const float *in0, float *out0);" in (tmp_path / "scale.h").read_text()
    import ctypes
    lib = ctypes.CDLL(str(library))
    x, out = np.array([1, 2, 3], np.float32), np.empty(3, np.float32)
    assert lib.scale(ctypes.c_void_p(x.ctypes.data), ctypes.c_void_p(out.ctypes.data)) == 0
    np.testing.assert_allclose(out, x * 2.5)


def test_unsupported_requests_are_clear_errors(tmp_path):
    compiled = mlc.jit(lambda x: x + 1.0).lower(np.ones(4, np.float32)).compile()
    with pytest.raises(ExportError, match="must be a C identifier"):
        compiled.export_library(str(tmp_path / "liba.so"), name="not-c")
    with pytest.raises(ExportError, match="is also a function of the compiled module"):
        compiled.export_library(str(tmp_path / "liba.so"), name="main")
    with pytest.raises(ExportError, match="cpu must be one of"):
        compiled.export_library(str(tmp_path / "liba.so"), name="a", cpu="pentium")
    assert not os.path.exists(tmp_path / "liba.so")


def test_a_parallel_library_carries_the_thread_pool(tmp_path):
    """threads=2: the library's parallel loops run on MLC's thread pool, linked inside it
    (only the exported name is visible); a plain ctypes process calls it, from two threads
    at once (one of them runs its loops alone) and from a fork() child."""
    x = np.random.default_rng(3).standard_normal((512, 512)).astype(np.float32)
    compiled = mlc.jit(lambda a: mnp.tanh(a) * 2.0 + 1.0).lower(x).compile()
    compiled.export_library(str(tmp_path / "libpar.so"), name="par", options=CompileOptions(threads=2))
    exported = subprocess.run(["nm", "-D", "--defined-only", str(tmp_path / "libpar.so")],
                              capture_output=True, text=True).stdout
    assert " T par" in exported and "mlc_parallel_for" not in exported
    symbols = subprocess.run(["nm", str(tmp_path / "libpar.so")], capture_output=True, text=True).stdout
    assert " t mlc_parallel_for" in symbols  # inside, local
    script = textwrap.dedent(f"""
        import ctypes, os, sys, threading
        import numpy as np
        lib = ctypes.CDLL({str(tmp_path / "libpar.so")!r})
        x = np.random.default_rng(3).standard_normal((512, 512)).astype(np.float32)
        want = np.tanh(x) * 2 + 1
        p = lambda arr: ctypes.c_void_p(arr.ctypes.data)
        def run(results):
            out = np.empty_like(x)
            for _ in range(20):
                assert lib.par(p(x), p(out)) == 0
            results.append(float(np.abs(out - want).max()))
        results = []
        threads = [threading.Thread(target=run, args=(results,)) for _ in range(2)]
        [t.start() for t in threads]; [t.join() for t in threads]
        pid = os.fork()
        if pid == 0:
            child = []
            run(child)
            os._exit(0 if child[0] < 1e-5 else 3)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        assert len(results) == 2 and max(results) < 1e-5, results
        assert not [m for m in sys.modules if m.split(".")[0] in ("mlc", "mlir")]
        print("ok")
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "ok", done.stderr
