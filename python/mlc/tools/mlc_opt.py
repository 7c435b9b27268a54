"""mlc-opt: mlir-opt for MLC. Reads MLIR, runs passes (MLC's and upstream's), prints MLIR.

    mlc-opt input.mlir --hlo-to-linalg --canonicalize
    mlc-opt input.mlir --pass-pipeline='builtin.module(hlo-verify,hlo-to-linalg)'
    mlc-opt input.mlir --emit=linalg
    mlc-opt - --split-input-file --hlo-verify < cases.mlir

Any argument `--NAME` or `--NAME=OPTIONS` that is not one of the options below names a pass:
MLC's (see --list-passes) or any upstream MLIR pass; they run in command-line order.
Errors are printed as `file:line:col: error: ...` and make the exit code 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import sys

from .. import config
from ..context import make_context
from ..compiler import resolve_options, run_passes
from ..diagnostics import CompileError, parse_module
from ..passes import get_pass_class, pass_names
from ..pipeline_parser import PipelineError, check_upstream, make_pass, parse_options, parse_pipeline
from ..options import CompileOptions, add_arguments, from_arguments
from ..pipelines import STAGE_NAMES, passes_until, stages
from ..transforms.fusion_report import dot_graph, report_text
from .io import ToolError, read_text, write_text
from ..transforms.pass_base import UpstreamPasses

SPLIT_MARKER = "// -----"


def _argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mlc-opt", allow_abbrev=False, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Runs MLC and upstream MLIR passes on an MLIR file.",
        epilog="Passes: any --NAME[=OPTIONS] not listed above, in order (see --list-passes).")
    parser.add_argument("input", nargs="?", default="-", help="input file, or - for stdin")
    parser.add_argument("-o", dest="output", default="-", help="output file (default stdout)")
    parser.add_argument("-p", "--pass-pipeline", help="a textual pipeline, e.g. "
                        "'builtin.module(hlo-verify,func.func(canonicalize))'")
    parser.add_argument("--emit", choices=STAGE_NAMES + ["library"],
                        help="run the compile pipeline up to this stage and print its IR; "
                             "'library': write a shared library and C header (needs -o FILE.so)")
    parser.add_argument("--entry", default="main", help="with --emit=library: the function to export")
    parser.add_argument("--export-name", help="with --emit=library: the C function's name (default: the entry's)")
    parser.add_argument("--cpu", default="portable", choices=["portable", "native"],
                        help="with --emit=library: the CPU the code is for (default portable: any x86-64-v2)")
    parser.add_argument("--fusion-report", action="store_true",
                        help="after the passes, print each fusion (kind, ops, inputs, outputs, bytes)")
    parser.add_argument("--fusion-dot", metavar="FILE",
                        help="after the passes, write a Graphviz picture with one cluster per fusion")
    parser.add_argument("--split-input-file", action="store_true",
                        help=f"process each chunk between '{SPLIT_MARKER}' lines separately")
    parser.add_argument("--mlir-print-ir-after-all", action="store_true",
                        help="print the IR after every pass (to stderr)")
    parser.add_argument("--list-passes", action="store_true", help="list MLC's passes and stages")
    # -O, --[no-]fusion, --threads, --vector-bits, --[no-]blas: one flag per CompileOptions field.
    add_arguments(parser, CompileOptions())  # the environment's values apply when a flag is absent
    return parser


def _pass_from_flag(flag: str, context: ir.Context):
    if not flag.startswith("-") or flag in ("-", "--"):
        raise PipelineError(f"unexpected argument '{flag}'")
    name, eq, options = flag.lstrip("-").partition("=")
    p = make_pass(name, parse_options(options) if eq else {})
    if p is not None:
        return p
    try:
        check_upstream(name, context)
    except PipelineError:
        raise PipelineError(f"unknown pass or option '{flag}' (MLC passes: "
                            f"{', '.join(pass_names())}; upstream passes: see mlir-opt --help)") from None
    text = f"{name}{{{options}}}" if eq else name
    try:
        check_upstream(text, context)
    except PipelineError:
        raise PipelineError(f"invalid options '{options}' for pass '{name}'") from None
    return UpstreamPasses(text)


def _list_passes() -> str:
    lines = ["MLC passes:"]
    for name in pass_names():
        lines.append(f"  --{name:<26} {get_pass_class(name).summary()}")
    lines.append("Stages (--emit):")
    for s in stages():
        lines.append(f"  {s.name:<28} {s.summary}")
    return "\n".join(lines)


def _chunks(text: str, split: bool) -> list[str]:
    """The input's chunks, each padded with newlines so diagnostics keep the file's line numbers."""
    if not split:
        return [text]
    chunks, current, first_line = [], [], 0
    for number, line in enumerate(text.splitlines(keepends=True)):
        if line.strip() == SPLIT_MARKER:
            chunks.append("\n" * first_line + "".join(current))
            current, first_line = [], number + 1
        else:
            current.append(line)
    chunks.append("\n" * first_line + "".join(current))
    return chunks


def _process(chunk: str, source_name: str, passes, print_ir: bool, args) -> str:
    from ..stablehlo.stablehlo_to_hlo import hlo_text  # StableHLO input is imported to hlo first
    module = parse_module(hlo_text(chunk, source_name), make_context(), source_name)
    with config.compiling_with(args.options):  # the codegen passes read threads/width/BLAS there
        run_passes(module, passes, source_name, print_ir)
    if args.fusion_dot:
        write_text(args.fusion_dot, dot_graph(module))
    text = str(module)
    if args.fusion_report:
        text += report_text(module)
    return text


def main(argv: list[str] | None = None) -> int:
    parser = _argument_parser()
    args, pass_flags = parser.parse_known_args(argv)
    if args.list_passes:
        print(_list_passes())
        return 0
    context = make_context()
    try:
        args.options = resolve_options(from_arguments(args, config.default_options()))
    except ValueError as e:
        print(f"mlc-opt: error: {e}", file=sys.stderr)
        return 2
    if args.emit == "library":
        return _emit_library(args, pass_flags)
    try:
        if args.pass_pipeline and pass_flags:
            raise PipelineError("give passes either as flags or with --pass-pipeline, not both")
        if args.pass_pipeline:
            passes = parse_pipeline(args.pass_pipeline, context)
        else:
            passes = [_pass_from_flag(f, context) for f in pass_flags]
        if args.emit:
            passes = passes + passes_until(args.emit, args.options)
    except PipelineError as e:
        parser.print_usage(sys.stderr)
        print(f"mlc-opt: error: {e}", file=sys.stderr)
        return 2

    source_name = "<stdin>" if args.input == "-" else args.input
    try:
        text = read_text(args.input)
        outputs, failed = [], False
        for chunk in _chunks(text, args.split_input_file):
            try:
                outputs.append(_process(chunk, source_name, passes, args.mlir_print_ir_after_all, args))
            except CompileError as e:
                print(e, file=sys.stderr)
                failed = True
        write_text(args.output, f"\n{SPLIT_MARKER}\n".join(outputs))
    except ToolError as e:
        print(f"mlc-opt: error: {e}", file=sys.stderr)
        return 1
    return 1 if failed else 0


def _default_export_name(input_path: str, entry: str) -> str:
    """The input file's stem as a C identifier (the entry's own name, often `main`, is
    taken by the compiled module itself)."""
    stem = "model" if input_path == "-" else os.path.splitext(os.path.basename(input_path))[0]
    stem = re.sub(r"\W", "_", stem)
    return stem if stem and not stem[0].isdigit() and stem != entry else f"{stem}_{entry}".lstrip("_") or "model"


def _emit_library(args, pass_flags) -> int:
    """--emit=library: the whole compile, then a shared library and its C header."""
    from ..compiler import entry_signature
    from ..export import ExportError, export_library
    if pass_flags or args.pass_pipeline:
        print("mlc-opt: error: --emit=library takes no passes", file=sys.stderr)
        return 2
    if args.output == "-":
        print("mlc-opt: error: --emit=library needs -o FILE.so", file=sys.stderr)
        return 2
    source_name = "<stdin>" if args.input == "-" else args.input
    try:
        from ..stablehlo.stablehlo_to_hlo import hlo_text  # StableHLO input is imported to hlo first
        module = parse_module(hlo_text(read_text(args.input), source_name), make_context(), source_name)
        with module.context:
            inputs, outputs = entry_signature(module, args.entry, source_name)
        # One thread unless --threads asked for more (then export_library says why it cannot).
        options = args.options if args.option_threads else dataclasses.replace(args.options, threads=1)
        name = args.export_name or _default_export_name(args.input, args.entry)
        header = export_library(module, inputs, outputs, args.output, name, None, args.cpu, options,
                                entry=args.entry, source_name=source_name)
    except (CompileError, ExportError) as e:
        print(e if isinstance(e, CompileError) else f"mlc-opt: error: {e}", file=sys.stderr)
        return 1
    except ToolError as e:
        print(f"mlc-opt: error: {e}", file=sys.stderr)
        return 1
    print(f"mlc-opt: wrote {args.output} and {header}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
