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
import sys

from ..context import make_context
from ..compiler import run_passes
from ..diagnostics import CompileError, parse_module
from ..passes import get_pass_class, pass_names
from ..pipeline_parser import PipelineError, check_upstream, make_pass, parse_options, parse_pipeline
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
    parser.add_argument("--emit", choices=STAGE_NAMES,
                        help="run the compile pipeline up to this stage and print its IR")
    parser.add_argument("-O", dest="opt_level", type=int, default=2, choices=range(4),
                        help="with --emit: 0 runs no graph optimization (default 2)")
    parser.add_argument("--no-fusion", action="store_true",
                        help="with --emit: no hlo-fuse, every op its own kernel")
    parser.add_argument("--fusion-report", action="store_true",
                        help="after the passes, print each fusion (kind, ops, inputs, outputs, bytes)")
    parser.add_argument("--fusion-dot", metavar="FILE",
                        help="after the passes, write a Graphviz picture with one cluster per fusion")
    parser.add_argument("--split-input-file", action="store_true",
                        help=f"process each chunk between '{SPLIT_MARKER}' lines separately")
    parser.add_argument("--mlir-print-ir-after-all", action="store_true",
                        help="print the IR after every pass (to stderr)")
    parser.add_argument("--list-passes", action="store_true", help="list MLC's passes and stages")
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
    module = parse_module(chunk, make_context(), source_name)
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
        if args.pass_pipeline and pass_flags:
            raise PipelineError("give passes either as flags or with --pass-pipeline, not both")
        if args.pass_pipeline:
            passes = parse_pipeline(args.pass_pipeline, context)
        else:
            passes = [_pass_from_flag(f, context) for f in pass_flags]
        if args.emit:
            passes = passes + passes_until(args.emit, args.opt_level, not args.no_fusion)
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


if __name__ == "__main__":
    sys.exit(main())
