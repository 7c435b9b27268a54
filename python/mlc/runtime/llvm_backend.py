"""LLVM IR -> object code -> code in memory, through LLVM's C API (runtime/llvm_c.py).

    object_code(llvm_ir, opt_level, cpu)   parse, run MLC's LLVM pipeline, emit a PIC object
    object_codes(llvm_ir, ..., threads)    the same for a big module cut into parts by function,
                                           compiled on `threads` threads at once
    JitLinked(objects)                     ORC's LLJIT links them in this process; .address(symbol)

The same object feeds the JIT, the persistent cache's shared library and an exported
library. Parallel code generation (as XLA:CPU splits its LLVM module): ctypes releases the GIL in
every LLVM call, so the parts of a module compile on as many threads at once. A module is
cut at function boundaries (`split_module`): each part keeps the module's globals,
declarations and attributes, its share of the functions (balanced by size, each made
external so the other parts can call it) and a declaration of the others; the always-inline
math helpers go into every part. A function's size counts the helpers it will inline at each
call. A module is cut only when its lightest part would still have SPLIT_MIN_PART lines:
what a part saves is the lightest part's code generation, what it costs is ~2 ms per part
(a module, a target machine, the copied helpers), more CPU time for less wall time.

Why not MLIR's ExecutionEngine (kept as CompileOptions(jit="execution-engine")):
it runs LLVM's whole -O2 pipeline, which re-does what MLC's passes did (vectorization,
unrolling, ~8 InstCombine runs over the inlined math polynomials) and cost 40-60% of
LLVM's time; its pipeline cannot be chosen from Python; and it holds the GIL throughout.

LLVM_PIPELINES: what runs on the IR per opt_level. At 1 and 2 MLC's own pipeline: MLC's
passes already tiled, vectorized and unrolled the code (mlc-cpu-codegen, mlc-unroll-budget),
so LLVM is asked for what only it can do on the flat IR: inline the math helpers
(always-inline), promote the few stack slots (sroa), fold and clean up the lowering's
address arithmetic and constants (early-cse, instcombine, simplifycfg), rotate loops and
hoist their invariants (loop-rotate, licm), fully unroll small constant loops where
mlc-unroll-budget allows (loop-unroll-full), remove redundant loads (gvn), and vectorize
the scalar loops MLC leaves (loop-vectorize). The last two are there for code MLC does not
vectorize itself: the packed GEMM's transposed A-panel copy (six rows interleaved; a
(512,512)x(512,64) product runs 1.4x slower without loop-vectorize) and pooling windows
(a 3x3 max pool is 16x slower unless its window loops are unrolled and the channel loop
vectorized). Left out: partial unrolling (loop-unroll<O2>: layer_norm 4096x1024 3% faster,
its first call 15% slower), the SLP vectorizer (no gain measured) and induction-variable
simplification (indvars: 10% of LLVM's time on the corpus's modules, up to 8.6 ms in one
function; run times without it within the noise, the corpus, the benchmark table and 74
ops alternated in one process: median ratio 1.00, all but sort rows (0.99-1.07x) within
5% on a rerun). At 3, LLVM's whole
-O3 pipeline; the tests compare these pipelines' results with the ExecutionEngine's.

CODEGEN_FLAGS: libLLVM's options for its code generator, set once per process before the
first compile. -disable-lsr: Loop Strength Reduction was 10-25% of code generation (conv2d:
10 of 42 ms), rewriting the address arithmetic of loops MLC already gave pointer-like
induction variables; without it, the compile of the corpus's blocks and the benchmark
table's rows took 7% less in all (3.67 -> 3.41 s) and their run times, 7 runs of each
alternating processes, moved within the noise (geomean of the best runs 0.99; 74 ops 1.00).
"""

from __future__ import annotations

import atexit
import concurrent.futures
import contextlib
import ctypes
import functools
import threading

from . import llvm_c
from .llvm_c import LLVMError

_CLEANUP = ("function(sroa,early-cse<memssa>,instcombine<no-verify-fixpoint>,simplifycfg,"
            "loop-mssa(loop-rotate,licm),loop(loop-deletion,loop-unroll-full),gvn,loop-vectorize,"
            "instcombine<no-verify-fixpoint>,simplifycfg)")
