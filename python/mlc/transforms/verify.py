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


def fail_on_invalid_hlo(module: ir.Operation) -> None:
    """Graph passes never rewrite invalid IR: report the first broken op and stop."""
    errors = verify_hlo(module)
    for location, message in errors[:-1]:
        location.emit_error(message)
    if errors:
        raise PassError(errors[-1][1], errors[-1][0])
