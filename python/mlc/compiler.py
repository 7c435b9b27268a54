"""mlc.compile: hlo module (text or ir.Module) -> Executable, through the named stages.

`run_stages` runs the pipeline stage by stage on one module, keeping each stage's text when
asked (the staged API's `as_text(stage)`, MLC_DUMP_DIR); `compile_module` adds the
persistent cache: a hit loads the function's shared library instead of compiling.
"""

from __future__ import annotations

import itertools
import os
import re
from dataclasses import dataclass, field
from typing import Callable

from mlir import ir

from . import config
from .codegen import kernel_library, target
from .context import account, prepare_for_passes, thread_context
from .context import discard as discard_context
from .transforms.pass_base import INTERNAL_ERROR
from .diagnostics import CompileError, format_error, format_location, parse_module
from .dtypes import numpy_dtype
from .options import CompileOptions
# (.pipelines, which imports every pass and the linalg/llvm dialect modules, about 0.4 s,
# is imported by the functions that run passes: a process whose functions all come from
# the persistent cache never imports it.)
from .runtime import disk_cache
from .runtime.executable import Executable, describe
from .runtime.memref import TensorSpec


def _spec(t: ir.Type, what: str) -> TensorSpec:
    if not isinstance(t, ir.RankedTensorType) or not t.has_static_shape:
        raise CompileError(f"error: {what} must be a statically shaped tensor, got {t}")
    try:
        return TensorSpec(tuple(t.shape), numpy_dtype(t.element_type))
    except TypeError as e:
        raise CompileError(f"error: {what}: {e}") from None


def entry_signature(module: ir.Module, entry: str, source_name: str = "<input>"
                    ) -> tuple[list[TensorSpec], list[TensorSpec]]:
    for op in module.body.operations:
        if op.operation.name == "func.func" and ir.StringAttr(op.attributes["sym_name"]).value == entry:
            if not len(op.regions[0].blocks):
                raise CompileError(f"{format_location(op.location, source_name)}: error: @{entry} is a "
                                   f"declaration (no body): "
                                   f"there is nothing to compile")
            ftype = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
            inputs = [_spec(t, f"argument {i} of @{entry}") for i, t in enumerate(ftype.inputs)]
            outputs = [_spec(t, f"result {i} of @{entry}") for i, t in enumerate(ftype.results)]
            return inputs, outputs
    names = [ir.StringAttr(op.attributes["sym_name"]).value for op in module.body.operations
             if op.operation.name == "func.func"]
    raise CompileError(f"error: no function @{entry} in the module (functions: {', '.join(names) or 'none'})")


def resolve_options(options: CompileOptions | None = None, **overrides) -> CompileOptions:
    """`options` (default: the environment's, config.default_options()) with `overrides`
    (None values ignored) and the host's threads and vector width filled in, so a cache key
    names what the code was built for."""
    options = (options or config.default_options()).replace(**overrides)
    with config.compiling_with(options):
        return options.replace(threads=target.num_threads(), vector_bits=target.vector_register_bits())


def run_passes(module: ir.Module, passes, source_name: str = "<input>",
               print_ir_after_all: bool = False, verify_each: bool = True) -> ir.Module:
    """Runs `passes` on `module` in place; CompileError with the diagnostics on failure.
    verify_each=False verifies once, after the last pass, instead of after every pass."""
    from .pipelines import pass_manager
    prepare_for_passes(module.context)  # MLC's contexts load most dialects on demand
    pm = pass_manager(passes, module.context, print_ir_after_all, verify_each)
    try:
        pm.run(module.operation)
        if not verify_each:
            module.operation.verify()
    except ir.MLIRError as e:
        message = format_error(e, source_name)
        if INTERNAL_ERROR in message:  # a pass raised: whatever it unwound may be half-done
            discard_context(module.context)
        raise CompileError(message) from None
    except BaseException:
        # A Python exception from a pass unwound the pass manager past its bookkeeping: the
        # context must not be reused (context.discard), or the next compile would abort.
        discard_context(module.context)
        raise
    return module


def run_stages(module: ir.Module, options: CompileOptions, until: str = "llvm",
               source_name: str = "<input>", record: Callable[[str, ir.Module], None] | None = None,
               verified: bool = False) -> ir.Module:
    """Runs the pipeline's stages in order on `module` in place, up to `until`, calling
    `record(stage, module)` after each one (stage "hlo" included). verified: the module
    passed the "hlo" stage (hlo-verify) already, which is not run again."""
    from .pipelines import check_stage, stages
    check_stage(until)
    with config.compiling_with(options):  # the codegen passes read threads/width/BLAS there
        for stage in stages(options):
            if stage.passes and not (verified and stage.name == "hlo"):  # verified at the stage's end
                run_passes(module, stage.passes, source_name, verify_each=False)
            if record is not None:
                record(stage.name, module)
            if stage.name == until:
                return module
    raise AssertionError(until)