LLVM_PIPELINES = {
    0: "always-inline",
    1: "always-inline," + _CLEANUP,
    2: "always-inline," + _CLEANUP,
    3: "default<O3>",
}


CODEGEN_FLAGS = ("-disable-lsr",)


@functools.cache
def _set_codegen_flags() -> None:
    """CODEGEN_FLAGS, once: libLLVM counts each option's occurrences per process."""
    lib = llvm_c.library()
    argv = [b"mlc", *(flag.encode() for flag in CODEGEN_FLAGS)]
    lib.ParseCommandLineOptions(len(argv), (ctypes.c_char_p * len(argv))(*argv), None)


@functools.cache
def host_cpu() -> tuple[str, str]:
    """(LLVM's name of the host CPU, its feature string): what the JIT compiles for."""
    lib = llvm_c.library()
    return lib.take_message(lib.GetHostCPUName()), lib.take_message(lib.GetHostCPUFeatures())


@functools.cache
def _target() -> tuple[bytes, int]:
    lib = llvm_c.library()
    triple = lib.take_message(lib.GetDefaultTargetTriple()).encode()
    target, message = ctypes.c_void_p(), ctypes.c_void_p()
    if lib.GetTargetFromTriple(triple, ctypes.byref(target), ctypes.byref(message)):
        raise LLVMError(lib.take_message(message))
    return triple, target.value


def object_code(llvm_ir: str, opt_level: int = 2, cpu: str | None = None, features: str | None = None,
                pipeline: str | None = None) -> bytes:
    """The position-independent object code of `llvm_ir` (textual LLVM IR) for `cpu` with
    `features` (default: the host's; a named CPU alone takes that CPU's features), after
    `pipeline` (default: LLVM_PIPELINES[opt_level]). LLVMError on invalid IR or pipeline."""
    lib = llvm_c.library()
    _set_codegen_flags()
    if cpu is None:
        cpu, host_features = host_cpu()
        features = host_features if features is None else features
    context = lib.ContextCreate()
    try:
        with _MACHINES.borrow(cpu, features or "", opt_level) as machine:
            module = _parse(lib, context, llvm_ir)
            layout = lib.CreateTargetDataLayout(machine)
            lib.SetModuleDataLayout(module, layout)
            lib.DisposeTargetData(layout)
            lib.SetTarget(module, _target()[0])
            options = lib.CreatePassBuilderOptions()
            try:
                lib.check(lib.RunPasses(module, (pipeline or LLVM_PIPELINES[opt_level]).encode(), machine, options))
            finally:
                lib.DisposePassBuilderOptions(options)
            message, buffer = ctypes.c_void_p(), ctypes.c_void_p()
            if lib.TargetMachineEmitToMemoryBuffer(machine, module, llvm_c.OBJECT_FILE,
                                                   ctypes.byref(message), ctypes.byref(buffer)):
                raise LLVMError(lib.take_message(message))
        try:
            return ctypes.string_at(lib.GetBufferStart(buffer), lib.GetBufferSize(buffer))
        finally:
            lib.DisposeMemoryBuffer(buffer)
    finally:
        lib.ContextDispose(context)  # and the module it owns


class _MachinePool:
    """Target machines kept for reuse, one per (cpu, features, opt_level) for each compile
    running at once: making one parses the feature string and builds the target's lowering
    tables, ~0.6 ms of a tiny module's 1.5 ms of code generation. A machine serves one
    compile at a time (borrow), so parts compiled on several threads take one each."""

    def __init__(self):
        self._free: dict[tuple, list[int]] = {}
        self._lock = threading.Lock()

    @contextlib.contextmanager
    def borrow(self, cpu: str, features: str, opt_level: int):
        key = (cpu, features, opt_level)
        with self._lock:
            free = self._free.setdefault(key, [])
            machine = free.pop() if free else None
        if machine is None:
            lib = llvm_c.library()
            triple, target = _target()
            machine = lib.CreateTargetMachine(target, triple, cpu.encode(), features.encode(),
                                              opt_level, llvm_c.RELOC_PIC,  # LLVMCodeGenOptLevel 0..3 = -O0..-O3
                                              llvm_c.CODE_MODEL_DEFAULT)
        try:
            yield machine
        finally:
            with self._lock:
                self._free[key].append(machine)


