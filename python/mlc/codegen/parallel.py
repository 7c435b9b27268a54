"""Both cores: when a kernel's outer loop is worth sharing between threads (the rules the
strategies ask: mlc-vectorize, mlc-row-fusion, the matmul kernels). The loops they make
`scf.forall` run on the async runtime (async_parallel.py), or on one thread in a function
that calls BLAS (sequential_beside_blas.py).

The thread count is MLC_NUM_THREADS, else the cores this process may run on; it is read at
compile time. MLC_NUM_THREADS=1 compiles single-threaded code.
"""

from __future__ import annotations

# A kernel is shared between threads when its work, loop iterations x the per-iteration
# cost of its body (`body_cost`), reaches PARALLEL_MIN_WORK: waking the async runtime's
# workers and joining them costs 40-100 us on this 2-core VM, and a parallel loop costs
# 20-30 ms of LLVM compile time (the outlined body, the coroutine and its dispatch: the
# 40-op chain of compile_time.py 68 ms first call on one thread, 95 on two, 2026-12-04).
# Measured, p25 of 300 interleaved calls,
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
