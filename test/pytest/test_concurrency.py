"""Threads, processes and long runs: jit from 8 threads at once, fork() children (they
deadlocked in the first parallel kernel), 100k cached calls without memory growth,
executables freed with their jit object, and each thread's own MLIR context (freed with
the thread). Children run in a subprocess with a timeout, so a hang fails the test instead
of the run."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import threading
import tracemalloc

import numpy as np
from conftest import run_threads

import mlc
import mlc.numpy as mnp
from mlc.runtime import executable as executable_module


def run_script(code: str, timeout: float = 240) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True,
                          timeout=timeout)


FORK_PRELUDE = """
    import os, sys, numpy as np, mlc, mlc.numpy as mnp
    f = mlc.jit(lambda x: mnp.exp(x) * 2)            # parallel loops: 1M elements x (exp + multiply)
    x = np.ones((1024, 1024), np.float32)
    direct = mlc.jit(lambda x: mnp.exp(x) + 1).lower(x).compile()
    assert direct.executable.parallel
    assert np.isclose(f(x)[0, 0], np.exp(1) * 2) and np.isclose(direct(x)[0, 0], np.exp(1) + 1)
"""


def test_forked_child_runs_jit_functions_and_exits_cleanly():
    out = run_script(FORK_PRELUDE + """
    pid = os.fork()
    if pid == 0:
        got = f(x)                                     # the parent's executables, on a new pool
        new = mlc.jit(lambda v: mnp.tanh(v) + 1)(x)   # a new function: compiled here
        ok = np.allclose(got, np.exp(x) * 2) and np.allclose(new, np.tanh(x) + 1)
        ok = ok and np.allclose(direct(x), np.exp(x) + 1)
        sys.exit(0 if ok else 7)                       # a normal exit, finalizers and all
    _, status = os.waitpid(pid, 0)
    print("child exit", os.waitstatus_to_exitcode(status))
    assert np.allclose(f(x), np.exp(x) * 2)            # the parent still runs in parallel
    """)
    assert out.returncode == 0, out.stderr
    assert "child exit 0" in out.stdout


def test_multiprocessing_fork_pool():
    out = run_script(FORK_PRELUDE + """
    import multiprocessing as mp
    def work(i):
        return float(f(x * i)[0, 0])
    if __name__ == "__main__":
        with mp.get_context("fork").Pool(2) as pool:
            got = pool.map(work, [1, 2, 3])
        print(got)
        assert np.allclose(got, [np.exp(i) * 2 for i in (1, 2, 3)], rtol=1e-5)
    """)
    assert out.returncode == 0, out.stderr


def test_eight_threads_compile_and_call_at_once():
    fns = [mlc.jit(lambda x, k=k: mnp.tanh(x * (k + 1)) + k) for k in range(4)]
    x = np.random.default_rng(0).standard_normal((256, 300)).astype(np.float32)
    errors = []

    def worker(t):
        try:
            for i in range(20):
                k = (t + i) % 4
                v = x[: 100 + (t % 3)]  # several signatures per function
                np.testing.assert_allclose(fns[k](v), np.tanh(v * (k + 1)) + k, rtol=1e-5, atol=1e-6)
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    run_threads(worker, 8)
    assert not errors, errors
    assert sum(f.cache_info().misses for f in fns) == 12  # 4 functions x 3 shapes, each compiled once


def test_cached_calls_do_not_grow_memory():
    f = mlc.jit(lambda a, b: a * b + 1.0)
    a, b = np.ones(64, np.float32), np.full(64, 2.0, np.float32)
    for _ in range(1000):
        f(a, b)
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for _ in range(100_000):
        f(a, b)
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(s.size_diff for s in after.compare_to(before, "filename"))
    assert grown < 64 * 1024, f"100k calls grew Python memory by {grown} bytes"


def test_dropping_a_jit_object_frees_its_executables():
    gc.collect()
    live_before = len(executable_module._LIVE)
    f = mlc.jit(lambda v: v * 3)
    for n in (3, 4, 5):
        f(np.ones(n, np.float32))
    assert len(executable_module._LIVE) == live_before + 3
    del f
    gc.collect()
    assert len(executable_module._LIVE) == live_before


def test_threads_are_bounded_however_many_signatures_are_cached():
    # Each compile's context has a pass-manager thread pool; a cached executable must not
    # keep it. Parallel calls share the one thread pool of the process.
    out = run_script("""
    import os, numpy as np, mlc, mlc.numpy as mnp
    threads = lambda: len(os.listdir(f"/proc/{os.getpid()}/task"))
    f = mlc.jit(lambda x: mnp.sum(mnp.tanh(x) * 2.0, axis=0))
    counts = []
    for n in range(1, 17):
        f(np.ones((1024, 256 + n), np.float32))     # big enough to run parallel loops
        counts.append(threads())
    print(counts[3], counts[-1], os.cpu_count())
    """)
    assert out.returncode == 0, out.stderr
    after_four, after_sixteen, cpus = map(int, out.stdout.split())
    assert after_sixteen == after_four, (after_four, after_sixteen)
    assert after_sixteen <= 2 + 2 * cpus


def test_dropping_parallel_executables_right_after_their_calls():
    # A parallel call returns while a worker is still leaving the task's code; freeing the
    # engine at once unmapped it under the worker (a segfault about one run in three of
    # 15 iterations before the fix). 40 iterations of compile, call, drop (a stress test: it caught the race intermittently).
    out = run_script("""
    import os
    os.environ["MLC_BLAS"] = "0"
    import numpy as np, mlc, mlc.lax as lax
    rng = np.random.default_rng(0)
    dot = lambda x, y: lax.dot_general(x, y, (((2,), (2,)), ((0,), (0,))))  # noqa: E731
    # 8 * 128 * 96 * 144 multiply-adds: above blas.PACKED_PARALLEL_MIN_MNK, so on the thread pool
    a = rng.standard_normal((8, 128, 144)).astype(np.float32)
    b = rng.standard_normal((8, 96, 144)).astype(np.float32)
    assert mlc.jit(dot).lower(a, b).compile().executable.parallel
    for i in range(40):
        a = rng.standard_normal((8, 128, 144)).astype(np.float32)
        r = mlc.jit(dot)(a, b)                    # the jit object dies right after its call
        assert np.allclose(r, np.einsum("bmk,bnk->bmn", a, b), atol=1e-3)
    print("ok")
    """)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "ok" in out.stdout


def test_threads_compile_in_their_own_contexts_which_go_with_them():
    # Each thread traces and compiles in its own reused MLIR context (mlc/context.py); a
    # thread's context is freed when the thread ends and its functions are dropped.
    from mlir import ir
    from mlc import context as mlc_context
    gc.collect()
    live_before = ir.Context._get_live_count()
    x = np.random.default_rng(2).standard_normal((64, 32)).astype(np.float32)
    errors, contexts = [], []
    together = threading.Barrier(4, timeout=120)  # all alive at once: ids cannot be reused

    def worker(t):
        try:
            fns = [mlc.jit(lambda v, k=k: mnp.tanh(v) * (t + k) + mnp.max(v, axis=0)) for k in range(3)]
            for k, f in enumerate(fns):
                np.testing.assert_allclose(f(x), np.tanh(x) * (t + k) + x.max(0), rtol=1e-5, atol=1e-5)
            contexts.append(id(mlc_context.thread_context()))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)
        together.wait()

    run_threads(worker, 4)
    assert not errors, errors
    assert len(set(contexts)) == 4
    gc.collect()
    assert ir.Context._get_live_count() <= live_before


def test_without_a_c_compiler_code_runs_on_one_thread(tmp_path):
    """The thread pool is built with the system C compiler; without one (and no built copy:
    the cache is off), a compile warns once and makes single-threaded code that is right."""
    env = {**os.environ, "PATH": str(tmp_path), "MLC_CACHE": "0"}  # no cc, gcc or clang on PATH
    done = subprocess.run([sys.executable, "-c", textwrap.dedent("""
        import warnings, numpy as np, mlc, mlc.numpy as mnp
        from mlc.codegen.target import num_threads
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            x = np.linspace(-2, 2, 1 << 20, dtype=np.float32).reshape(1024, 1024)
            compiled = mlc.jit(lambda a: mnp.tanh(a) + 1.0).lower(x).compile()
            assert np.allclose(compiled(x), np.tanh(x) + 1, atol=1e-6)
            mlc.jit(lambda a: a * 2.0)(x)
        assert num_threads() == 1 and not compiled.executable.parallel
        assert compiled.options.threads == 1
        messages = [str(w.message) for w in caught if "parallel runtime" in str(w.message)]
        assert len(messages) == 1, messages
        print("ok", messages[0][:60])
    """)], capture_output=True, text=True, env=env, timeout=240)
    assert done.stdout.startswith("ok"), done.stderr


def test_a_damaged_runtime_library_in_the_cache_is_built_again(tmp_path):
    """A truncated thread-pool library in the cache directory is not loaded: it is built
    again in place, and parallel code runs without a warning."""
    from mlc.runtime import parallel_runtime
    runtime_dir = tmp_path / "runtime"
    runtime_dir.mkdir()
    damaged = runtime_dir / f"libmlc_parallel-{parallel_runtime.source_digest()}.so"
    damaged.write_bytes(b"\x7fELF\x02\x01\x01" + b"\0" * 9)  # an ELF header cut short
    env = {**os.environ, "MLC_CACHE_DIR": str(tmp_path), "MLC_CACHE": "1", "MLC_NUM_THREADS": "2"}
    done = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", textwrap.dedent("""
        import numpy as np, mlc, mlc.numpy as mnp
        x = np.linspace(-2, 2, 1 << 20, dtype=np.float32).reshape(1024, 1024)
        compiled = mlc.jit(lambda a: mnp.tanh(a) + 1.0).lower(x).compile()
        assert compiled.executable.parallel
        assert np.allclose(compiled(x), np.tanh(x) + 1, atol=1e-6)
        print("ok")
    """)], capture_output=True, text=True, env=env, timeout=240)
    assert done.stdout.strip() == "ok", done.stderr
    assert damaged.stat().st_size > 1000  # rebuilt in place
