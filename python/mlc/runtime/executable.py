"""Executable: a JIT-compiled function called with numpy arrays.

The function was lowered in destination-passing style: its results are trailing memref
arguments. A call checks the arguments against the signature, allocates the results with
numpy, stores the data pointers into prebuilt descriptors and calls the packed C interface
(`_mlir__mlir_ciface_<entry>`, which takes an array of pointers to the argument slots).
"""

from __future__ import annotations

import ctypes
import math
import os
import threading
import weakref
from typing import Sequence

import numpy as np
from mlir import ir
from mlir.execution_engine import ExecutionEngine

from ..conversion.preallocate_temporaries import SCRATCH_ATTR
from .buffer_pool import POOL, aligned_bytes
from .libraries import FORK_STATE, jit_shared_libraries, keep_forever
from .memref import TensorSpec, checked_argument, data_pointer, make_descriptor

_PACKED_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p)

# Every live Executable. In a fork() child they are never destroyed: an ExecutionEngine's
# destructor joins JIT worker threads that exist only in the parent, and crashes.
_LIVE: "weakref.WeakSet[Executable]" = weakref.WeakSet()


def _keep_parents_executables() -> None:
    for executable in list(_LIVE):
        keep_forever(executable)


os.register_at_fork(after_in_child=_keep_parents_executables)


class Executable:
    """A compiled entry function. Call it with numpy arrays; it returns numpy arrays."""

    def __init__(self, llvm_module: ir.Module, entry: str, inputs: Sequence[TensorSpec],
                 outputs: Sequence[TensorSpec], opt_level: int = 2):
        self.entry = entry
        self.inputs = tuple(inputs)
        self.outputs = tuple(outputs)
        self._module = llvm_module  # the engine refers to IR owned by this module's context
        self._engine = ExecutionEngine(llvm_module, opt_level=opt_level,
                                       shared_libs=jit_shared_libraries())
        address = self._engine.raw_lookup("_mlir_ciface_" + entry)
        if not address:
            raise RuntimeError(f"the compiled module has no C interface for '{entry}'")
        self._fn = _PACKED_FN(address)
        # Compiling is over: stop the context's pass-manager threads. Otherwise every cached
        # executable would keep its own idle workers (2 per signature on 2 cores). Calls run
        # parallel loops on the one process-wide async runtime pool (see libraries.py).
        llvm_module.context.enable_multithreading(False)
        self._descriptors = [make_descriptor(s) for s in self.inputs + self.outputs]
        self._output_bytes = [math.prod(s.shape) * s.dtype.itemsize for s in self.outputs]
        self._scratch = _scratch_buffer(llvm_module, entry)
        if self._scratch is not None:  # temporaries live here, faulted in once, reused per call
            scratch = make_descriptor(TensorSpec(self._scratch.shape, self._scratch.dtype))
            scratch.allocated = scratch.aligned = data_pointer(self._scratch)
            self._descriptors.append(scratch)
        n = len(self._descriptors)
        # slot i holds a pointer to descriptor i; the packed array holds pointers to the slots.
        self._slots = (ctypes.c_void_p * n)(*[ctypes.addressof(d) for d in self._descriptors])
        base = ctypes.addressof(self._slots)
        self._packed = (ctypes.c_void_p * n)(*[base + i * ctypes.sizeof(ctypes.c_void_p)
                                               for i in range(n)])
        self._lock = threading.Lock()  # the descriptors are shared by all calls
        # Parallel loops run on the async runtime's thread pool, which a fork() child lacks.
        self.parallel = _declares(llvm_module, "mlirAsyncRuntimeExecute")
        self._fork_generation = FORK_STATE["generation"]
        _LIVE.add(self)

    @property
    def signature(self) -> str:
        ins = ", ".join(map(str, self.inputs))
        outs = ", ".join(map(str, self.outputs))
        return f"{self.entry}({ins}) -> ({outs})"

    def _check(self, i: int, value, spec: TensorSpec) -> np.ndarray:
        array = checked_argument(i, value, spec, self.signature)
        if not array.flags.c_contiguous:
            array = array.copy(order="C")
        return array

    def __call__(self, *args):
        if len(args) != len(self.inputs):
            raise TypeError(f"{self.signature} takes {len(self.inputs)} arguments, got {len(args)}")
        # The common case, checked inline: a C-contiguous ndarray of the right shape and dtype.
        arrays = [a if (type(a) is np.ndarray and a.dtype == s.dtype and a.shape == s.shape
                        and a.flags.c_contiguous) else self._check(i, a, s)
                  for i, (a, s) in enumerate(zip(args, self.inputs))]
        if self.parallel and FORK_STATE["generation"] != self._fork_generation:
            raise RuntimeError(f"{self.signature} runs parallel loops on the thread pool of the process "
                               f"that compiled it; this forked child has none of its threads (the call "
                               f"would hang). Compile it again in the child (mlc.jit functions do that "
                               f"by themselves), or start workers with the 'spawn' method.")
        results = [POOL.empty(s.shape, s.dtype, n) for s, n in zip(self.outputs, self._output_bytes)]
        with self._lock:
            for desc, array in zip(self._descriptors, arrays + results):
                desc.allocated = desc.aligned = data_pointer(array)
            self._fn(self._packed)
        return results[0] if len(results) == 1 else tuple(results)


def _declares(llvm_module: ir.Module, symbol: str) -> bool:
    for op in llvm_module.body.operations:
        attrs = op.operation.attributes
        if "sym_name" in attrs and ir.StringAttr(attrs["sym_name"]).value == symbol:
            return True
    return False


def _scratch_buffer(llvm_module: ir.Module, entry: str) -> np.ndarray | None:
    """The 64-byte aligned scratch array the entry function asks for with
    `mlc.scratch_bytes` (see mlc-preallocate-temporaries), or None."""
    for op in llvm_module.body.operations:
        attrs = op.operation.attributes
        if "sym_name" in attrs and ir.StringAttr(attrs["sym_name"]).value == entry:
            if SCRATCH_ATTR not in attrs:
                return None
            return aligned_bytes(ir.IntegerAttr(attrs[SCRATCH_ATTR]).value)
    return None
