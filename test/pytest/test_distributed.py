"""Collectives and data-parallel training across processes: jobs launched with
`mpiexec -n 2 python -m mpi4py`, each under a timeout (a hang fails the test, it does not
stall the run), plus the one-process behaviour and the errors, in this process."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

import mlc
import mlc.numpy as mnp
from mlc import distributed

ROOT = Path(__file__).resolve().parents[2]
# The mpich wheel puts mpiexec next to the interpreter; a system MPI may be on PATH.
MPIEXEC = shutil.which("mpiexec", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
needs_mpiexec = pytest.mark.skipif(MPIEXEC is None, reason="mpiexec is not installed (pip install mpich mpi4py)")
TIMEOUT = 120


def launch(tmp_path, script: str, *args, n: int = 2) -> subprocess.CompletedProcess:
    """Runs `script` on n processes; MPIEXEC_TIMEOUT is hydra's own backstop."""
    path = tmp_path / "job.py"
    path.write_text(textwrap.dedent(script))
    env = {**os.environ, "MPIEXEC_TIMEOUT": str(TIMEOUT - 10)}
    return subprocess.run([MPIEXEC, "-n", str(n), sys.executable, "-m", "mpi4py", str(path), *args],
                          capture_output=True, text=True, timeout=TIMEOUT, env=env, cwd=tmp_path)


def ok_lines(result, n: int = 2) -> list[str]:
    assert result.returncode == 0, result.stdout + result.stderr
    # The ranks' lines may interleave on the shared stdout.
    ranks = sorted(re.findall(r"OK (\d+)", result.stdout))
    assert ranks == [str(r) for r in range(n)], result.stdout + result.stderr
    return ranks


# ------------------------------------------------------------------ two processes

