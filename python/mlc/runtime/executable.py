"""Executable: a JIT-compiled function called with numpy arrays.

The function was lowered in destination-passing style: its results are trailing memref
arguments. A call checks the arguments against the signature, allocates the results with
numpy, stores the data pointers into prebuilt descriptors and calls the C interface
(`_mlir_ciface_<entry>`, one descriptor pointer per argument, see mlc.abi), or, past ctypes'
limit on a call's arguments, its packed interface (one pointer to a table of them).
"""

from __future__ import annotations

import ctypes
import functools
import math
import os
import tempfile
import threading
import weakref
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from mlir import ir
from mlir.execution_engine import ExecutionEngine

from ..abi import (PARALLEL_SYMBOL, SCRATCH_ATTR, argument_count, c_interface, called_symbol, packed_interface_ir,
                   uses_packed_interface)
from .buffer_pool import MIN_BYTES as POOL_MIN_BYTES, POOL, aligned_bytes
from .libraries import jit_shared_libraries, keep_forever
from .llvm_backend import JitLinked, LLVMError, object_code, object_codes
from .memref import (NATIVE_POINTERS_MIN, TensorSpec, checked_argument, data_pointer, data_pointers,
                     make_descriptor)
from .signature_check import argument_check, signature_arrays

# Every live Executable. In a fork() child they are never destroyed: an ExecutionEngine's
# destructor joins JIT worker threads that exist only in the parent, and crashes.
_LIVE: "weakref.WeakSet[Executable]" = weakref.WeakSet()


def _keep_parents_executables() -> None:
    for executable in list(_LIVE):
        keep_forever(executable)


os.register_at_fork(after_in_child=_keep_parents_executables)


