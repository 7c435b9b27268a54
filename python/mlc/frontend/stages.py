"""The staged jit API: Traced -> Lowered -> Compiled, each holding its own artifact.

    traced = mlc.jit(f).trace(x)        # the hlo module a trace produced (with locations)
    lowered = traced.lower(options)     # that module, verified, bound to resolved options
    compiled = lowered.compile()        # native code; compiled(x) runs it
    lowered.as_text("linalg")           # the IR after a stage of the compile that ran

Stage objects do not change once made. The pipeline runs stage by stage on one module and
each stage's text is kept as it goes, so asking for several stages never re-runs the
pipeline; a compile served by the persistent cache ran no stages, so asking a Compiled
for one compiles the module once more, in memory.

Modules live in the context of the thread that made them (context.thread_context); a
stage object used from another thread works on a copy parsed into that thread's context
(from the trace's bytecode), never on the other thread's module.
"""

from __future__ import annotations

import dataclasses
import io
import threading

import numpy as np
from mlir import ir

from .. import config
from ..compiler import Compilation, compile_module, resolve_options, run_stages
from ..context import account, owned_by_this_thread, thread_context
from ..diagnostics import CompileError, format_error, parse_module
from ..options import CompileOptions
from ..runtime import disk_cache
from .pytree import flatten, unflatten


def __getattr__(name: str):
    # STAGES, the pipeline's stage names, without importing the pipeline (every pass, about
    # 0.4 s) with this module: a process served by the persistent cache never needs it.
    if name == "STAGES":
        from ..pipelines import STAGE_NAMES
        return tuple(STAGE_NAMES)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _parse_here(text: str, name: str) -> ir.Module:
    """`text` parsed into this thread's compile context."""
    context = thread_context()
    account(context, len(text))
    return parse_module(text, context, name)


class Traced:
    """A function traced for one signature: its hlo module, as text with source locations."""

    def __init__(self, hlo_text: str | None, name: str, in_specs, out_structure, out_weak,
                 options: CompileOptions | None = None, module=None):
        # hlo_text None: made on first use from the module's bytecode (kept here, with
        # locations), so a trace served by the persistent cache never prints its module.
        self._hlo_text = hlo_text  # with locations: diagnostics point at the user's lines
        self._bytecode = None
        if hlo_text is None:
            self._bytecode = _bytecode(module)
        self._module = module  # the trace's own module, handed to the first lower() (see jit)
        self._module_for_text = None
        self.name = name
        self.in_specs = in_specs
        self.out_structure = out_structure
        self.out_weak = out_weak
        self.options = options  # the jit's own; None: the environment's, when lowered

    @property
    def hlo_text(self) -> str:
        if self._hlo_text is None:
            module = self._module if self._module is not None else self._module_for_text
            if module is None or not owned_by_this_thread(module.context):
                module = self._parse_copy()
            self._hlo_text = module.operation.get_asm(enable_debug_info=True)
        return self._hlo_text

    def as_text(self, debug_info: bool = False) -> str:
        if debug_info:
            return self.hlo_text
        return self._parse_copy().operation.get_asm()

    def lower(self, options: CompileOptions | None = None) -> "Lowered":
        """Binds the module to `options` (default: the jit's, else the environment's),
        resolved for this host, and verifies it (the `hlo` stage)."""
        return Lowered(self, resolve_options(options or self.options))

    def _take_module(self):
        """The trace's module, once (no parse of the text for the jit's own compile); None
        when taken already or when it lives in another thread's context. Its text is
        made first: whoever takes the module may lower it in place."""
        module = self._module
        if module is None or not owned_by_this_thread(module.context):
            return None
        self.hlo_text  # noqa: B018 - made while the module is still hlo
        self._module = None
        return module

    def _take_module_for_call(self) -> ir.Module:
        """The jit's call path: the module itself (it was traced on this thread just now),
        without printing its text (a cache hit never needs it)."""
        module = self._module
        if module is None or not owned_by_this_thread(module.context):
            return self._parse_copy()
        self._module = None
        self._module_for_text = module  # hlo_text prints it, until compile_for_call lowers it
        return module

    def _parse_copy(self) -> ir.Module:
        """A copy of the trace's module in this thread's context."""
        if self._bytecode is None:
            return _parse_here(self.hlo_text, self.name)
        return _parse_bytecode_here(self._bytecode, self.name)