COLLECTIVES = """
from pathlib import Path
ROOT = Path(ROOT_TEXT)
import numpy as np, mlc, mlc.numpy as mnp
from mlc import distributed
from mlc.lax import psum, pmean, pmax, pmin

distributed.initialize()
rank, count = distributed.process_index(), distributed.process_count()
assert count == 2

def data(r, shape, dtype):
    rng = np.random.default_rng(100 + r)
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-50, 50, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)

@mlc.jit
def reductions(x):
    return psum(x, "processes"), pmax(x, "processes"), pmin(x, "processes")

for shape, dtype in [((3, 5), np.float32), ((7,), np.float64), ((2, 3, 4), np.int32), ((), np.int64)]:
    parts = [data(r, shape, dtype) for r in range(count)]
    got = reductions(parts[rank])
    want = (parts[0] + parts[1], np.maximum(*parts), np.minimum(*parts))
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
        np.testing.assert_allclose(g, w, rtol=1e-6)

# pmean of a pytree, and the reduction kind jax.lax has no function for (mul), from IR.
x = data(rank, (4, 3), np.float32)
mean = mlc.jit(lambda t: pmean(t, "processes"))({"a": x, "b": 2 * x})
parts = parts_x = [data(r, (4, 3), np.float32) for r in range(count)]
np.testing.assert_allclose(mean["a"], (parts[0] + parts[1]) / 2, rtol=1e-6)
np.testing.assert_allclose(mean["b"], parts[0] + parts[1], rtol=1e-6)
text = '''func.func @main(%x: tensor<4x3xf32>) -> tensor<4x3xf32> {
  %0 = "hlo.all_reduce"(%x) {kind = "mul"} : (tensor<4x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}'''
np.testing.assert_allclose(mlc.compile(text)(x), parts[0] * parts[1], rtol=1e-6)
np.testing.assert_allclose(mlc.reference.run(text, x), parts[0] * parts[1], rtol=1e-6)

# Gradients with JAX's rule (the transpose of psum is psum): d/dx sum(psum(x)^2) =
# psum(2 psum(x)) = 2 * count * psum(x); the gradient of a pmean-ed local loss is local.
g = mlc.jit(mlc.grad(lambda x: mnp.sum(psum(x, "processes") ** 2)))(x)
np.testing.assert_allclose(g, 2 * count * (parts[0] + parts[1]), rtol=1e-5)
g = mlc.jit(mlc.grad(lambda x: mnp.sum(pmean(x * x, "processes"))))(x)
np.testing.assert_allclose(g, 2 * x, rtol=1e-6)
# pmax's derivative goes to the process holding the maximum.
g = mlc.jit(mlc.grad(lambda x: mnp.sum(pmax(x, "processes"))))(x)
np.testing.assert_allclose(g, (x == np.maximum(*parts)).astype(np.float32) * count)

# all_gather (stacked and tiled, along dims 0 and 1) and psum_scatter, against numpy.
from mlc.lax import all_gather, psum_scatter
y = [data(r, (4, 6), np.float32) for r in range(count)]
stacked, tiled1, scattered0, scattered1 = mlc.jit(lambda v: (
    all_gather(v, "processes"), all_gather(v, "processes", axis=1, tiled=True),
    psum_scatter(v, "processes", tiled=True), psum_scatter(v, "processes", scatter_dimension=1, tiled=True)))(y[rank])
np.testing.assert_array_equal(stacked, np.stack(y))
np.testing.assert_array_equal(tiled1, np.concatenate(y, axis=1))
np.testing.assert_allclose(scattered0, (y[0] + y[1])[2 * rank:2 * rank + 2], rtol=1e-6)
np.testing.assert_allclose(scattered1, (y[0] + y[1])[:, 3 * rank:3 * rank + 3], rtol=1e-6)
ints = [data(r, (2, 3), np.int64) for r in range(count)]
np.testing.assert_array_equal(mlc.jit(lambda v: all_gather(v, "processes", axis=1))(ints[rank]),
                              np.stack(ints, axis=1))
# all_gather and psum_scatter are each other's transposes.
w = np.arange(8, dtype=np.float32).reshape(2, 4) + rank
g = mlc.jit(mlc.grad(lambda v: mnp.sum(all_gather(v, "processes", tiled=True) ** 2)))(w)
np.testing.assert_allclose(g, 2 * count * w, rtol=1e-6)

# pbroadcast (hlo.collective_broadcast, MPI_Bcast): process 0's array everywhere, any shape
# and dtype; its derivative is psum(ct) on process 0 and zero elsewhere.
from mlc.lax import pbroadcast
for shape, dtype in [((3, 5), np.float32), ((7,), np.float64), ((2, 3, 4), np.int32), ((), np.int64),
                     ((0, 3), np.float32), ((4,), np.uint8)]:
    parts = [data(r, shape, dtype) for r in range(count)]
    got = mlc.jit(lambda v: pbroadcast(v, "processes", 0))(parts[rank])
    assert got.dtype == parts[0].dtype and got.shape == parts[0].shape
    np.testing.assert_array_equal(got, parts[0])
    np.testing.assert_array_equal(mlc.reference.run(
        mlc.jit(lambda v: pbroadcast(v, "processes")).lower(parts[rank]).as_text(), parts[rank]), parts[0])
g = mlc.jit(mlc.grad(lambda v: mnp.sum(pbroadcast(v, "processes") ** 2)))(x)
np.testing.assert_allclose(g, 2 * count * parts_x[0] if rank == 0 else np.zeros_like(x), rtol=1e-6)

# hlo-combine-collectives: 12 independent psums of mixed shapes (plus a pmax, another kind)
# become one all_reduce; the results equal those of one call per tensor.
from mlc import CompileOptions
tree = {f"p{i}": data(rank, s, np.float32) for i, s in enumerate([(3, 4), (4,), (), (2, 2, 2)] * 3)}
step = lambda t: (psum(t, "processes"), pmax(t["p0"], "processes"))
combined = mlc.jit(step)
separate = mlc.jit(step, options=CompileOptions(combine_threshold_bytes=0))
assert combined.lower(tree).as_text("hlo-optimized").count('"hlo.all_reduce"') == 2
assert separate.lower(tree).as_text("hlo-optimized").count('"hlo.all_reduce"') == 13
(a, amax), (b, bmax) = combined(tree), separate(tree)
np.testing.assert_array_equal(amax, bmax)
for k in tree:
    np.testing.assert_array_equal(a[k], b[k])
    np.testing.assert_allclose(a[k], sum(data(r, tree[k].shape, np.float32) for r in range(count)), rtol=1e-6)

# In place where possible: a donated operand is reduced in its own array (returned as the
# result, no copy); a caller's array that is not donated, or a value used again after the
# psum, is left as it was (bufferization copies it first); a dead temporary is reduced
# where it was computed. Likewise pbroadcast.
v = [data(r, (5, 3), np.float32) for r in range(count)]
mine, kept = v[rank].copy(), v[rank].copy()
donated = mlc.jit(lambda t: psum(t, "processes"), donate_argnums=0)
got = donated(mine)
assert got is mine
np.testing.assert_allclose(mine, v[0] + v[1], rtol=1e-6)
got, again = mlc.jit(lambda t: (psum(t, "processes"), t * 1.0))(kept)
np.testing.assert_array_equal(kept, v[rank])
np.testing.assert_array_equal(again, v[rank])
np.testing.assert_allclose(got, v[0] + v[1], rtol=1e-6)
got = mlc.jit(lambda t: psum(t * 2.0, "processes") + t * 2.0)(kept)
np.testing.assert_allclose(got, 2 * (v[0] + v[1]) + 2 * v[rank], rtol=1e-6)
np.testing.assert_array_equal(kept, v[rank])
got, again = mlc.jit(lambda t: (pbroadcast(t, "processes"), t + 0.0))(kept)
np.testing.assert_array_equal(got, v[0])
np.testing.assert_array_equal(again, v[rank])
mine = v[rank].copy()
assert mlc.jit(lambda t: pbroadcast(t, "processes"), donate_argnums=0)(mine) is mine
np.testing.assert_array_equal(mine, v[0])

# StableHLO from JAX (shard_map over 2 devices: what each process runs) imports to the
# same MPI-backed collectives.
fixture = ROOT / "test" / "pytest" / "data" / "stablehlo_collectives" / "shard_map_2.mlir"
xs = [data(r, (2, 3), np.float32) for r in range(count)]
ys = [data(r, (4,), np.int32) for r in range(count)]
s2, m, g2, r2 = mlc.compile(fixture.read_text())(xs[rank], ys[rank])
np.testing.assert_allclose(s2, 2 * (xs[0] + xs[1]), rtol=1e-6)
np.testing.assert_array_equal(m, np.maximum(*ys))
np.testing.assert_array_equal(g2, np.concatenate(xs, axis=1))
np.testing.assert_array_equal(r2, (ys[0] + ys[1])[2 * rank:2 * rank + 2])

# Host helpers: each process's shard of a global batch, process 0's parameters everywhere.
batch = np.arange(12).reshape(6, 2)
np.testing.assert_array_equal(distributed.process_shard(batch), batch[3 * rank:3 * rank + 3])
params = distributed.broadcast_from_process_0({"w": np.full(3, rank, np.float32)})
np.testing.assert_array_equal(params["w"], np.zeros(3, np.float32))
print(f"OK {rank}")
"""