class Executable:
    """A compiled entry function. Call it with numpy arrays; it returns numpy arrays.

    Made from object code linked in this process (`from_llvm`, a compile), an
    ExecutionEngine (`from_engine`, CompileOptions(jit="execution-engine")) or a shared
    library (`from_library`, the persistent cache); all call the same C interface."""

    def __init__(self, address: int, entry: str, inputs: Sequence[TensorSpec],
                 outputs: Sequence[TensorSpec], scratch_bytes: int | None = None, parallel: bool = False,
                 owner=None, table: str | None = None):
        """address: the C interface's, or with `table` a packed one's, which takes one
        pointer to a table of the C interface's arguments: "pointers" (MLC's packed
        interface) or "cells" (an ExecutionEngine's: each entry points to an argument)."""
        self.entry = entry
        self.inputs = tuple(inputs)
        self.outputs = tuple(outputs)
        self.scratch_bytes = scratch_bytes
        self.parallel = parallel  # runs parallel loops on MLC's thread pool (runtime/parallel_runtime.c)
        self._owner = owner  # what keeps the code mapped: a JitLinked, an ExecutionEngine (and its module) or a CDLL
        self.object_code: list[bytes] | None = None  # the PIC objects it was linked from (the cache stores them)
        self._descriptors = [make_descriptor(s) for s in self.inputs + self.outputs]
        # A new array per result: a small one from np.empty directly (the pool's call costs
        # more than the array), a large one from the pool.
        self._new_results = []
        for spec in self.outputs:
            nbytes = math.prod(spec.shape) * spec.dtype.itemsize
            self._new_results.append(functools.partial(np.empty, spec.shape, spec.dtype) if nbytes < POOL_MIN_BYTES
                                     else functools.partial(POOL.empty, spec.shape, spec.dtype, nbytes))
        self._scratch = aligned_bytes(scratch_bytes) if scratch_bytes is not None else None
        if self._scratch is not None:  # temporaries live here, faulted in once, reused per call
            scratch = make_descriptor(TensorSpec(self._scratch.shape, self._scratch.dtype))
            scratch.allocated = scratch.aligned = data_pointer(self._scratch)
            self._descriptors.append(scratch)
        n = len(self._descriptors)
        pointers = [ctypes.addressof(d) for d in self._descriptors]
        # The jit fast path checks the arguments' signature natively while storing their data
        # pointers (call_checked; signature_check.py): one native call instead of a key and
        # per-array checks (a 2-array call ~8 -> ~3 us). A call that was checked otherwise
        # stores many arrays' pointers natively too, few in Python (cheaper there). The
        # native check of a call with few arrays is made when first asked for
        # (checks_natively: the jit's second call), not here: making it loads LLVM (~15 ms
        # in a new process), which a first call answered by the persistent cache never needs.
        self._pointer_slots = pointers[:len(self.inputs) + len(self.outputs)]
        self._native = self._targets = self._signature = self._check_native = None
        self._native_tried = False
        self._stores_natively = len(self._pointer_slots) >= NATIVE_POINTERS_MIN and self._bind_native()
        if table is None:
            self._fn = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * n)(address)
            self._arguments = tuple(pointers)
        else:
            if table == "cells":  # each table entry the address of a cell holding the argument
                self._cells = (ctypes.c_void_p * n)(*pointers)
                cell = ctypes.sizeof(ctypes.c_void_p)
                pointers = [ctypes.addressof(self._cells) + cell * i for i in range(n)]
            self._table = (ctypes.c_void_p * n)(*pointers)
            self._fn = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(address)
            self._arguments = (ctypes.addressof(self._table),)
        self._lock = threading.Lock()  # the descriptors are shared by all calls
        _LIVE.add(self)

    @classmethod
    def from_llvm(cls, llvm_module: ir.Module, entry: str, inputs: Sequence[TensorSpec],
                  outputs: Sequence[TensorSpec], opt_level: int = 2, keep_object: bool = False,
                  threads: int = 1, linked_with: Sequence = ()) -> "Executable":
        """Compiles `llvm_module` (the `llvm` stage) to object code with MLC's LLVM pipeline
        (runtime/llvm_backend.py; a big module in parts on `threads` threads) and links it
        into this process, together with `linked_with`'s objects (precompiled functions it
        calls: each has `.code`, `.symbol` and `.externals`). keep_object: keep the objects
        in `.object_code` (for the persistent cache's library)."""
        from mlir.dialects.llvm import translate_module_to_llvmir
        info = with_linked(describe(llvm_module, entry), linked_with)
        llvm_ir = str(translate_module_to_llvmir(llvm_module.operation))
        # What the code calls is loaded before it is linked; MLIR's runner utilities (they
        # pull in libMLIR.so, ~35 ms) only when a symbol is missing without them.
        jit_shared_libraries(runner_utils=False)
        arguments = argument_count(inputs, outputs, info.scratch_bytes)
        packed = uses_packed_interface(arguments)
        try:
            code = object_codes(llvm_ir, opt_level, threads=threads) + [obj.code for obj in linked_with]
            if packed:
                code.append(_trampoline(entry, arguments))
        except LLVMError as e:
            raise RuntimeError(f"LLVM failed on the compiled module: {e}") from None
        symbol = called_symbol(entry, arguments)
        try:
            linked, address = _link(code, symbol)
        except LLVMError:
            jit_shared_libraries()
            try:
                linked, address = _link(code, symbol)
            except LLVMError as e:
                raise RuntimeError(_lookup_failure(entry, info.externals, str(e))) from None
        llvm_module.context.enable_multithreading(False)  # see from_engine
        executable = cls(address, entry, inputs, outputs, info.scratch_bytes, info.parallel, owner=linked,
                         table="pointers" if packed else None)
        executable.externals = info.externals
        executable.object_code = code if keep_object else None
        return executable

    @classmethod
    def from_engine(cls, llvm_module: ir.Module, entry: str, inputs: Sequence[TensorSpec],
                    outputs: Sequence[TensorSpec], opt_level: int = 2, keep_object: bool = False,
                    threads: int = 1) -> "Executable":
        """JIT-compiles `llvm_module` (the `llvm` stage) with MLIR's ExecutionEngine (LLVM's
        -O<opt_level> pipeline). keep_object: as from_llvm (the engine's object is then
        position independent)."""
        info = describe(llvm_module, entry)
        engine = ExecutionEngine(llvm_module, opt_level=opt_level, shared_libs=jit_shared_libraries(),
                                 enable_pic=keep_object)
        # raw_lookup(name) finds `_mlir_<name>`: the C interface itself, not the engine's
        # packed wrapper of it, is `_mlir_` + "ciface_" + entry. Past ctypes' limit on a
        # call's arguments, the wrapper (`_mlir__mlir_ciface_<entry>`: one table of pointers
        # to the arguments) is what is called.
        arguments = argument_count(inputs, outputs, info.scratch_bytes)
        packed = uses_packed_interface(arguments)
        address = engine.raw_lookup(c_interface(entry) if packed else c_interface(entry)[len("_mlir_"):])
        if not address:
            raise RuntimeError(_lookup_failure(entry, info.externals))
        # Compiling is over: stop the context's pass-manager threads. Otherwise every cached
        # executable would keep its own idle workers (2 per signature on 2 cores). Calls run
        # parallel loops on the one process-wide pool (runtime/parallel_runtime.c).
        llvm_module.context.enable_multithreading(False)
        executable = cls(address, entry, inputs, outputs, info.scratch_bytes, info.parallel,
                         owner=(engine, llvm_module),  # the engine refers to IR owned by the module's context
                         table="cells" if packed else None)
        executable.externals = info.externals
        if keep_object:
            with tempfile.TemporaryDirectory(prefix="mlc-object-") as tmp:
                path = os.path.join(tmp, "module.o")
                engine.dump_to_object_file(path)
                with open(path, "rb") as f:
                    executable.object_code = [f.read()]
            if packed:  # the persistent cache's library is called through MLC's trampoline
                executable.object_code.append(_trampoline(entry, arguments))
        return executable

    @classmethod
    def from_library(cls, library: ctypes.CDLL, entry: str, inputs: Sequence[TensorSpec],
                     outputs: Sequence[TensorSpec], scratch_bytes: int | None = None, parallel: bool = False
                     ) -> "Executable":
        """The entry of a shared library made from an engine's object code (its runtime
        dependencies loaded first, see native_library.load)."""
        arguments = argument_count(inputs, outputs, scratch_bytes)
        packed = uses_packed_interface(arguments)
        try:
            function = getattr(library, called_symbol(entry, arguments))
        except AttributeError:
            raise RuntimeError(f"the library has no {'packed' if packed else 'C'} interface for '{entry}'") from None
        address = ctypes.cast(function, ctypes.c_void_p).value
        return cls(address, entry, inputs, outputs, scratch_bytes, parallel, owner=library,
                   table="pointers" if packed else None)

    @property
    def engine(self) -> ExecutionEngine | None:
        owner = self._owner
        return owner[0] if isinstance(owner, tuple) else None

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

    def __call__(self, *args, outputs: dict | None = None):
        """The results of the entry on `args`. `outputs` {k: array} hands result k's out-param
        in instead of allocating one (a donated result: the code leaves it unwritten and the
        caller returns the donated argument, see frontend/stages.py)."""
        if len(args) != len(self.inputs):
            raise TypeError(f"{self.signature} takes {len(self.inputs)} arguments, got {len(args)}")
        # The common case, checked inline: a C-contiguous ndarray of the right shape and dtype.
        arrays = [a if (type(a) is np.ndarray and a.dtype == s.dtype and a.shape == s.shape
                        and a.flags.c_contiguous) else self._check(i, a, s)
                  for i, (a, s) in enumerate(zip(args, self.inputs))]
        return self._invoke(arrays, outputs)

    def call_matched(self, args):
        """__call__ on arguments whose shapes and dtypes are the signature's, known from a jit
        cache key that matched them: only an exact ndarray's layout is checked here (anything
        else gets __call__'s whole check)."""
        arrays = [a if type(a) is np.ndarray and a.flags.c_contiguous else self._check(i, a, s)
                  for i, (a, s) in enumerate(zip(args, self.inputs))]
        return self._invoke(arrays, None)

    def call_checked(self, args: tuple):
        """The results on `args`, a tuple of exact C-contiguous ndarrays of the signature's
        shapes and dtypes, checked natively while their pointers are stored
        (runtime/signature_check.py); None, having called nothing, when one is not that
        (the caller then takes the checking path) or the check is unavailable here."""
        if self._check_native is None or len(args) != len(self.inputs):
            return None
        results = tuple([new() for new in self._new_results])
        with self._lock:
            if self._check_native(args, results) >= 0:
                return None
            self._fn(*self._arguments)
        return results[0] if len(results) == 1 else results

    @property
    def checks_natively(self) -> bool:
        """Whether call_checked can run here (the native check available, dtypes it
        compares whole); the first time, makes the check for a call with few arrays."""
        if not self._native_tried:
            self._bind_native()
        return self._check_native is not None

    def _bind_native(self) -> bool:
        """The native check and pointer store for this executable's descriptors; whether
        they are available (argument_check is made once per process)."""
        self._native_tried = True
        native = argument_check()
        if native is None:
            return False
        self._targets = (ctypes.c_void_p * len(self._pointer_slots))(*self._pointer_slots)
        self._signature = signature_arrays(self.inputs)
        self._check_native = native.checker(self._targets, *self._signature) if self._signature is not None else None
        self._native = native
        return True

    def _results(self, outputs: dict | None) -> list:
        """The result arrays of a call: `outputs[k]` where given (a donated argument), else new."""
        return [outputs[k] if outputs and k in outputs else new() for k, new in enumerate(self._new_results)]

    def _invoke(self, arrays: list, outputs: dict | None):
        results = self._results(outputs)
        with self._lock:
            if self._stores_natively:
                self._native.store(self._targets, arrays + results)  # (the list alive until the call returns)
            else:
                for desc, pointer in zip(self._descriptors, data_pointers(arrays + results)):
                    desc.allocated = desc.aligned = pointer
            self._fn(*self._arguments)
        return results[0] if len(results) == 1 else tuple(results)


