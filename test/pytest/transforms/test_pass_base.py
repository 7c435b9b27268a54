"""How a Python pass's failures reach the user: a PassError is a diagnostic at the op it
names; any other exception is a bug in MLC, reported as an internal compiler error naming
the pass, the exception and where it was raised, never a traceback out of the bindings."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from mlir import ir

from mlc.compiler import run_passes
from mlc.context import make_context
from mlc.diagnostics import CompileError, parse_module
from mlc.transforms.pass_base import Pass, PassError

PROGRAM = """func.func @main(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "hlo.negate"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}"""


@dataclass(frozen=True)
class _Crashes(Pass):
    name = "test-crashes"

    def run(self, module):
        {}["missing key"]  # a bug: KeyError


@dataclass(frozen=True)
class _Refuses(Pass):
    name = "test-refuses"

    def run(self, module):
        op = module.regions[0].blocks[0].operations[0]
        raise PassError("this function is not supported here", op.location)


def _error(pass_) -> str:
    """The CompileError's text of running `pass_` on PROGRAM."""
    context = make_context()
    with context, pytest.raises(CompileError) as info:
        module = parse_module(PROGRAM, context, "prog.mlir")
        run_passes(module, [pass_], "prog.mlir")
    return str(info.value)


def test_an_exception_in_a_pass_is_an_internal_compiler_error():
    text = _error(_Crashes())
    assert "internal compiler error in pass 'test-crashes'" in text
    assert "KeyError" in text and "missing key" in text
    assert "Traceback" not in text


def test_a_pass_error_is_a_diagnostic_at_its_op():
    text = _error(_Refuses())
    assert "prog.mlir:1:1" in text and "this function is not supported here" in text
    assert "internal compiler error" not in text


@dataclass(frozen=True)
class _BuildsAnInvalidSlice(Pass):
    """A rule's bug as fuzzing found one (seed 37): it builds an hlo.slice past the end."""
    name = "test-invalid-slice"

    def run(self, module):
        from mlc.dialects import hlo
        fn = module.regions[0].blocks[0].operations[0]
        entry = fn.regions[0].blocks[0]
        with ir.InsertionPoint.at_block_begin(entry):
            hlo.slice(entry.arguments[0], [3], [5], [1])


def test_internal_error_names_where_in_mlc_it_was_raised():
    text = _error(_BuildsAnInvalidSlice())
    assert "internal compiler error in pass 'test-invalid-slice': HloTypeError:" in text
    assert "raised at dialects/hlo/shape_rules.py:" in text and "please report it" in text