@needs_mpiexec
def test_collectives_match_numpy_on_two_processes(tmp_path):
    ok_lines(launch(tmp_path, COLLECTIVES.replace("ROOT_TEXT", repr(str(ROOT)))))


@needs_mpiexec
def test_data_parallel_training_equals_one_process(tmp_path):
    """The example's parameters after N steps on 2 processes equal one process's on the
    same global batches."""
    example = ROOT / "examples" / "train_data_parallel.py"
    common = ["--steps", "4", "--batch", "64", "--hidden", "32"]
    env = {**os.environ, "MPIEXEC_TIMEOUT": str(TIMEOUT - 10)}
    one = subprocess.run([sys.executable, str(example), *common, "--save", str(tmp_path / "one.npz")],
                         capture_output=True, text=True, timeout=TIMEOUT)
    assert one.returncode == 0, one.stderr
    two = subprocess.run([MPIEXEC, "-n", "2", sys.executable, "-m", "mpi4py", str(example), *common,
                          "--save", str(tmp_path / "two.npz")], capture_output=True, text=True,
                         timeout=TIMEOUT, env=env)
    assert two.returncode == 0, two.stderr
    assert "[process 1/2]" in two.stdout and "samples/s" in two.stdout
    a, b = np.load(tmp_path / "one.npz"), np.load(tmp_path / "two.npz")
    assert a.files == b.files
    for k in a.files:
        np.testing.assert_allclose(a[k], b[k], rtol=1e-5, atol=1e-6)


