"""mlc-run: JIT-compiles one function of an MLIR file and runs it on numpy inputs.

    mlc-run model.mlir --entry main --input x.npy --input y.npy
    mlc-run model.mlir --random-inputs 0 --check-against expected.npz
    mlc-run model.mlir --random-inputs 0 --reference     # numpy's answer, no compile

Each result is printed as its numpy repr. `--check-against` compares the results with the
arrays of an .npz file (in order) and exits 1 if any differs beyond the dtype's tolerance.
"""

from __future__ import annotations

import argparse
import sys
import zipfile

import numpy as np

from .. import config, reference
from ..compiler import compile as mlc_compile
from ..compiler import entry_signature
from ..context import make_context
from ..diagnostics import CompileError, parse_module
from ..options import CompileOptions, add_arguments, from_arguments
from .io import ToolError, read_text

# Relative/absolute tolerance per dtype kind when comparing with --check-against.
TOLERANCES = {np.dtype(np.float16): 1e-2, np.dtype(np.float32): 1e-5, np.dtype(np.float64): 1e-12}


def random_array(rng: np.random.Generator, shape, dtype: np.dtype) -> np.ndarray:
    """Normal floats, integers in [-10, 10], random booleans."""
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-10, 11, size=shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


def _argument_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="mlc-run", allow_abbrev=False,
                                     description="JIT-compiles and runs a function of an MLIR file.")
    parser.add_argument("input", help="MLIR file with hlo (or lower-level) functions, or StableHLO")
    parser.add_argument("--entry", default="main", help="the function to run (default main)")
    parser.add_argument("--input", dest="inputs", action="append", default=[], metavar="NPY",
                        help="an argument as a .npy file; once per argument, in order")
    parser.add_argument("--random-inputs", type=int, metavar="SEED",
                        help="make random arguments from this seed instead of --input")
    parser.add_argument("--check-against", metavar="NPZ",
                        help="compare the results with the arrays in this .npz file")
    parser.add_argument("--reference", action="store_true",
                        help="evaluate with MLC's reference interpreter (numpy) instead of compiling")
    # -O, --[no-]fusion, --threads, --vector-bits, --[no-]blas: one flag per CompileOptions field.
    add_arguments(parser, CompileOptions())  # the environment's values apply when a flag is absent
    return parser


def _load_inputs(args, specs) -> list[np.ndarray]:
    if args.random_inputs is not None:
        if args.inputs:
            raise ValueError("give either --input files or --random-inputs, not both")
        rng = np.random.default_rng(args.random_inputs)
        return [random_array(rng, s.shape, s.dtype) for s in specs]
    return [_load_array(path, "--input file") for path in args.inputs]


def _load_array(path: str, what: str):
    """np.load of an .npy/.npz file, or a ToolError naming the file and the problem."""
    try:
        return np.load(path, allow_pickle=False)
    except OSError as e:
        raise ToolError(f"cannot read {what} '{path}': {e.strerror or e}") from None
    except (ValueError, EOFError, zipfile.BadZipFile) as e:  # not numpy's, truncated, pickled objects
        raise ToolError(f"{what} '{path}' is not a valid .npy/.npz file ({e})") from None


def _compare(results, reference_path: str) -> list[str]:
    ref = _load_array(reference_path, "--check-against file")
    if not isinstance(ref, np.lib.npyio.NpzFile):
        raise ToolError(f"--check-against file '{reference_path}' must be an .npz archive, not a single array")
    with ref:
        try:
            expected = [ref[k] for k in ref.files]
        except (ValueError, OSError, EOFError, zipfile.BadZipFile) as e:
            raise ToolError(f"--check-against file '{reference_path}' is corrupt: {e}") from None
    if len(expected) != len(results):
        return [f"{reference_path} holds {len(expected)} arrays, the function returned {len(results)}"]
    problems = []
    for i, (got, want) in enumerate(zip(results, expected)):
        if got.shape != want.shape or got.dtype != want.dtype:
            problems.append(f"result {i}: got {got.dtype}{list(got.shape)}, "
                            f"expected {want.dtype}{list(want.shape)}")
            continue
        tol = TOLERANCES.get(got.dtype, 0)
        if not np.allclose(got, want, rtol=tol, atol=tol, equal_nan=True):
            worst = np.max(np.abs(got.astype(np.float64) - want.astype(np.float64)))
            problems.append(f"result {i} differs: max abs error {worst:g} (tolerance {tol:g})")
    return problems


def main(argv: list[str] | None = None) -> int:
    args = _argument_parser().parse_args(argv)
    try:
        return _run(args)
    except ToolError as e:
        print(f"mlc-run: error: {e}", file=sys.stderr)
        return 1


def _run(args) -> int:
    text = read_text(args.input)
    try:
        if args.reference:  # the numpy interpreter: the oracle compiled code is checked against
            from ..stablehlo.stablehlo_to_hlo import hlo_text  # StableHLO input is imported to hlo first
            module = parse_module(hlo_text(text, args.input), make_context(), args.input)
            with module.context:
                specs, _ = entry_signature(module, args.entry, args.input)
            results = reference.run(module, *_load_inputs(args, specs), entry=args.entry)
        else:
            options = from_arguments(args, config.default_options())
            executable = mlc_compile(text, entry=args.entry, options=options, source_name=args.input)
            results = executable(*_load_inputs(args, executable.inputs))
    except CompileError as e:
        print(e, file=sys.stderr)
        return 1
    except (TypeError, ValueError, OSError) as e:
        print(f"mlc-run: error: {e}", file=sys.stderr)
        return 1
    results = list(results) if isinstance(results, tuple) else [results]
    np.set_printoptions(linewidth=120)  # one line per small result, for FileCheck
    for r in results:
        print(repr(r))
    if args.check_against:
        problems = _compare(results, args.check_against)
        for p in problems:
            print(f"mlc-run: mismatch: {p}", file=sys.stderr)
        if problems:
            return 1
        print(f"mlc-run: all {len(results)} results match {args.check_against}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
