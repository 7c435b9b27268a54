"""The hlo verifier: the op table's attribute kinds plus each op's shape rule, on parsed IR.

IRDL checks operand/result arity, same-typed operands and the base of each required
attribute when the IR is parsed. Everything else (shapes, element types, attribute values,
optional attributes) is checked here, and reported as MLIR reports a verifier error:
`'hlo.add' op <what is wrong>` at the op's location.
"""

from __future__ import annotations

from mlir import ir

from .ops import OPS
from .shape_rules import RULES, OpSignature
from .types import HloTypeError, context_memo, static_tensor


# Dimension sizes, offsets and paddings beyond this overflow 64-bit size arithmetic.
_MAX_ATTRIBUTE_VALUE = 2 ** 62


def _i64(context: ir.Context) -> ir.Type:
    return ir.IntegerType.get_signless(64, context=context)


def _attribute_value(kind: str, name: str, attr: ir.Attribute):
    if kind == "i64_array":
        # The bindings give each dense array its own class (array<i32: ...> is a
        # DenseI32ArrayAttr; one of unsigned elements cannot be read at all, see
        # signature_of): the exact class, not a printed spelling (~10 us an attribute).
        if type(attr) is not ir.DenseI64ArrayAttr:
            raise HloTypeError(f"attribute '{name}' must be array<i64: ...>, got {attr}")
        values = list(attr)
        for v in values:
            if abs(v) >= _MAX_ATTRIBUTE_VALUE:
                raise HloTypeError(f"attribute '{name}' value {v} is out of range (|v| < 2^62)")
        return values
    if kind == "string":
        if not isinstance(attr, ir.StringAttr):
            raise HloTypeError(f"attribute '{name}' must be a string, got {attr}")
        return ir.StringAttr(attr).value
    if kind == "integer":
        if not isinstance(attr, ir.IntegerAttr) or ir.IntegerAttr(attr).type != _i64(attr.context):
            raise HloTypeError(f"attribute '{name}' must be an i64 integer, got {attr}")
        return ir.IntegerAttr(attr).value
    if kind == "bool":
        if not isinstance(attr, ir.BoolAttr):
            raise HloTypeError(f"attribute '{name}' must be true or false, got {attr}")
        return ir.BoolAttr(attr).value
    if kind == "elements":
        if not isinstance(attr, ir.DenseElementsAttr):
            raise HloTypeError(f"attribute '{name}' must be dense elements, got {attr}")
        return ir.DenseElementsAttr(attr)
    raise AssertionError(f"unknown attribute kind {kind}")


def signature_of(op: ir.Operation) -> OpSignature:
    """The op's operand types, attribute values and declared result types, checked for kind."""
    opdef = OPS[op.name.removeprefix("hlo.")]
    attrs = {}
    for name, kind in opdef.attributes + opdef.optional_attributes:
        if name in op.attributes:
            try:
                attr = op.attributes[name]
            except TypeError:  # the bindings cannot even represent it (array<ui32: ...>)
                raise HloTypeError(f"attribute '{name}' has a type the hlo dialect does not use") from None
            attrs[name] = _attribute_value(kind, name, attr)
        elif (name, kind) in opdef.attributes:
            raise HloTypeError(f"requires attribute '{name}'")
    operand_types = [static_tensor(v.type, f"operand #{i}") for i, v in enumerate(op.operands)]
    return OpSignature(opdef.name, operand_types, attrs, [r.type for r in op.results])


def verify_op(op: ir.Operation) -> None:
    """Raises HloTypeError (message without the op name) if `op` breaks its rule."""
    sig = signature_of(op)
    for i, t in enumerate(sig.declared_results):
        static_tensor(t, f"result #{i}")
    try:
        expected = RULES[sig.name](sig)
    except OverflowError:
        raise HloTypeError("attribute values give a result shape out of range") from None
    actual = sig.declared_results
    if list(expected) != list(actual):
        raise HloTypeError(f"result type {', '.join(map(str, actual))} does not match the "
                           f"inferred type {', '.join(map(str, expected))}")


def hlo_ops_in(root: ir.Operation) -> list[ir.Operation]:
    """Every hlo op nested under `root`, regions included, in pre-order."""
    found: list[ir.Operation] = []

    def visit(op):
        if op.name.startswith("hlo."):
            found.append(op.operation)
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.PRE_ORDER)
    return found


def _function_type_errors(root: ir.Operation) -> list[tuple[ir.Location, str]]:
    """Tensor types in function signatures MLC cannot compute with (element type, size)."""
    errors = []
    for op in root.regions[0].blocks[0].operations if root.regions else ():
        if op.operation.name != "func.func":
            continue
        ftype = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
        for what, types in (("argument", ftype.inputs), ("result", ftype.results)):
            for i, t in enumerate(types):
                if isinstance(t, ir.RankedTensorType) and t.has_static_shape:
                    try:
                        static_tensor(t, f"{what} #{i}")
                    except HloTypeError as e:
                        errors.append((op.location, f"'func.func' op {e}"))
    return errors


def verify_hlo(root: ir.Operation) -> list[tuple[ir.Location, str]]:
    """Every hlo op under `root` that breaks its rule, and every function signature MLC
    cannot compile, as (location, message) pairs."""
    errors = _function_type_errors(root)
    verified = _verified(root.context)
    for op in hlo_ops_in(root):
        opdef = OPS.get(op.name.removeprefix("hlo."))
        if opdef is None:
            errors.append((op.location, f"'{op.name}' is not an op of the hlo dialect"))
            continue
        key = _signature_key(op, opdef)
        if key is not None and key in verified:
            continue
        try:
            verify_op(op)
        except HloTypeError as e:
            errors.append((op.location, f"'{op.name}' op {e}"))
            continue
        if key is not None:
            verified.add(key)
    return errors


def _signature_key(op: ir.Operation, opdef) -> tuple | None:
    """What verify_op's verdict depends on: the op name, its operand and result types and
    the attributes its op table entry names, each by the hash of its uniqued storage
    (stable while the context lives, as in types._checked). None when an attribute cannot
    be read (verify_op reports it)."""
    key = [op.name]
    for v in op.operands:
        key.append(hash(v.type))
    key.append(None)  # (variadic ops: where the operands end)
    for t in op.results.types:
        key.append(hash(t))
    names = _ATTRIBUTE_NAMES.get(opdef.name)
    if names is None:
        names = _ATTRIBUTE_NAMES[opdef.name] = tuple(n for n, _ in opdef.attributes + opdef.optional_attributes)
    if names:
        attributes = op.attributes
        try:
            for name in names:
                key.append(hash(attributes[name]) if name in attributes else None)
        except TypeError:  # the bindings cannot represent it (array<ui32: ...>)
            return None
    return tuple(key)


_ATTRIBUTE_NAMES: dict[str, tuple[str, ...]] = {}  # op name -> every attribute it may carry


def _verified(context: ir.Context) -> set:
    """The signatures (see _signature_key) verify_op accepted in `context`: a graph repeats
    a few signatures thousands of times. By hash, not the types and attributes themselves,
    which would keep the context alive (see types._checked)."""
    return context_memo(context, "_mlc_verified_signatures")