FAILING_RANK = """
import numpy as np, mlc
from mlc import distributed
distributed.initialize()
if distributed.process_index() == 1:
    raise ValueError("rank 1 cannot continue")
# Process 0 waits in a compiled all-reduce that process 1 never joins.
print(mlc.jit(lambda x: mlc.lax.psum(x, "processes"))(np.ones(3, np.float32)))
"""


@needs_mpiexec
def test_a_rank_that_raises_ends_the_job(tmp_path):
    start = time.monotonic()
    result = launch(tmp_path, FAILING_RANK)
    assert result.returncode != 0
    assert "[process 1/2] ValueError: rank 1 cannot continue" in result.stderr
    assert "ValueError on process 1: aborting the job" in result.stderr
    assert time.monotonic() - start < 60


# Process 1 leaves early (a clean exit: no exception), or hangs; process 0 is in a compiled
# psum that will never complete. READY is printed just before.
STRANDED = """
import sys, time, numpy as np, mlc
from mlc import distributed
distributed.initialize()
psum = mlc.jit(lambda x: mlc.lax.psum(x, "processes"))
psum(np.ones(3, np.float32))
if distributed.process_index() == 1:
    if sys.argv[1] == "exit":
        sys.exit(0)
    time.sleep(100)
print("READY", time.time(), flush=True)
psum(np.ones(3, np.float32))
"""


@needs_mpiexec
@pytest.mark.parametrize("how,message,within", [
    ("exit", r"mlc: process 1 left the job while process 0 waits in hlo.all_reduce at \S*job.py:5", 10),
    ("hang", r"mlc: process 0: hlo.all_reduce at \S*job.py:5 did not complete within 3.0 s", 12)],
    ids=["exit", "hang"])
def test_a_rank_that_leaves_or_hangs_ends_the_job(tmp_path, monkeypatch, how, message, within):
    """A peer's exit notice ends the wait 2 s later; a hang ends at the collective timeout
    (3 s here); either way the job ends with a nonzero code and says why."""
    monkeypatch.setenv("MLC_COLLECTIVE_TIMEOUT", "3")
    result = launch(tmp_path, STRANDED, how)
    end = time.time()
    assert result.returncode != 0, result.stdout + result.stderr
    assert re.search(message, result.stderr), result.stderr
    ready = float(re.search(r"READY (\S+)", result.stdout).group(1))
    assert end - ready < within, (end - ready, result.stderr)


MISMATCHED = """
import sys, numpy as np, mlc
from mlc import distributed
distributed.initialize()
other = {"dtype": np.ones(6, np.int32), "shape": np.ones((3, 2), np.float32),
         "collective": np.ones((2, 3), np.float32)}[sys.argv[1]]  # same bytes
if sys.argv[1] == "collective" and distributed.process_index() == 1:  # process 0 runs psum
    print(mlc.jit(lambda x: mlc.lax.pbroadcast(x, "processes"))(other))
print(mlc.jit(lambda x: mlc.lax.psum(x, "processes"))(np.ones((2, 3), np.float32) if distributed.process_index() == 0 else other))
"""


