"""The IRDL text of the `hlo` dialect, generated from the op table, and its loader.

IRDL constraint values are variables: every operand or result that uses the same value
must have the identical type, which is how `(lhs: T, rhs: T) -> T` is expressed. The
checked-in `dialects/hlo.irdl.mlir` is this text (a test keeps them equal), so upstream
`mlir-opt --irdl-file=dialects/hlo.irdl.mlir` sees the same dialect as MLC.
"""

from __future__ import annotations

from mlir import ir
from mlir._mlir_libs import _mlir
from mlir.dialects import irdl

from .ops import ATTRIBUTE_BASES, OPS, OpDef

_HEADER = (
    "// The hlo dialect in IRDL. Generated from python/mlc/dialects/hlo/ops.py by\n"
    "// `python tools/gen_dialect.py`; do not edit by hand.\n"
)


def _op_text(op: OpDef) -> list[str]:
    lines = [f"  irdl.operation @{op.name} {{"]
    type_vars: dict[str, str] = {}
    for _, var in op.operands + op.results:
        var = var.rstrip("*")
        if var not in type_vars:
            type_vars[var] = f"%{var}"
            lines.append(f'    %{var} = irdl.base "!builtin.tensor"')
    for attr_name, kind in op.attributes:
        lines.append(f'    %{attr_name} = irdl.base "{ATTRIBUTE_BASES[kind]}"')
    if op.operands:
        operands = ", ".join(
            f"{name}: variadic {type_vars[var[:-1]]}" if var.endswith("*") else f"{name}: {type_vars[var]}"
            for name, var in op.operands)
        lines.append(f"    irdl.operands({operands})")
    results = ", ".join(f"{name}: {type_vars[var]}" for name, var in op.results)
    lines.append(f"    irdl.results({results})")
    if op.attributes:
        attrs = ", ".join(f'"{name}" = %{name}' for name, _ in op.attributes)
        lines.append(f"    irdl.attributes {{{attrs}}}")
    lines.append("  }")
    return lines


def irdl_text() -> str:
    lines = ["irdl.dialect @hlo {"]
    for op in OPS.values():
        lines += _op_text(op)
    lines.append("}")
    return _HEADER + "\n".join(lines) + "\n"


def _register_python_module() -> None:
    """Names `mlc.dialects.hlo` as the Python module of the hlo namespace.

    Whenever the bindings wrap an op in an OpView (every `op.opview`, `value.owner`,
    `block.operations` item...), they import the module of the op's dialect, and a failed
    import is not remembered: without a module for `hlo` every hlo op cost a failed
    `import mlir.dialects.hlo` (a walk of sys.path, ~100 us). With the search prefix the
    import succeeds once and the namespace is cached.
    """
    if "mlc.dialects" not in _mlir.globals.dialect_search_modules:
        _mlir.globals.append_dialect_search_prefix("mlc.dialects")


def load_hlo_dialect(context: ir.Context) -> None:
    """Registers the hlo dialect in `context` (once per context)."""
    _register_python_module()
    with context, ir.Location.unknown():
        irdl.load_dialects(ir.Module.parse(irdl_text()))
