"""Both cores: when a kernel's outer loop is worth sharing between threads (the rules the
strategies ask: mlc-vectorize, mlc-row-fusion, the matmul kernels). The loops they make
`scf.forall` run on MLC's thread pool (parallel_outline.py, runtime/parallel_runtime.c), or
on one thread in a function that calls BLAS (sequential_beside_blas.py).

The thread count is MLC_NUM_THREADS, else the cores this process may run on; it is read at
compile time. MLC_NUM_THREADS=1 compiles single-threaded code.
"""

from __future__ import annotations

# A kernel is shared between threads when its work, loop iterations x the per-iteration
# cost of its body (`body_cost`), reaches PARALLEL_MIN_WORK. MLC's pool hands a loop to
# workers that are still spinning from the last one in about a microsecond, and a parallel
# loop costs an outlined function (no coroutines) at compile time. Measured 2026-12-05, p25
# of 300 interleaved calls, one thread against two (2 cores, AVX-512): x * 2 + 1 (cost 2)
# on 2^14 f32 5.7 against 5.5 us, 2^16 10.0 against 7.4, 2^18 29 against 19; tanh (cost 6)
# on 2^14 10.4 against 7.8, 2^16 29 against 17; sum(x * x + 1, rows) on 2^14 5.0 against
# 5.0, 2^16 7.2 against 6.0. (On MLIR's async runtime, which MLC used before, waking the
# workers cost 40-100 us and the floor was 2^22.)
PARALLEL_MIN_WORK = 1 << 16
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