def _parse_bytecode_here(data: bytes, name: str) -> ir.Module:
    context = thread_context()
    account(context, len(data))
    try:
        with context:
            return ir.Module.parse(data)
    except ir.MLIRError as e:
        raise CompileError(format_error(e, name)) from None


def _bytecode(module: ir.Module) -> bytes:
    buffer = io.BytesIO()
    module.operation.write_bytecode(buffer)
    return buffer.getvalue()


class Lowered:
    """A traced module ready to compile with fixed options; `compile()` makes native code."""

    def __init__(self, traced: Traced, options: CompileOptions, module=None, verified: bool = False):
        self.traced = traced
        self.options = options
        if module is None:
            module = traced._take_module()
        self.module = module if module is not None else traced._parse_copy()
        if not verified:
            with self.module.context:
                run_stages(self.module, options, "hlo", traced.name)
        self._compiled: Compiled | None = None
        self._lock = threading.Lock()

    # The trace's facts, under the names earlier versions had here.
    hlo_text = property(lambda self: self.traced.hlo_text)
    name = property(lambda self: self.traced.name)
    in_specs = property(lambda self: self.traced.in_specs)
    out_structure = property(lambda self: self.traced.out_structure)
    out_weak = property(lambda self: self.traced.out_weak)
    opt_level = property(lambda self: self.options.opt_level)
    fusion = property(lambda self: self.options.fusion)

    def as_text(self, stage: str = "hlo", debug_info: bool = False) -> str:
        """The module after `stage` of this Lowered's compile (which runs once, on demand,
        keeping every stage); with `debug_info`, each op's source location too."""
        _check(stage)
        if stage == "hlo":
            module = self.module if owned_by_this_thread(self.module.context) else self.traced._parse_copy()
            return module.operation.get_asm(enable_debug_info=debug_info)
        return self.compile().as_text(stage, debug_info)

    def compiler_ir(self) -> str:
        return self.as_text()

    def compile(self, keep_stages: bool | None = None) -> "Compiled":
        """The compiled function (made once per Lowered). Stage texts are kept when the
        pipeline runs (keep_stages=None), or always (True: no cache lookup), or never (False)."""
        with self._lock:
            if self._compiled is None:
                self._compiled = self._compile(keep_stages)
            return self._compiled

    def _compile(self, keep_stages: bool | None, dump_name: str | None = None,
                 consume: bool = False, fields: dict | None = None) -> "Compiled":
        """consume: lower this Lowered's own module in place (the jit's call path, where
        nobody else sees this Lowered) instead of a copy. fields: see compile_module."""
        if consume:
            module = self.module
        elif owned_by_this_thread(self.module.context):  # a copy: this module stays hlo
            module = _parse_bytecode_here(_bytecode(self.module), self.name)
        else:
            module = self.traced._parse_copy()
        # (__init__ verified this module, or its maker did: the hlo stage is not run again)
        return Compiled(self, compile_module(module, "main", self.options, self.name, keep_stages, dump_name,
                                             fields=fields, verified=True))