def lower(module: ir.Module, stage: str = "llvm", source_name: str = "<input>",
          options: CompileOptions | None = None, *, opt_level: int | None = None,
          fusion: bool | None = None) -> ir.Module:
    """Runs the compile pipeline on `module` in place up to `stage`."""
    return run_stages(module, resolve_options(options, opt_level=opt_level, fusion=fusion), stage, source_name)


@dataclass
class Compilation:
    """What compile_module produced: the executable, the options it was built with, and a
    copy of the module after each stage when they were kept (none on a cache hit)."""

    executable: Executable
    options: CompileOptions
    stage_modules: dict[str, ir.Operation] = field(default_factory=dict)
    cache_hit: bool = False

    def stage_text(self, stage: str) -> str:
        """The IR after `stage`, printed now (printing is ~30x the cost of the copy: the
        call path and most compiles never print)."""
        return self.stage_modules[stage].get_asm()


_DUMP_COUNTER = itertools.count(1)


def compile_module(module: ir.Module, entry: str = "main", options: CompileOptions | None = None,
                   source_name: str = "<input>", keep_stages: bool | None = False,
                   dump_name: str | None = None, use_cache: bool = True,
                   fields: dict[str, str] | None = None, verified: bool = False) -> Compilation:
    """Compiles `module` (lowered in place) with the persistent cache in front.

    keep_stages: False keeps no stages, None keeps them when the pipeline runs (not on a
    cache hit), True always (no cache lookup: the stages must be ones that ran).
    MLC_DUMP_DIR writes them as `<dump_name>.<stage>.mlir` (and skips the lookup too).
    fields: the cache key's fields of a module the caller looked up already (a miss).
    verified: `module` passed hlo-verify already (see run_stages)."""
    options = resolve_options(options)
    inputs, outputs = entry_signature(module, entry, source_name)
    dump_dir = config.dump_dir()
    keep = keep_stages is not False or dump_dir is not None
    cache = disk_cache.default_cache() if use_cache else None
    if cache is None:
        fields = None
    elif fields is None:
        fields = cache.fields(disk_cache.module_key(module), entry, options)
        if keep_stages is not True and dump_dir is None:
            executable = cache.load(fields)
            if executable is not None:
                return Compilation(executable, options, cache_hit=True)
    kept: dict[str, ir.Operation] = {}
    record = (lambda stage, m: kept.__setitem__(stage, m.operation.clone())) if keep else None
    run_stages(module, options, "llvm", source_name, record, verified)
    if options.jit == "orc":  # with the objects of the precompiled GEMM kernels it calls
        kernels = kernel_library.kernel_objects(describe(module, entry).externals, options.opt_level)
        executable = Executable.from_llvm(module, entry, inputs, outputs, opt_level=options.opt_level,
                                          keep_object=cache is not None, threads=options.threads or 1,
                                          linked_with=kernels)  # (LLVM compiles a big module's parts on threads)
    else:
        executable = Executable.from_engine(module, entry, inputs, outputs, opt_level=options.opt_level,
                                            keep_object=cache is not None)
    if cache is not None:
        cache.store(fields, executable)
    compilation = Compilation(executable, options, kept)
    if dump_dir is not None:
        _dump(dump_dir, dump_name or f"{_safe(entry)}.{next(_DUMP_COUNTER)}", compilation)
    return compilation


def _safe(name: str) -> str:
    return re.sub(r"[^\w.-]", "_", name)


def _dump(directory: str, name: str, compilation: Compilation) -> None:
    from .pipelines import STAGE_NAMES
    os.makedirs(directory, exist_ok=True)
    for stage in STAGE_NAMES:
        if stage in compilation.stage_modules:
            with open(os.path.join(directory, f"{name}.{stage}.mlir"), "w") as f:
                f.write(compilation.stage_text(stage))


def parse_input(module_or_text, source_name: str = "<input>") -> ir.Module:
    if isinstance(module_or_text, str):
        from .stablehlo.stablehlo_to_hlo import hlo_text  # StableHLO input is imported to hlo first
        text = hlo_text(module_or_text, source_name)
        context = thread_context()
        account(context, len(text))
        return parse_module(text, context, source_name)
    if isinstance(module_or_text, ir.Module):
        return module_or_text
    raise TypeError(f"compile() takes MLIR text or an ir.Module, got {type(module_or_text).__name__}")


def compile(module_or_text, entry: str = "main", options: CompileOptions | None = None,  # noqa: A001 - jax's name
            source_name: str = "<input>", *, opt_level: int | None = None,
            fusion: bool | None = None) -> Executable:
    """Compiles the hlo function `entry` of a module to native code.

    `module_or_text` is MLIR text or an ir.Module (which is lowered in place). The result
    is called with numpy arrays and returns numpy arrays (a tuple for several results).
    `options` (CompileOptions; default from the environment) say how; the opt_level and
    fusion keywords override those two fields. A function compiled before, in any process,
    loads from the persistent cache (MLC_CACHE=0 turns it off).
    """
    module = parse_input(module_or_text, source_name)
    options = (options or config.default_options()).replace(opt_level=opt_level, fusion=fusion)
    return compile_module(module, entry, options, source_name).executable

