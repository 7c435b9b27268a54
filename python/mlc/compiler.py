"""mlc.compile: hlo module (text or ir.Module) -> Executable, through the named stages."""

from __future__ import annotations

from mlir import ir

from . import config
from .context import make_context
from .diagnostics import CompileError, format_error, format_location, parse_module
from .dtypes import numpy_dtype
from .pipelines import pass_manager, passes_until
from .runtime.executable import Executable
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


def run_passes(module: ir.Module, passes, source_name: str = "<input>",
               print_ir_after_all: bool = False) -> ir.Module:
    """Runs `passes` on `module` in place; CompileError with the diagnostics on failure."""
    pm = pass_manager(passes, module.context, print_ir_after_all)
    try:
        pm.run(module.operation)
    except ir.MLIRError as e:
        raise CompileError(format_error(e, source_name)) from None
    return module


def lower(module: ir.Module, stage: str = "llvm", source_name: str = "<input>",
          opt_level: int = 2, fusion: bool = True) -> ir.Module:
    """Runs the compile pipeline on `module` in place up to `stage`."""
    config.check()
    return run_passes(module, passes_until(stage, opt_level, fusion), source_name)


def compile(module_or_text, entry: str = "main", opt_level: int = 2,  # noqa: A001 - jax's name
            source_name: str = "<input>", fusion: bool = True) -> Executable:
    """Compiles the hlo function `entry` of a module to native code.

    `module_or_text` is MLIR text or an ir.Module (which is lowered in place). The result
    is called with numpy arrays and returns numpy arrays (a tuple for several results).
    opt_level 0 runs no graph optimization and LLVM -O0; 1..3 run hlo-optimize and set
    LLVM's level. fusion=False compiles every op as its own kernel (no hlo-fuse).
    """
    if isinstance(module_or_text, str):
        module = parse_module(module_or_text, make_context(), source_name)
    elif isinstance(module_or_text, ir.Module):
        module = module_or_text
    else:
        raise TypeError(f"compile() takes MLIR text or an ir.Module, got {type(module_or_text).__name__}")
    if not 0 <= opt_level <= 3:
        raise ValueError(f"opt_level must be 0..3, got {opt_level}")
    inputs, outputs = entry_signature(module, entry, source_name)
    lower(module, "llvm", source_name, opt_level, fusion)
    return Executable(module, entry, inputs, outputs, opt_level=opt_level)
