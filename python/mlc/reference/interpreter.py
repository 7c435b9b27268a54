"""`run`: the hlo module interpreted op by op with numpy, the oracle of differential tests.

Contract: `run(module_or_text, *arrays, entry="main")` returns what
`mlc.compile(text, entry=entry)(*arrays)` returns (one array, or a tuple for several
results, with the declared dtypes) for every module `hlo-verify` accepts. Text is parsed
with MLC's context and verified first (CompileError otherwise); arguments are checked
against the entry's signature with the Executable's wording (TypeError for count and
dtype, ValueError for shape). An op with no evaluator raises NotImplementedError naming
the op and its location. Results never alias the arguments.
"""

from __future__ import annotations

import numpy as np
from mlir import ir

from ..compiler import entry_signature, run_passes
from ..context import make_context
from ..diagnostics import parse_module
from ..runtime.memref import checked_argument
from ..transforms.hlo_verify import HloVerify
from .registry import EVALUATORS, OpContext, Terminated, as_array, numpy_dtype_of


class Interpreter:
    """Runs functions of one module; values live in one frame (a dict) per call."""

    def __init__(self, module: ir.Module):
        self.module = module
        self.functions = {ir.StringAttr(op.attributes["sym_name"]).value: op.operation
                          for op in module.body.operations if op.operation.name == "func.func"}

    def call(self, name: str, args: list) -> list:
        if name not in self.functions:
            raise ValueError(f"no function @{name} in the module")
        return self.run_region(self.functions[name].regions[0], args, {})

    def run_region(self, region: ir.Region, args: list, frame: dict) -> list:
        """Runs the region's single block; the values of its terminator."""
        block = region.blocks[0]
        for arg, value in zip(block.arguments, args, strict=True):
            frame[arg] = value
        for op in block.operations:
            op = op.operation
            outcome = self.evaluate(op, [frame[v] for v in op.operands], frame)
            if isinstance(outcome, Terminated):
                return outcome.values
            for result, value in zip(op.results, outcome, strict=True):
                frame[result] = value
        raise NotImplementedError(f"a block without a terminator at {block.owner.location}")

    def evaluate(self, op: ir.Operation, operands: list, frame: dict):
        evaluator = EVALUATORS.get(op.name)
        if evaluator is None:
            raise NotImplementedError(f"the reference interpreter has no evaluator for "
                                      f"'{op.name}' (at {op.location})")
        ctx = OpContext(op, self, frame)
        outcome = evaluator(ctx, *operands)
        if isinstance(outcome, Terminated):
            return outcome
        values = list(outcome) if isinstance(outcome, (list, tuple)) else [outcome]
        if len(values) != len(op.results):
            raise AssertionError(f"{op.name} evaluated to {len(values)} values, has {len(op.results)} results")
        return [_as_result(v, r.type, op) for v, r in zip(values, op.results)]


def _as_result(value, t: ir.Type, op: ir.Operation) -> np.ndarray:
    """`value` with the dtype (and, for tensors, the shape) of result type `t`."""
    array = as_array(value, numpy_dtype_of(t))
    if isinstance(t, ir.RankedTensorType):
        shape = tuple(ir.RankedTensorType(t).shape)
        if array.shape != shape:
            raise AssertionError(f"{op.name} at {op.location} evaluated to shape {array.shape}, declared {shape}")
    return array


def parse_and_verify(module_or_text) -> ir.Module:
    """The module (text parsed with MLC's context), checked by hlo-verify."""
    if isinstance(module_or_text, str):
        module = parse_module(module_or_text, make_context())
    elif isinstance(module_or_text, ir.Module):
        module = module_or_text
    else:
        raise TypeError(f"run() takes MLIR text or an ir.Module, got {type(module_or_text).__name__}")
    run_passes(module, [HloVerify()])
    return module


def run(module_or_text, *arrays, entry: str = "main"):
    """Interprets function `entry` of an hlo module on numpy arrays: one array, or a tuple."""
    module = parse_and_verify(module_or_text)
    with module.context:
        inputs, outputs = entry_signature(module, entry)
        signature = f"{entry}({', '.join(map(str, inputs))}) -> ({', '.join(map(str, outputs))})"
        if len(arrays) != len(inputs):
            raise TypeError(f"{signature} takes {len(inputs)} arguments, got {len(arrays)}")
        args = [np.array(checked_argument(i, a, s, signature)) for i, (a, s) in enumerate(zip(arrays, inputs))]
        with np.errstate(all="ignore"):
            results = Interpreter(module).call(entry, args)
    results = [np.array(r, copy=True) for r in results]
    return results[0] if len(results) == 1 else tuple(results)
