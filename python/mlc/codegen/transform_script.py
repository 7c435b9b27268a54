"""Running a transform-dialect script MLC generated on the module a pass works on, and
removing the attributes the pass tagged ops with for the script to match."""

from __future__ import annotations

from mlir import ir
from mlir.dialects.transform import interpreter

from ..transforms.pass_base import PassError


# After transform.loop.peel: the main loop's tile sizes become constants (affine.min
# folded), so the ops inside it are vectorized without masks.
PEELED_SIZES = """%peeled_funcs = transform.structured.match ops{["func.func"]} in %root
      : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %peeled_funcs {
      transform.apply_patterns.linalg.tiling_canonicalization
      transform.apply_patterns.canonicalization
    } : !transform.any_op"""


def script_module(steps: str, after: str) -> str:
    """A transform module whose @__transform_main runs `steps` on %root, then binds %funcs
    (every func.func) for `after` (the pattern applications that clean up behind them)."""
    return f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: !transform.any_op {{transform.readonly}}) {{
    {steps}
    %funcs = transform.structured.match ops{{["func.func"]}} in %root : (!transform.any_op) -> !transform.any_op
    {after}
    transform.yield
  }}
}}
"""


def apply_transform_script(module: ir.Operation, text: str, what: str) -> None:
    """Parses `text` (a module holding @__transform_main) and applies it to `module`; a
    failure is a PassError naming `what` failed."""
    script = ir.Module.parse(text)
    try:
        interpreter.apply_named_sequence(module, script.body.operations[0], script)
    except (ir.MLIRError, ValueError) as e:  # the interpreter's binding raises ValueError
        raise PassError(f"{what} failed: {e}") from None


def drop_attributes(module: ir.Operation, names) -> None:
    """Removes the attributes `names` wherever they are left (on ops a script did not
    rewrite)."""
    def visit(op):
        for name in names:
            if name in op.attributes:
                del op.attributes[name]
        return ir.WalkResult.ADVANCE

    module.walk(visit)