def compile_for_call(traced: Traced, dump_name: str) -> "Compiled":
    """The jit's call path: the persistent cache is looked up with the traced module's key
    before anything else (a hit neither verifies nor prints the module: an entry exists
    only for a module that compiled); a miss lowers the trace's own module in place."""
    module = traced._take_module_for_call()
    options = resolve_options(traced.options)
    cache = disk_cache.default_cache()
    fields = None
    if cache is not None and config.dump_dir() is None:
        fields = cache.fields(disk_cache.module_key(module), "main", options)
        executable = cache.load(fields)
        if executable is not None:
            lowered = Lowered(traced, options, module, verified=True)
            lowered._compiled = Compiled(lowered, Compilation(executable, options, cache_hit=True))
            return lowered._compiled
    if traced._bytecode is None:
        traced.hlo_text  # noqa: B018 - made while the module is still hlo: lowering consumes it
    traced._module_for_text = None  # (with the bytecode, hlo_text parses a copy when asked)
    lowered = Lowered(traced, options, module)
    # The call path keeps no stage texts (MLC_DUMP_DIR aside): printing them costs time.
    return lowered._compile(keep_stages=False, dump_name=dump_name, consume=True, fields=fields)


NOT_CHECKED = object()  # Compiled.call_checked's "did not run"


