"""Pass `hlo-verify`: runs the hlo verifier (shape rules and attribute checks) on a module."""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..dialects.hlo import verify_hlo
from .pass_base import Pass, PassError


@dataclass(frozen=True)
class HloVerify(Pass):
    """Checks every hlo op against its shape rule and attribute constraints.

    Expects and produces any dialects; changes nothing. Reports each broken op as an error
    at its location (`'hlo.add' op operands must ...`) and fails.
    """

    name = "hlo-verify"

    def run(self, module: ir.Operation) -> None:
        fail_on_invalid_hlo(module)


@dataclass(frozen=True)
class HloGraphPass(Pass):
    """Base of the passes that rewrite hlo: they never rewrite invalid IR, so each checks
    its input first. Option verify-input=false skips that check where the input is known
    valid (the compile pipeline runs hlo-verify once, first; each graph pass keeps IR valid,
    which the fuzzer checks). Re-verifying before every pass was a sixth of compile time."""

    verify_input: bool = True

    def check_input(self, module: ir.Operation) -> None:
        if self.verify_input:
            fail_on_invalid_hlo(module)


def fail_on_invalid_hlo(module: ir.Operation) -> None:
    """Graph passes never rewrite invalid IR: report the first broken op and stop."""
    errors = verify_hlo(module)
    for location, message in errors[:-1]:
        location.emit_error(message)
    if errors:
        raise PassError(errors[-1][1], errors[-1][0])