@needs_mpiexec
@pytest.mark.parametrize("differ", ["dtype", "shape", "collective"])
def test_ranks_with_different_dtypes_or_shapes_are_reported_not_summed(tmp_path, differ):
    """The compiled collective checks that all ranks agree (count, dtype, shape, op) first."""
    result = launch(tmp_path, MISMATCHED, differ)
    assert result.returncode != 0
    # Process 0's psum (line 9) or, for "collective", process 1's pbroadcast (line 8).
    where = r"(all_reduce at \S*job.py:9|collective_broadcast at \S*job.py:8)"
    assert re.search(rf"the processes disagree on hlo.{where}", result.stderr), result.stderr
    assert "[2." not in result.stdout and "[2 " not in result.stdout


# ------------------------------------------------------------------ one process

def test_one_process_collectives_are_the_identity():
    """Not launched by mpiexec: one process, nothing MPI loaded, psum & co return x."""
    assert distributed.process_count() == 1 and distributed.process_index() == 0
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    f = mlc.jit(lambda x: (mlc.lax.psum(x, "processes"), mlc.lax.pmean(x, "processes"),
                           mlc.lax.pmax(x, "processes"), mlc.lax.pmin(x, "processes")))
    for got in f(x):
        np.testing.assert_array_equal(got, x)
    assert "hlo.all_reduce" in f.lower(x).as_text()
    assert "MPI_Allreduce" not in f.lower(x).as_text("llvm")
    np.testing.assert_array_equal(distributed.process_shard(x), x)
    assert "mpi4py" not in sys.modules or distributed.communicator() is None


def test_grad_through_pmean_on_one_process():
    g = mlc.jit(mlc.grad(lambda x: mnp.sum(mlc.lax.pmean(x, "processes") ** 2)))
    x = np.array([1.0, -2.0, 3.0], np.float32)
    np.testing.assert_allclose(g(x), 2 * x)


