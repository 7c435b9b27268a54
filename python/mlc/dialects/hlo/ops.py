"""The op table of the `hlo` dialect: the one definition every other view is derived from.

`dialects/hlo.irdl.mlir` (the IRDL the context loads), `docs/dialect.md`, the builders and
the verifier all read `OPS`. Each op mirrors StableHLO's generic form: `stablehlo.X` is
`hlo.X` with the same operand, result and attribute names, StableHLO's dialect attributes
spelled as builtin ones (dimension lists as `array<i64: ...>`, enums as strings).

Operand and result constraints name a *type variable*: operands that share a letter must
have the identical type (IRDL checks that when the IR is parsed); the shape rules in
`shape_rules.py` check everything IRDL cannot say.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Attribute kinds and the IRDL base each one is checked against.
ATTRIBUTE_BASES = {
    "i64_array": "#builtin.dense_array",
    "string": "#builtin.string",
    "integer": "#builtin.integer",
    "elements": "#builtin.dense_int_or_fp_elements",
}


@dataclass(frozen=True)
class OpDef:
    """One hlo op: its signature, its required and optional attributes, and one line of meaning."""

    name: str
    operands: tuple[tuple[str, str], ...]
    results: tuple[tuple[str, str], ...]
    summary: str
    attributes: tuple[tuple[str, str], ...] = ()
    optional_attributes: tuple[tuple[str, str], ...] = field(default=())
    family: str = ""

    @property
    def full_name(self) -> str:
        return f"hlo.{self.name}"

    def attribute_kind(self, attr_name: str) -> str | None:
        for name, kind in self.attributes + self.optional_attributes:
            if name == attr_name:
                return kind
        return None


def _unary(name: str, summary: str, family: str = "elementwise-unary") -> OpDef:
    return OpDef(name, (("operand", "T"),), (("result", "T"),), summary, family=family)


def _binary(name: str, summary: str) -> OpDef:
    return OpDef(name, (("lhs", "T"), ("rhs", "T")), (("result", "T"),), summary,
                 family="elementwise-binary")


_OP_LIST = [
    OpDef("constant", (), (("output", "T"),), "a tensor literal: output = value",
          attributes=(("value", "elements"),), family="constant"),
    OpDef("iota", (), (("output", "T"),),
          "output[i0, ..., in] = i_{iota_dimension}, converted to the element type",
          attributes=(("iota_dimension", "integer"),), family="constant"),
    _binary("add", "lhs + rhs elementwise (logical or for i1)"),
    _binary("subtract", "lhs - rhs elementwise"),
    _binary("multiply", "lhs * rhs elementwise (logical and for i1)"),
    _binary("divide", "lhs / rhs elementwise; integers truncate toward zero, x/0 = -1, "
            "INT_MIN/-1 = INT_MIN (XLA's rule)"),
    _binary("maximum", "max(lhs, rhs) elementwise; NaN if either is NaN"),
    _binary("minimum", "min(lhs, rhs) elementwise; NaN if either is NaN"),
    _unary("negate", "-operand elementwise (wraps for integers)"),
    _unary("abs", "|operand| elementwise (abs(INT_MIN) = INT_MIN)"),
    _unary("exponential", "e^operand elementwise (floats)"),
    _unary("log", "natural logarithm elementwise (floats)"),
    _unary("tanh", "hyperbolic tangent elementwise (floats)"),
    _unary("sqrt", "square root elementwise (floats)"),
    _unary("rsqrt", "1 / sqrt(operand) elementwise (floats)"),
    OpDef("compare", (("lhs", "T"), ("rhs", "T")), (("result", "R"),),
          "lhs <comparison_direction> rhs elementwise, an i1 tensor of the same shape",
          attributes=(("comparison_direction", "string"),),
          optional_attributes=(("compare_type", "string"),), family="compare"),
    OpDef("select", (("pred", "P"), ("on_true", "T"), ("on_false", "T")), (("result", "T"),),
          "pred ? on_true : on_false elementwise; pred is i1, of the same shape or 0-d",
          family="select"),
    OpDef("convert", (("operand", "T"),), (("result", "R"),),
          "operand converted to the result element type elementwise (same shape); "
          "float to int rounds toward zero and saturates, NaN becomes 0; to i1 is x != 0",
          family="convert"),
    OpDef("broadcast_in_dim", (("operand", "T"),), (("result", "R"),),
          "operand dim i becomes result dim broadcast_dimensions[i] (size 1 or equal); "
          "the other result dims repeat it",
          attributes=(("broadcast_dimensions", "i64_array"),), family="shape"),
    OpDef("reshape", (("operand", "T"),), (("result", "R"),),
          "the same elements in row-major order, in the result shape",
          family="shape"),
    OpDef("transpose", (("operand", "T"),), (("result", "R"),),
          "result dim i is operand dim permutation[i]",
          attributes=(("permutation", "i64_array"),), family="shape"),
    OpDef("reduce", (("inputs", "T"), ("init_values", "I")), (("result", "R"),),
          "combines the elements along `dimensions` with `kind` "
          "(add|mul|max|min|and|or|xor), starting from the 0-d init value",
          attributes=(("dimensions", "i64_array"), ("kind", "string")), family="reduce"),
    OpDef("dot_general", (("lhs", "L"), ("rhs", "H")), (("result", "R"),),
          "sum over the contracting dims of lhs * rhs; result dims are batch, "
          "lhs free, rhs free, in that order",
          attributes=(("lhs_batching_dimensions", "i64_array"),
                      ("rhs_batching_dimensions", "i64_array"),
                      ("lhs_contracting_dimensions", "i64_array"),
                      ("rhs_contracting_dimensions", "i64_array")),
          family="dot"),
]

OPS: dict[str, OpDef] = {op.name: op for op in _OP_LIST}
