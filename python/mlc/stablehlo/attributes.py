"""StableHLO's dialect attributes read as the builtin values hlo ops carry.

In the generic form `#stablehlo<comparison_direction GT>` and `#stablehlo.dot<...>` are
opaque attributes (the dialect is not loaded): their text is all there is, so this module
parses that text. Dimension numbers become the flat i64 arrays of the hlo op (ops.py)."""

from __future__ import annotations

import re

from mlir import ir


def opaque_text(attr: ir.Attribute) -> str | None:
    """`comparison_direction GT` for `#stablehlo<comparison_direction GT>`; None if builtin."""
    if isinstance(attr, ir.OpaqueAttr):
        data = attr.data
        return data.decode() if isinstance(data, bytes) else data
    text = str(attr)
    if text.startswith("#"):
        return text.split("<", 1)[1][:-1] if "<" in text else text
    return None


def enum_value(attr: ir.Attribute) -> str:
    """`GT` for `#stablehlo<comparison_direction GT>` (and a plain string attribute as is)."""
    if isinstance(attr, ir.StringAttr):
        return attr.value
    text = opaque_text(attr)
    return text.split()[-1] if text else str(attr)


_FIELD = re.compile(r"(\w+)\s*=\s*(\[[^\]]*\]|-?\d+)")


def struct_fields(attr: ir.Attribute) -> dict[str, list[int] | int]:
    """`#stablehlo.gather<offset_dims = [1], index_vector_dim = 1>` -> {name: value}."""
    text = opaque_text(attr) or ""
    fields = {}
    for name, value in _FIELD.findall(text):
        if value.startswith("["):
            fields[name] = [int(v) for v in value[1:-1].split(",") if v.strip()]
        else:
            fields[name] = int(value)
    return fields


def conv_dimension_numbers(attr: ir.Attribute) -> dict:
    """`#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>` -> the hlo op's fields."""
    text = opaque_text(attr) or ""
    match = re.search(r"\[([^\]]*)\]\s*x\s*\[([^\]]*)\]\s*->\s*\[([^\]]*)\]", text)
    if not match:
        raise ValueError(f"cannot read convolution dimension numbers '{text}'")
    lhs, rhs, out = ([s.strip() for s in group.split(",")] for group in match.groups())

    def spatial(labels):  # spatial dims are numbered 0, 1, ...: their positions, in that order
        digits = sorted((int(s), i) for i, s in enumerate(labels) if s.isdigit())
        return [i for _, i in digits]

    return {"input_batch_dimension": lhs.index("b"), "input_feature_dimension": lhs.index("f"),
            "input_spatial_dimensions": spatial(lhs),
            "kernel_input_feature_dimension": rhs.index("i"),
            "kernel_output_feature_dimension": rhs.index("o"),
            "kernel_spatial_dimensions": spatial(rhs),
            "output_batch_dimension": out.index("b"), "output_feature_dimension": out.index("f"),
            "output_spatial_dimensions": spatial(out)}


def i64_array(values) -> ir.Attribute:
    return ir.DenseI64ArrayAttr.get([int(v) for v in values])


def i64(value) -> ir.Attribute:
    return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), int(value))


def get(op: ir.Operation, name: str):
    """The attribute or property `name` of op, or None (properties of unregistered ops do
    not show when iterating, but read by name)."""
    try:
        return op.attributes[name]
    except (KeyError, IndexError):
        return None


def int_list(attr) -> list[int]:
    if attr is None:
        return []
    if isinstance(attr, ir.DenseI64ArrayAttr):
        return list(attr)
    if isinstance(attr, ir.DenseBoolArrayAttr):
        return [int(bool(v)) for v in attr]
    if isinstance(attr, ir.DenseIntElementsAttr):
        return [int(v) for v in attr]
    if isinstance(attr, ir.ArrayAttr):
        return [ir.IntegerAttr(a).value for a in attr]
    raise ValueError(f"expected a list of integers, got {attr}")