def test_mpi_calls_without_mpi_name_the_missing_functions():
    """MLC_COLLECTIVES=mpi (what the lit tests use) in a process MPI was never loaded into:
    the JIT cannot resolve the MPI functions; the error names them and the fix, instead of
    reporting a missing entry point."""
    code = ("import numpy as np, mlc\n"
            "mlc.jit(lambda x: mlc.lax.psum(x, 'processes'))(np.ones(3, np.float32))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env=dict(os.environ, MLC_COLLECTIVES="mpi", MLC_CACHE="0"))
    assert out.returncode != 0
    assert re.search(r"RuntimeError: the compiled code of 'main' calls functions no loaded library "
                     r"defines: .*MPI_Allreduce.*launch the program with mpiexec", out.stderr), out.stderr


def test_unknown_axis_name_names_the_line():
    def f(x):
        return mlc.lax.psum(x, "batch")  # the line the error names
    line = f.__code__.co_firstlineno + 1
    with pytest.raises(NameError, match=rf"test_distributed.py:{line}: psum: unknown axis name 'batch'"):
        mlc.jit(f)(np.ones(3, np.float32))


def test_collective_of_a_non_array_is_an_error():
    with pytest.raises(TypeError, match=r"test_distributed.py:\d+: pmax: expected an array, got str"):
        mlc.jit(lambda x: mlc.lax.pmax("x", "processes"))(np.ones(3, np.float32))


def test_collective_of_booleans_is_an_error():
    with pytest.raises(TypeError, match=r"hlo.all_reduce: operands must have integer or float elements"):
        mlc.jit(lambda x: mlc.lax.psum(x > 0, "processes"))(np.ones(3, np.float32))


def test_bad_kind_in_ir_is_an_error():
    text = '''func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = "hlo.all_reduce"(%x) {kind = "and"} : (tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}'''
    with pytest.raises(mlc.CompileError, match=r":2:8: error: 'hlo.all_reduce' op kind must be one of add, mul, max, min"):
        mlc.compile(text)


def test_one_process_pbroadcast_is_the_identity():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    f = mlc.jit(lambda v: mlc.lax.pbroadcast(v, "processes", source=0))
    np.testing.assert_array_equal(f(x), x)
    assert '"hlo.collective_broadcast"' in f.lower(x).as_text()
    g = mlc.jit(mlc.grad(lambda v: mnp.sum(mlc.lax.pbroadcast(v, "processes") ** 2)))(x)
    np.testing.assert_allclose(g, 2 * x)


def test_pbroadcast_from_another_process_is_an_error():
    def f(x):
        return mlc.lax.pbroadcast(x, "processes", source=1)  # the line the error names
    line = f.__code__.co_firstlineno + 1
    with pytest.raises(ValueError, match=rf"test_distributed.py:{line}: pbroadcast: source must be process 0"):
        mlc.jit(f)(np.ones(3, np.float32))


def test_pbroadcast_of_a_non_array_is_an_error():
    with pytest.raises(TypeError, match=r"test_distributed.py:\d+: pbroadcast: expected an array, got str"):
        mlc.jit(lambda x: mlc.lax.pbroadcast({"a": "x"}, "processes"))(np.ones(3, np.float32))


def test_combiner_is_off_on_one_process():
    """One process: a collective is the identity, so nothing is packed (it would only copy)."""
    f = mlc.jit(lambda t: mlc.lax.psum(t, "processes"))
    text = f.lower([np.ones(3, np.float32), np.ones(2, np.float32)]).as_text("hlo-optimized")
    assert text.count('"hlo.all_reduce"') == 2 and "tensor.concat" not in text


def test_unloadable_mpi_library_names_the_problem(tmp_path, monkeypatch):
    from mlc.runtime import libraries
    bogus = tmp_path / "libmpi.so.12"
    bogus.write_text("not a library")
    monkeypatch.setenv("MLC_MPI_LIBRARY", str(bogus))
    monkeypatch.setattr(sys, "prefix", str(tmp_path / "no-env"))
    monkeypatch.setattr(libraries, "_MPI_SONAME", "libmpi-that-does-not-exist.so.12")
    with pytest.raises(libraries.MpiLibraryError, match=rf"cannot load an MPICH-ABI MPI library .*"
                                                        rf"MLC_MPI_LIBRARY.*{re.escape(str(bogus))}"):
        libraries.load_mpi.__wrapped__()


def test_collective_timeout_option_and_variable(monkeypatch):
    from mlc import CompileOptions, config
    monkeypatch.setenv("MLC_COLLECTIVE_TIMEOUT", "7.5")
    assert config.default_options().collective_timeout == 7.5
    monkeypatch.setenv("MLC_COLLECTIVE_TIMEOUT", "soon")
    with pytest.raises(ValueError, match="MLC_COLLECTIVE_TIMEOUT must be a number of seconds >= 0, got 'soon'"):
        config.default_options()
    with pytest.raises(ValueError, match="combine_threshold_bytes must be an integer >= 0"):
        CompileOptions(combine_threshold_bytes=-1)


def test_process_shard_needs_an_even_split(monkeypatch):
    monkeypatch.setattr(distributed, "_world", distributed._World(0, 2))
    with pytest.raises(ValueError, match="a batch of 5 along axis 0 does not split evenly over 2"):
        distributed.process_shard(np.zeros((5, 2)))


def test_one_process_gather_and_scatter():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    stacked, tiled, scattered = mlc.jit(lambda v: (
        mlc.lax.all_gather(v, "processes", axis=1), mlc.lax.all_gather(v, "processes", tiled=True),
        mlc.lax.psum_scatter(v, "processes", scatter_dimension=1, tiled=True)))(x)
    np.testing.assert_array_equal(stacked, x[:, None, :])
    np.testing.assert_array_equal(tiled, x)
    np.testing.assert_array_equal(scattered, x)
    g = mlc.jit(mlc.grad(lambda v: mnp.sum(mlc.lax.all_gather(v, "processes") ** 2)))(x)
    np.testing.assert_allclose(g, 2 * x)


def test_psum_scatter_untiled_needs_one_entry_per_process():
    with pytest.raises(ValueError, match=r"test_distributed.py:\d+: psum_scatter: dimension 0 has 2 "
                                         r"entries, not one per process \(1\)"):
        mlc.jit(lambda v: mlc.lax.psum_scatter(v, "processes"))(np.ones((2, 3), np.float32))


# ------------------------------------------------------------------ StableHLO import, one process

def _stablehlo_collective(op: str, groups: str = "dense<[[0]]> : tensor<1x1xi64>", body: str = "add",
                          attrs: str = "") -> str:
    region = ("({\n  ^bb0(%x: tensor<f32>, %y: tensor<f32>):\n"
              f"    %s = stablehlo.{body} %x, %y : tensor<f32>\n    stablehlo.return %s : tensor<f32>\n  }})")
    return ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            f'  %0 = "stablehlo.{op}"(%a) <{{{attrs}replica_groups = {groups}}}> '
            f'{region if op in ("all_reduce", "reduce_scatter") else ""} : (tensor<4xf32>) -> tensor<4xf32>\n'
            "  return %0 : tensor<4xf32>\n}\n")