_MACHINES = _MachinePool()


# The lines of function IR (helpers counted where inlined) the lightest part must get for a
# cut. Measured on 2 threads on the corpus's modules: lightest parts of 400-560 lines saved
# 9-26 ms of wall time for 5-7 ms more CPU time (mlp_block, softmax_xent, conv2d,
# gru_cell); of 200-320 lines, 3-7 ms (patch_embed, lstm_cell, swiglu_ffn).
SPLIT_MIN_PART = 380
# Linkages a part's function is defined without (then external: one strong definition the
# other parts call) - a declaration may carry none of them. linkonce_odr: the functions
# convert-math-to-funcs outlines (integer powers), which would also be dropped where unused.
_DROPPED_LINKAGE = ("internal ", "private ", "linkonce_odr ", "linkonce ", "weak_odr ", "weak ")


def object_codes(llvm_ir: str, opt_level: int = 2, cpu: str | None = None, features: str | None = None,
                 pipeline: str | None = None, threads: int = 1) -> list[bytes]:
    """object_code of each part of `llvm_ir` (split_module into up to `threads` parts),
    compiled on that many threads at once."""
    parts = split_module(llvm_ir, threads) if threads > 1 else [llvm_ir]
    if len(parts) == 1:
        return [object_code(llvm_ir, opt_level, cpu, features, pipeline)]
    with concurrent.futures.ThreadPoolExecutor(len(parts), thread_name_prefix="mlc-llvm") as pool:
        return list(pool.map(lambda part: object_code(part, opt_level, cpu, features, pipeline), parts))


def split_module(llvm_ir: str, parts: int) -> list[str]:
    """`llvm_ir` (LLVM's own printing of a module) as up to `parts` modules that together
    define each function once (see the module docstring); [llvm_ir] when not worth it or
    not safe (a mutable global local to the module would be duplicated)."""
    lines = llvm_ir.split("\n")
    if len(lines) < SPLIT_MIN_PART or parts < 2:
        return [llvm_ir]
    rest, functions = [], []
    i = 0
    while i < len(lines):
        if lines[i].startswith("define "):
            end = lines.index("}", i)
            functions.append(lines[i:end + 1])
            i = end + 1
        else:
            rest.append(lines[i])
            i += 1
    if not all(_copyable_global(line) for line in rest if line.startswith("@")):
        return [llvm_ir]
    inline_groups = {line.split()[1] for line in rest
                     if line.startswith("attributes #") and "alwaysinline" in line}
    helpers, shared = [], []
    for f in functions:
        inlined = f[0].startswith("define internal ") and any(f" {g} " in f[0] + " " for g in inline_groups)
        (helpers if inlined else shared).append(f)
    weights = list(map(_inlined_size(helpers), shared))
    bins: list[list[int]] = [[] for _ in range(parts)]  # indices into `shared`
    sizes = [0] * parts
    for i in sorted(range(len(shared)), key=weights.__getitem__, reverse=True):
        lightest = sizes.index(min(sizes))  # largest first, into the lightest part
        bins[lightest].append(i)
        sizes[lightest] += weights[i]
    if min(sizes) < SPLIT_MIN_PART:  # (an empty part among them)
        return [llvm_ir]
    modules = []
    for mine in map(set, bins):
        code = []
        for f in helpers:
            code += f
        for i, f in enumerate(shared):
            if i in mine:
                code += [_external(f[0])] + f[1:]
            else:
                code.append("declare " + _external(f[0])[len("define "):].rsplit(" {", 1)[0])
        text = "\n".join(code)
        # A local constant goes only where it is used (a big one is parsed once, not per part).
        kept = [line for line in rest if not line.startswith("@") or " = external " in line
                or line.split(" = ", 1)[0] in text]
        modules.append("\n".join(kept + code))
    return modules