def _trampoline(entry: str, arguments: int) -> bytes:
    """The object code of `entry`'s packed interface (abi.packed_interface_ir), at -O0: fast
    instruction selection, linear in its size."""
    return object_code(packed_interface_ir(entry, arguments), 0, pipeline="always-inline")


def _link(code: list[bytes], symbol: str) -> tuple[JitLinked, int]:
    """The objects linked into this process and the address of `symbol` (the entry's
    interface); LLVMError naming what is missing (linking happens at the first lookup)."""
    linked = JitLinked(code)
    return linked, linked.address(symbol)


def _lookup_failure(entry: str, externals: tuple[str, ...], llvm_message: str = "") -> str:
    """Why the JIT found no entry: usually a function the code calls that no loaded
    library defines (the JIT then drops the whole module). Every library MLC links against
    is loaded RTLD_GLOBAL, so the process's own symbol table is what the JIT searched."""
    process = ctypes.CDLL(None)
    missing = [name for name in externals if not hasattr(process, name)]
    if not missing:
        return f"the compiled module has no C interface for '{entry}'" + (f" ({llvm_message})" if llvm_message else "")
    hint = ""
    if any(name.startswith("MPI_") for name in missing):
        hint = (" (the code has MPI collectives: launch the program with mpiexec and call "
                "mlc.distributed.initialize() first, or unset MLC_COLLECTIVES)")
    return (f"the compiled code of '{entry}' calls functions no loaded library defines: "
            f"{', '.join(missing)}{hint}")


