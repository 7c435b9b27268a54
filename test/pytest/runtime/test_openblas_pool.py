"""numpy's OpenBLAS running its parallel jobs on MLC's pool (parallel_runtime.c's
mlc_openblas_threads, installed by parallel_runtime.share_with_openblas): the callback
itself through ctypes (every job once, all at once, each with its own index; the pool in use
or not), then numpy's matmuls and LAPACK through it against an oracle that uses no BLAS."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import threading
from collections import Counter

import numpy as np
import pytest

from mlc.runtime.libraries import jit_shared_libraries
from mlc.runtime.parallel_runtime import OPENBLAS_JOB as DOJOB
from mlc.runtime.parallel_runtime import PARALLEL_BODY as BODY
from mlc.runtime.parallel_runtime import share_with_openblas

JOB_SIZE = 24  # bytes per job record, as OpenBLAS passes sizeof(blas_queue_t)


@pytest.fixture(scope="module")
def runtime(parallel_library):
    return parallel_library


def run_region(runtime, numjobs: int) -> list[tuple[int, int, int]]:
    """Runs `numjobs` jobs that each wait for all the others (as OpenBLAS's level-3 jobs wait
    for each other's packed panels): (thread_num, job offset, dojob_data) per job."""
    jobs = (ctypes.c_char * (JOB_SIZE * max(numjobs, 1)))()
    base = ctypes.addressof(jobs)
    barrier = threading.Barrier(max(numjobs, 1), timeout=20)
    seen, lock = [], threading.Lock()

    @DOJOB
    def dojob(thread_num, job, data):
        barrier.wait()  # a BrokenBarrierError (a timeout) if the jobs did not all run at once
        with lock:
            seen.append((thread_num, job - base, data))

    runtime.mlc_openblas_threads(1, dojob, numjobs, JOB_SIZE, base, 7)
    return seen


@pytest.mark.parametrize("numjobs", [0, 1, 2, 3, 5])
def test_every_job_runs_once_all_at_once(runtime, numjobs):
    seen = run_region(runtime, numjobs)
    assert sorted(seen) == [(j, j * JOB_SIZE, 7) for j in range(numjobs)]


def test_jobs_get_threads_of_their_own_while_the_pool_is_in_use(runtime):
    # From inside a parallel loop's block the pool is busy: the region must still run its
    # jobs at once (on threads made for them), not in order (which would never finish).
    results = []

    @BODY
    def body(_context, block):
        results.append(run_region(runtime, 3))

    runtime.mlc_parallel_for(body, None, 2, 2)
    assert [sorted(r) for r in results] == [[(j, j * JOB_SIZE, 7) for j in range(3)]] * 2


def test_regions_from_several_threads_run_one_at_a_time(runtime):
    # Job i uses OpenBLAS's buffer i: two regions at once would share them.
    active, peak, lock = [0], [0], threading.Lock()

    @DOJOB
    def dojob(thread_num, job, data):
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        threading.Event().wait(0.002)
        with lock:
            active[0] -= 1

    jobs = (ctypes.c_char * (JOB_SIZE * 2))()
    threads = [threading.Thread(target=lambda: [runtime.mlc_openblas_threads(
        1, dojob, 2, JOB_SIZE, ctypes.addressof(jobs), 0) for _ in range(20)]) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads)
    assert peak[0] == 2


def _no_blas_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """a @ b in float64 by broadcasting and summing: no BLAS call."""
    return (a.astype(np.float64)[:, :, None] * b.astype(np.float64)[None, :, :]).sum(axis=1)


@pytest.fixture(scope="module")
def shared_openblas(runtime):
    jit_shared_libraries()
    if not share_with_openblas():
        pytest.skip("numpy's OpenBLAS has no caller-managed threading (or MLC_OPENBLAS_POOL=0)")


@pytest.mark.parametrize("dtype,tolerance", [(np.float32, 1e-4), (np.float64, 1e-11)])
@pytest.mark.parametrize("m,k,n", [(1, 300, 7), (17, 127, 33), (256, 256, 256), (300, 100, 513), (127, 1023, 64)])
def test_numpy_matmul_on_the_pool(shared_openblas, m, k, n, dtype, tolerance):
    rng = np.random.default_rng(m * 7 + n)
    a, b = rng.standard_normal((m, k)).astype(dtype), rng.standard_normal((k, n)).astype(dtype)
    expected = _no_blas_matmul(a, b)
    np.testing.assert_allclose(a @ b, expected, rtol=tolerance, atol=tolerance * np.sqrt(k))


def test_numpy_lapack_on_the_pool(shared_openblas):
    rng = np.random.default_rng(3)
    a = rng.standard_normal((300, 300)) + 300 * np.eye(300)
    x = rng.standard_normal((300, 4))
    np.testing.assert_allclose(_no_blas_matmul(a, np.linalg.solve(a, x)), x, atol=1e-9)


def test_numpy_matmuls_from_threads_beside_an_mlc_kernel(shared_openblas):
    # Threads calling numpy's matmul at once while a compiled parallel kernel runs: every
    # product right, nothing hangs.
    import mlc
    import mlc.numpy as mnp

    rng = np.random.default_rng(11)
    x = rng.standard_normal((512, 1024)).astype(np.float32)
    kernel = mlc.jit(lambda v: mnp.tanh(v) * 2.0 + 1.0)
    expected_kernel = np.tanh(x.astype(np.float64)) * 2 + 1
    pairs = [(rng.standard_normal((200, 150)), rng.standard_normal((150, 260))) for _ in range(3)]
    expected = [_no_blas_matmul(a, b) for a, b in pairs]
    errors = []

    def numpy_worker(i):
        a, b = pairs[i]
        for _ in range(30):
            if not np.allclose(a @ b, expected[i], atol=1e-10):
                errors.append(f"matmul {i}")

    def mlc_worker():
        for _ in range(30):
            if not np.allclose(np.asarray(kernel(x)), expected_kernel, atol=2e-6):
                errors.append("kernel")

    threads = [threading.Thread(target=numpy_worker, args=(i,)) for i in range(3)]
    threads.append(threading.Thread(target=mlc_worker))
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    assert errors == []


_CHILD = """
import os, sys, numpy as np
from mlc.runtime.libraries import jit_shared_libraries
from mlc.runtime.parallel_runtime import share_with_openblas
jit_shared_libraries()
print(share_with_openblas())
a = np.random.default_rng(0).standard_normal((400, 400))
ref = (a[:, :, None] * a[None, :, :]).sum(axis=1)
a @ a
pid = os.fork()
if pid == 0:  # the child has none of the parent's pool threads: its matmul makes its own
    os._exit(0 if np.allclose(a @ a, ref) else 3)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status), np.allclose(a @ a, ref))
"""


@pytest.mark.parametrize("setting,shared", [("1", "True"), ("0", "False")])
def test_setting_and_fork(shared_openblas, setting, shared):
    env = dict(os.environ, MLC_OPENBLAS_POOL=setting)
    out = subprocess.run([sys.executable, "-c", _CHILD], env=env, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [shared, "0", "True"]