def _inlined_size(helpers: list[list[str]]):
    """size(function's lines): its lines plus, at each call of an always-inline helper, that
    helper's size (what code generation sees after always-inline; a helper that reaches
    itself again counts once)."""
    bodies = {f[0].split("@", 1)[1].split("(", 1)[0]: f for f in helpers}
    known: dict[str, int] = {}

    def size(function: list[str], visiting: frozenset = frozenset()) -> int:
        total = len(function)
        for line in function:
            callee = line.split("call ", 1)[1].split("@", 1)[-1].split("(", 1)[0] if "call " in line else ""
            if callee in bodies and callee not in visiting:
                if callee not in known:
                    known[callee] = size(bodies[callee], visiting | {callee})
                total += known[callee]
        return total
    return size


def _copyable_global(line: str) -> bool:
    """A global every part may have its own copy of: a local constant, or a declaration of
    one defined elsewhere. A mutable local global would be two variables, an exported
    definition two symbols of one name."""
    _, _, definition = line.partition(" = ")
    words = definition.split()
    if words and words[0] == "external":
        return True
    local = bool(words) and words[0] in ("internal", "private")
    return local and "constant" in words[:4] and "global" not in words[:4]


def _external(define_line: str) -> str:
    """A `define` line with its local or discardable linkage dropped (so other parts can
    call it, and declare it)."""
    for linkage in _DROPPED_LINKAGE:
        if define_line.startswith("define " + linkage):
            return "define " + define_line[len("define " + linkage):]
    return define_line


def _parse(lib, context, llvm_ir: str):
    data = llvm_ir.encode()
    buffer = lib.CreateMemoryBufferWithMemoryRangeCopy(data, len(data), b"mlc")
    module, message = ctypes.c_void_p(), ctypes.c_void_p()
    if lib.ParseIRInContext(context, buffer, ctypes.byref(module), ctypes.byref(message)):  # takes the buffer
        raise LLVMError(f"invalid LLVM IR: {lib.take_message(message)}")
    return module


# At interpreter exit LLVM's own static destructors may already have run when the last
# JitLinked objects are collected: their code is then left mapped instead of freed.
_EXITING = threading.Event()
atexit.register(_EXITING.set)


@llvm_c.ERROR_REPORTER
def _DROP_ERROR(context, error):  # noqa: N802 - a C callback, alive as long as the module
    llvm_c.library().ConsumeError(error)


class JitLinked:
    """Object code (one object or several that call each other) linked into this process by
    its own ORC LLJIT (other external symbols resolve against the libraries loaded
    RTLD_GLOBAL, see libraries.jit_shared_libraries). The code stays mapped while this
    object lives."""

    def __init__(self, objects: bytes | list[bytes]):
        lib = llvm_c.library()
        jit = ctypes.c_void_p()
        lib.check(lib.OrcCreateLLJIT(ctypes.byref(jit), lib.OrcCreateLLJITBuilder()))  # takes the builder
        self._jit = jit.value
        # A missing symbol fails the lookup, whose error names it: not printed to stderr too.
        lib.OrcExecutionSessionSetErrorReporter(lib.OrcLLJITGetExecutionSession(self._jit),
                                                ctypes.cast(_DROP_ERROR, ctypes.c_void_p), None)
        dylib = lib.OrcLLJITGetMainJITDylib(self._jit)
        generator = ctypes.c_void_p()
        lib.check(lib.OrcCreateDynamicLibrarySearchGeneratorForProcess(
            ctypes.byref(generator), lib.OrcLLJITGetGlobalPrefix(self._jit), None, None))
        lib.OrcJITDylibAddGenerator(dylib, generator)  # takes the generator
        for code in [objects] if isinstance(objects, bytes) else objects:
            buffer = lib.CreateMemoryBufferWithMemoryRangeCopy(code, len(code), b"mlc-object")
            lib.check(lib.OrcLLJITAddObjectFile(self._jit, dylib, buffer))  # takes the buffer

    def address(self, symbol: str) -> int:
        """The address of `symbol` (linking the object on first lookup); LLVMError naming
        what is missing when the object calls a function no loaded library defines."""
        lib = llvm_c.library()
        address = ctypes.c_uint64()
        lib.check(lib.OrcLLJITLookup(self._jit, ctypes.byref(address), symbol.encode()))
        return address.value

    def __del__(self):
        jit, self._jit = getattr(self, "_jit", None), None
        if jit and not _EXITING.is_set():
            llvm_c.library().check(llvm_c.library().OrcDisposeLLJIT(jit))