@pytest.mark.parametrize("op,attrs", [("all_reduce", ""), ("all_gather", "all_gather_dim = 0 : i64, "),
                                      ("reduce_scatter", "scatter_dimension = 0 : i64, "),
                                      ("collective_broadcast", "")])
def test_stablehlo_collectives_over_one_process_are_the_identity(op, attrs):
    """StableHLO collectives over one group of all processes import to hlo's collectives;
    in a one-process job ([[0]], or empty groups) they are the identity."""
    from mlc import stablehlo
    x = np.arange(4, dtype=np.float32)
    for groups in ("dense<[[0]]> : tensor<1x1xi64>", "dense<> : tensor<0x0xi64>"):
        text = _stablehlo_collective(op, groups, attrs=attrs)
        assert f'"hlo.{op}"' in stablehlo.to_hlo(text)
        np.testing.assert_array_equal(mlc.compile(text)(x), x)


@pytest.mark.parametrize("groups,body,message", [
    ("dense<[[0], [1]]> : tensor<2x1xi64>", "add", r"replica_groups \[\[0\], \[1\]\] is not supported: "
                                                  r"collectives run over one group of all processes"),
    ("dense<[[1, 0]]> : tensor<1x2xi64>", "add", r"replica_groups \[\[1, 0\]\] is not supported"),
    ("dense<[[0, 1]]> : tensor<1x2xi64>", "add", "replica_groups has 2 processes, this job has 1"),
    ("dense<[[0]]> : tensor<1x1xi64>", "and", "'stablehlo.all_reduce' with this reduction body is not supported"),
], ids=["two groups", "out of order", "other job size", "and"])
def test_stablehlo_collectives_outside_mpi_are_located_errors(groups, body, message):
    from mlc import stablehlo
    from mlc.stablehlo.errors import StableHloError
    text = _stablehlo_collective("all_reduce", groups, body)
    with pytest.raises(StableHloError, match=r"^c.mlir:2:8: error: .*" + message):
        stablehlo.to_hlo(text, "c.mlir")


def test_stablehlo_all_to_all_is_still_rejected():
    from mlc import stablehlo
    from mlc.stablehlo.errors import StableHloError
    text = ("func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {\n"
            '  %0 = "stablehlo.all_to_all"(%a) <{concat_dimension = 0 : i64, replica_groups = dense<[[0]]> : '
            "tensor<1x1xi64>, split_count = 1 : i64, split_dimension = 0 : i64}> : (tensor<4xf32>) -> tensor<4xf32>\n"
            "  return %0 : tensor<4xf32>\n}\n")
    with pytest.raises(StableHloError, match="'stablehlo.all_to_all': this collective is not supported"):
        stablehlo.to_hlo(text, "c.mlir")