class Compiled:
    """A compiled signature of a jit function: call it with arguments of that signature."""

    def __init__(self, lowered: Lowered, compilation: Compilation):
        self.lowered = lowered
        self.executable = compilation.executable
        self.options = compilation.options
        self.cache_hit = compilation.cache_hit
        self._compilation = compilation  # its stage copies, printed when asked (as_text)
        self._texts: dict[tuple[str, bool], str] = {}
        self._single = lowered.out_structure == ("*",)
        self._analysis = None
        # (result leaf, argument leaf) pairs of jit's donate_argnums: see _run.
        self._aliases = getattr(lowered.traced, "aliases", ())

    def as_text(self, stage: str = "llvm", debug_info: bool = False) -> str:
        """The IR after `stage` of the compile that made this function. Kept texts have no
        locations; debug_info, or a function the persistent cache served, compiles the
        module once more in memory, recording every stage."""
        _check(stage)
        key = (stage, debug_info)
        if key not in self._texts:
            kept = self._compilation.stage_modules
            if not debug_info and stage in kept and owned_by_this_thread(kept[stage].context):
                self._texts[key] = self._compilation.stage_text(stage)
            else:
                self._record_stages(debug_info)
        return self._texts[key]

    def _record_stages(self, debug_info: bool) -> None:
        # From the trace's text: the jit's call path lowered the Lowered's own module in place.
        module = self.lowered.traced._parse_copy()
        with module.context:
            def record(stage, m):
                self._texts[(stage, debug_info)] = m.operation.get_asm(enable_debug_info=debug_info)
            run_stages(module, self.options, "llvm", self.lowered.name, record)

    def _buffers(self):
        from ..analysis import analyze
        if self._analysis is None:
            module = _parse_here(self.as_text("buffers"), self.lowered.name)
            self._analysis = analyze(module)
        return self._analysis

    def cost_analysis(self) -> dict:
        """kernels (loop nests), flops, bytes read and written, temporary buffer bytes."""
        a = self._buffers()
        return {k: a[k] for k in ("kernels", "flops", "bytes_read", "bytes_written", "temp_bytes")}

    def memory_analysis(self) -> dict:
        """argument, output and temporary buffer sizes in bytes, as JAX's memory_analysis."""
        def size(specs):
            return sum(int(np.prod(s.shape, dtype=np.int64)) * s.dtype.itemsize for s in specs)
        return {"argument_size_in_bytes": size(self.executable.inputs),
                "output_size_in_bytes": size(self.executable.outputs),
                "temp_size_in_bytes": self._buffers()["temp_bytes"]}

    def export_library(self, path: str, name: str | None = None, header: str | None = None,
                       cpu: str = "portable", options: CompileOptions | None = None) -> str:
        """Writes a position-independent shared library at `path` exporting
        `int name(const T *in0, ..., T *out0, ...)` (contiguous row-major buffers; 0 on
        success) and its C header (default: `<name>.h` beside it). Compiled again for `cpu`
        ("portable": any x86-64-v2 CPU, 128-bit vectors; "native": this host), single-threaded
        and without BLAS calls, so the library needs only the C library (see mlc.export).
        `options` default to this function's, on one thread. Returns the header's path."""
        from ..export import export_library
        module = self.lowered.traced._parse_copy()
        for op in module.body.operations:  # C callers get every result in its out-param
            if "mlc.result_aliases" in op.operation.attributes:
                del op.operation.attributes["mlc.result_aliases"]
        return export_library(module, self.executable.inputs, self.executable.outputs, path,
                              name or _c_name(self.lowered.name), header, cpu,
                              options or dataclasses.replace(self.options, threads=1),
                              source_name=self.lowered.name)

    def _run(self, arrays, matched: bool = False):
        """The executable on `arrays`. A result donated to an argument was written into that
        argument's array (its out-param is left unwritten), which is returned in its place;
        a donated array the code cannot write into directly, or whose memory another argument
        shares (the code assumes it does not), is copied first."""
        if not self._aliases:
            return self.executable.call_matched(arrays) if matched else self.executable(*arrays)
        arrays = list(arrays)
        for _, i in self._aliases:
            a, dtype = arrays[i], self.lowered.in_specs[i][1]
            if not (type(a) is np.ndarray and a.dtype == dtype and a.flags.c_contiguous and a.flags.writeable) \
                    or any(j != i and np.may_share_memory(a, b) for j, b in enumerate(arrays)):
                arrays[i] = np.array(a, dtype=dtype, order="C")
        # A donated result's out-param is its argument (left unwritten by the code): no
        # result array is allocated for it.
        return self.executable(*arrays, outputs={k: arrays[i] for k, i in self._aliases})

    def call_arrays(self, arrays):
        """The fast path: positional numpy arrays whose shapes and dtypes a jit cache key
        matched to the compiled signature's."""
        return self._structured(self._run(arrays, matched=True))

    def _structured(self, out):
        """The executable's results (one array, or a tuple) in the function's output nesting."""
        if self._single:
            return out
        return unflatten(self.lowered.out_structure, list(out) if isinstance(out, tuple) else [out])

    def call_checked(self, args: tuple):
        """The results on positional arrays the executable checks natively against its
        signature (Executable.call_checked), or NOT_CHECKED when it cannot or they do not
        match (then nothing ran: the caller takes the keyed path)."""
        if self._aliases:
            return NOT_CHECKED
        out = self.executable.call_checked(args)
        return NOT_CHECKED if out is None else self._structured(out)

    @property
    def checks_natively(self) -> bool:
        """Whether call_checked can run this executable (a native check here, no donation)."""
        return not self._aliases and self.executable.checks_natively

    def call_leaves(self, leaves, matched: bool = False):
        """The results on flattened arguments; matched: a jit cache key matched their shapes
        and dtypes to the signature's (the executable then checks only their layout)."""
        if matched:
            out = self._run(leaves, matched=True)  # (scalars become 0-d arrays in the executable)
        else:
            arrays = [x if isinstance(x, np.ndarray) else np.asarray(x, dtype=spec[1])
                      for x, spec in zip(leaves, self.lowered.in_specs)]
            out = self._run(arrays)
        return self._structured(out)

    def __call__(self, *args):
        if self.checks_natively:  # checked natively first (call_checked)
            out = self.call_checked(args)
            if out is not NOT_CHECKED:
                return out
        leaves, _ = flatten(list(args))
        return self.call_leaves(leaves)


def _check(stage: str) -> None:
    from ..pipelines import STAGE_NAMES, check_stage
    try:
        check_stage(stage)
    except ValueError:
        raise ValueError(f"unknown stage {stage!r}; stages: {', '.join(STAGE_NAMES)}") from None


def _c_name(source_name: str) -> str:
    import re
    base = source_name.rsplit(":", 1)[-1]
    name = re.sub(r"\W", "_", base)
    return name if name and not name[0].isdigit() else f"mlc_{name}"