@dataclass(frozen=True)
class ModuleInfo:
    """What the runtime needs to know about a compiled entry, read off its `llvm` stage."""

    scratch_bytes: int | None  # the scratch buffer the entry takes last (None: none)
    parallel: bool  # runs parallel loops on MLC's thread pool
    externals: tuple[str, ...]  # functions it calls that the module does not define


def describe(llvm_module: ir.Module, entry: str) -> ModuleInfo:
    """Read off the module's top level: the `llvm` stage ends with symbol-dce, so every
    function it still declares is one its code calls (or takes the address of)."""
    scratch, declared = None, set()
    for op in llvm_module.body.operations:
        attrs = op.operation.attributes
        if "sym_name" not in attrs or op.operation.name != "llvm.func":
            continue
        name = ir.StringAttr(attrs["sym_name"]).value
        if name == entry and SCRATCH_ATTR in attrs:
            scratch = ir.IntegerAttr(attrs[SCRATCH_ATTR]).value
        if not len(op.regions[0].blocks):
            declared.add(name)
    externals = tuple(sorted(declared))
    return ModuleInfo(scratch, PARALLEL_SYMBOL in externals, externals)


def with_linked(info: ModuleInfo, linked_with: Sequence) -> ModuleInfo:
    """`info` of a module linked together with precompiled objects: the functions they
    define are no longer external, the ones they call are."""
    if not linked_with:
        return info
    defined = {obj.symbol for obj in linked_with}
    externals = tuple(sorted({e for e in info.externals if e not in defined}
                             | {e for obj in linked_with for e in obj.externals}))
    return ModuleInfo(info.scratch_bytes, PARALLEL_SYMBOL in externals, externals)
