"""MLC's thread pool (runtime/parallel_runtime.c) called directly through ctypes: every block
runs exactly once, whatever the block and thread counts, nested and concurrent loops
included."""

from __future__ import annotations

import ctypes
import threading
from collections import Counter

import pytest

from mlc.runtime.parallel_runtime import PARALLEL_BODY as BODY


@pytest.fixture(scope="module")
def runtime(parallel_library):
    return parallel_library.mlc_parallel_for


def run(runtime, blocks: int, threads: int, inner=None) -> Counter:
    seen: Counter = Counter()
    lock = threading.Lock()

    @BODY
    def body(_context, block):
        if inner is not None:
            inner(block)
        with lock:
            seen[block] += 1

    runtime(body, None, blocks, threads)
    return seen


@pytest.mark.parametrize("threads", [1, 2, 3, 8])
@pytest.mark.parametrize("blocks", [0, 1, 2, 3, 7, 64, 1000])
def test_every_block_runs_once(runtime, blocks, threads):
    assert run(runtime, blocks, threads) == Counter(range(blocks))


def test_more_blocks_than_one_loop_shares_run_alone(runtime):
    # Above the 16-bit block count the pool's state word holds, the caller runs them all.
    assert run(runtime, 70_000, 2) == Counter(range(70_000))


def test_a_loop_inside_a_block_runs_alone_and_completes(runtime):
    inner_counts = []

    def inner(block):
        inner_counts.append(run(runtime, 5, 2))

    assert run(runtime, 4, 2, inner) == Counter(range(4))
    assert inner_counts == [Counter(range(5))] * 4


def test_two_threads_share_the_pool(runtime):
    results, errors = [], []

    def caller():
        try:
            for _ in range(50):
                results.append(run(runtime, 16, 2) == Counter(range(16)))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=caller) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not errors and len(results) == 100 and all(results)
