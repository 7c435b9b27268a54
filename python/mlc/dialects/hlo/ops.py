"""The op table of the `hlo` dialect: the one definition every other view is derived from.

`dialects/hlo.irdl.mlir` (the IRDL the context loads), `docs/dialect.md`, the builders and
the verifier all read `OPS`. Each op mirrors StableHLO's generic form: `stablehlo.X` is
`hlo.X` with the same operand, result and attribute names, StableHLO's dialect attributes
spelled as builtin ones (dimension lists as `array<i64: ...>`, enums as strings).

Operand and result constraints name a *type variable*: operands that share a letter must
have the identical type (IRDL checks that when the IR is parsed); a trailing `*` makes an
operand variadic (all of its values share the one type). The shape rules in
`shape_rules.py` check everything IRDL cannot say.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

# Attribute kinds and the IRDL base each one is checked against.
ATTRIBUTE_BASES = {
    "i64_array": "#builtin.dense_array",
    "string": "#builtin.string",
    "integer": "#builtin.integer",
    "elements": "#builtin.dense_int_or_fp_elements",
    "bool": "#builtin.integer",
}


# Element classes: which element types an op accepts. Booleans (i1) are not numbers.
ELEMENT_CLASSES = {
    "any": "any element type",
    "number": "integer or float",
    "float": "float",
    "integer": "integer or i1",
    "int": "integer (not i1)",
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
    # Element types the operands may have: one of ELEMENT_CLASSES (checked by the verifier).
    elements: str = "any"
    # False: the op's results carry no derivative (integer/boolean results, or piecewise
    # constant ones whose derivative is zero almost everywhere, as JAX defines them);
    # autodiff gives their results zero tangents and cotangents.
    differentiable: bool = True
    # Arithmetic per result element, in flop-like units (an add is 1; 0 for ops that only
    # move or relabel data). Elementwise ops only; the fusion cost model multiplies it by
    # how often a fused kernel would evaluate the op per element (see hlo-fuse).
    cost: float = 1.0
    # The op's role in hlo-fuse (see FUSION_ROLES); "" never fuses.
    fusion: str = ""

    @property
    def full_name(self) -> str:
        return f"hlo.{self.name}"

    def attribute_kind(self, attr_name: str) -> str | None:
        for name, kind in self.attributes + self.optional_attributes:
            if name == attr_name:
                return kind
        return None


def _unary(name: str, summary: str, elements: str) -> OpDef:
    return OpDef(name, (("operand", "T"),), (("result", "T"),), summary,
                 family="elementwise-unary", elements=elements)


def _binary(name: str, summary: str, elements: str) -> OpDef:
    return OpDef(name, (("lhs", "T"), ("rhs", "T")), (("result", "T"),), summary,
                 family="elementwise-binary", elements=elements)


_OP_LIST = [
    OpDef("constant", (), (("output", "T"),), "a tensor literal: output = value",
          attributes=(("value", "elements"),), family="constant"),
    OpDef("iota", (), (("output", "T"),),
          "output[i0, ..., in] = i_{iota_dimension}, converted to the element type",
          attributes=(("iota_dimension", "integer"),), family="constant"),
    _binary("add", "lhs + rhs elementwise (logical or for i1)", "any"),
    _binary("subtract", "lhs - rhs elementwise", "number"),
    _binary("multiply", "lhs * rhs elementwise (logical and for i1)", "any"),
    _binary("divide", "lhs / rhs elementwise; integers truncate toward zero, x/0 = -1, "
            "INT_MIN/-1 = INT_MIN (XLA's rule)", "number"),
    _binary("remainder", "lhs - trunc(lhs / rhs) * rhs (sign of lhs, C fmod); integers: "
            "x % 0 = x, INT_MIN % -1 = 0", "number"),
    _binary("power", "lhs ^ rhs; integers: x ^ negative = 0 unless |x| = 1", "number"),
    _binary("maximum", "max(lhs, rhs) elementwise; NaN if either is NaN", "any"),
    _binary("minimum", "min(lhs, rhs) elementwise; NaN if either is NaN", "any"),
    _binary("atan2", "the angle of (rhs, lhs) in [-pi, pi] elementwise", "float"),
    _binary("and", "bitwise (logical for i1) and", "integer"),
    _binary("or", "bitwise (logical for i1) or", "integer"),
    _binary("xor", "bitwise (logical for i1) xor", "integer"),
    _binary("shift_left", "lhs << rhs; 0 when rhs >= bit width (rhs read as unsigned)", "int"),
    _binary("shift_right_arithmetic", "lhs >> rhs with sign fill; all sign bits when rhs >= "
            "bit width", "int"),
    _binary("shift_right_logical", "lhs >> rhs with zero fill; 0 when rhs >= bit width", "int"),
    _unary("negate", "-operand elementwise (wraps for integers)", "number"),
    _unary("abs", "|operand| elementwise (abs(INT_MIN) = INT_MIN)", "number"),
    _unary("sign", "-1, 0 or 1 by the sign of operand; floats keep -0.0, +0.0 and NaN", "number"),
    _unary("floor", "largest integral value <= operand", "float"),
    _unary("ceil", "smallest integral value >= operand", "float"),
    _unary("round_nearest_even", "nearest integral value, ties to even", "float"),
    _unary("round_nearest_afz", "nearest integral value, ties away from zero", "float"),
    _unary("exponential", "e^operand elementwise", "float"),
    _unary("exponential_minus_one", "e^operand - 1, accurate near 0", "float"),
    _unary("log", "natural logarithm elementwise", "float"),
    _unary("log_plus_one", "log(1 + operand), accurate near 0", "float"),
    _unary("logistic", "1 / (1 + e^-operand)", "float"),
    _unary("tanh", "hyperbolic tangent elementwise", "float"),
    _unary("sqrt", "square root elementwise", "float"),
    _unary("rsqrt", "1 / sqrt(operand) elementwise", "float"),
    _unary("cbrt", "cube root elementwise", "float"),
    _unary("sine", "sin(operand), radians", "float"),
    _unary("cosine", "cos(operand), radians", "float"),
    _unary("tan", "tan(operand), radians", "float"),
    _unary("not", "bitwise (logical for i1) not", "integer"),
    _unary("popcnt", "number of set bits", "int"),
    _unary("count_leading_zeros", "number of leading zero bits", "int"),
    OpDef("is_finite", (("x", "T"),), (("y", "R"),),
          "true where x is neither infinite nor NaN (an i1 tensor of the same shape)",
          family="predicate", elements="float"),
    OpDef("compare", (("lhs", "T"), ("rhs", "T")), (("result", "R"),),
          "lhs <comparison_direction> rhs elementwise, an i1 tensor of the same shape",
          attributes=(("comparison_direction", "string"),),
          optional_attributes=(("compare_type", "string"),), family="compare"),
    OpDef("clamp", (("min", "A"), ("operand", "T"), ("max", "B")), (("result", "T"),),
          "min(max(operand, min), max) elementwise; min and max are 0-d or of operand's shape",
          family="clamp", elements="number"),
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
    OpDef("bitcast_convert", (("operand", "T"),), (("result", "R"),),
          "the same bits read as the result element type (of the same bit width, not i1)",
          family="bitcast"),
    OpDef("reverse", (("operand", "T"),), (("result", "T"),),
          "operand with the order of elements along each of `dimensions` reversed",
          attributes=(("dimensions", "i64_array"),), family="shape"),
    OpDef("slice", (("operand", "T"),), (("result", "R"),),
          "operand[start_indices : limit_indices : strides] per dimension",
          attributes=(("start_indices", "i64_array"), ("limit_indices", "i64_array"),
                      ("strides", "i64_array")), family="shape"),
    OpDef("dynamic_slice", (("operand", "T"), ("start_indices", "S*")), (("result", "R"),),
          "a slice of `slice_sizes` at run-time starts (0-d integer tensors, one per dim), each "
          "clamped to [0, dim - size] as StableHLO specifies",
          attributes=(("slice_sizes", "i64_array"),), family="shape"),
    OpDef("dynamic_update_slice", (("operand", "T"), ("update", "U"), ("start_indices", "S*")),
          (("result", "T"),),
          "operand with `update` written at run-time starts, each clamped to [0, dim - update dim]",
          family="shape"),
    OpDef("pad", (("operand", "T"), ("padding_value", "P")), (("result", "R"),),
          "operand with edge padding (negative crops) and interior padding between elements, "
          "filled with the 0-d padding_value",
          attributes=(("edge_padding_low", "i64_array"), ("edge_padding_high", "i64_array"),
                      ("interior_padding", "i64_array")), family="shape"),
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
    OpDef("argmax", (("input", "T"),), (("result", "R"),),
          "index of the largest element along `dimension` (first on ties; the first NaN wins, "
          "as numpy); the result's integer type is the index type",
          attributes=(("dimension", "integer"),), family="reduce"),
    OpDef("argmin", (("input", "T"),), (("result", "R"),),
          "index of the smallest element along `dimension` (first on ties; the first NaN wins, "
          "as numpy); the result's integer type is the index type",
          attributes=(("dimension", "integer"),), family="reduce"),
    OpDef("reduce_window", (("inputs", "T"), ("init_values", "I")), (("result", "R"),),
          "combines each window with `kind` (add|mul|max|min|and|or|xor), starting from the "
          "init value; pads and base dilations are filled with the init value",
          attributes=(("window_dimensions", "i64_array"), ("kind", "string")),
          optional_attributes=(("window_strides", "i64_array"), ("base_dilations", "i64_array"),
                               ("window_dilations", "i64_array"), ("padding", "elements")),
          family="reduce"),
    OpDef("convolution", (("lhs", "L"), ("rhs", "H")), (("result", "R"),),
          "N-d convolution (cross-correlation) of lhs by the kernel rhs, with strides, padding, "
          "lhs (input) and rhs (kernel) dilation, feature groups (grouped/depthwise) or batch "
          "groups; dimension numbers give each operand's layout",
          attributes=(("input_batch_dimension", "integer"), ("input_feature_dimension", "integer"),
                      ("input_spatial_dimensions", "i64_array"),
                      ("kernel_input_feature_dimension", "integer"),
                      ("kernel_output_feature_dimension", "integer"),
                      ("kernel_spatial_dimensions", "i64_array"),
                      ("output_batch_dimension", "integer"), ("output_feature_dimension", "integer"),
                      ("output_spatial_dimensions", "i64_array"),
                      ("feature_group_count", "integer"), ("batch_group_count", "integer")),
          optional_attributes=(("window_strides", "i64_array"), ("padding", "elements"),
                               ("lhs_dilation", "i64_array"), ("rhs_dilation", "i64_array")),
          family="dot"),
    OpDef("gather", (("operand", "T"), ("start_indices", "S")), (("result", "R"),),
          "slices of operand at the starts held in start_indices (StableHLO's dimension numbers); "
          "each start is clamped so its slice lies inside operand",
          attributes=(("offset_dims", "i64_array"), ("collapsed_slice_dims", "i64_array"),
                      ("start_index_map", "i64_array"), ("index_vector_dim", "integer"),
                      ("slice_sizes", "i64_array")),
          optional_attributes=(("operand_batching_dims", "i64_array"),
                               ("start_indices_batching_dims", "i64_array"),
                               ("indices_are_sorted", "bool")),
          family="indexing"),
    OpDef("scatter", (("inputs", "T"), ("scatter_indices", "S"), ("updates", "U")), (("result", "T"),),
          "inputs with each update combined (`kind` = set|add|mul|max|min) into the element its "
          "scatter index selects, in update order; an update whose window does not fit in inputs is "
          "dropped whole (XLA's rule)",
          attributes=(("update_window_dims", "i64_array"), ("inserted_window_dims", "i64_array"),
                      ("scatter_dims_to_operand_dims", "i64_array"), ("index_vector_dim", "integer"),
                      ("kind", "string")),
          optional_attributes=(("input_batching_dims", "i64_array"),
                               ("scatter_indices_batching_dims", "i64_array"),
                               ("indices_are_sorted", "bool"), ("unique_indices", "bool")),
          family="indexing"),
    OpDef("sort", (("inputs", "T"),), (("result", "T"),),
          "inputs sorted along `dimension`, ascending (NaN last, as numpy) or `descending` "
          "(NaN first); -0.0 and 0.0 tie; always stable, so `is_stable` is accepted either way",
          attributes=(("dimension", "integer"),),
          optional_attributes=(("is_stable", "bool"), ("descending", "bool")), family="sort"),
    OpDef("argsort", (("operand", "T"),), (("result", "R"),),
          "the indices that sort operand along `dimension` (stable; order as hlo.sort); the "
          "result's integer type is the index type; with `limit` = k only the first k of them "
          "along `dimension` (top-k: ascending the k smallest, descending the k largest)",
          attributes=(("dimension", "integer"),),
          optional_attributes=(("is_stable", "bool"), ("descending", "bool"), ("limit", "integer")),
          family="sort"),
    OpDef("dot_general", (("lhs", "L"), ("rhs", "H")), (("result", "R"),),
          "sum over the contracting dims of lhs * rhs; result dims are batch, "
          "lhs free, rhs free, in that order",
          attributes=(("lhs_batching_dimensions", "i64_array"),
                      ("rhs_batching_dimensions", "i64_array"),
                      ("lhs_contracting_dimensions", "i64_array"),
                      ("rhs_contracting_dimensions", "i64_array")),
          family="dot"),
    OpDef("all_reduce", (("operand", "T"),), (("result", "T"),),
          "combines operand elementwise across all processes with `kind` (add|mul|max|min); "
          "every process gets the result (MPI_Allreduce); the identity on one process",
          attributes=(("kind", "string"),), family="collective", elements="number"),
    OpDef("all_gather", (("operand", "T"),), (("result", "R"),),
          "the operands of all processes concatenated along `all_gather_dim`, in process order, "
          "on every process; the result type says how many processes (result dim = operand dim "
          "x processes)",
          attributes=(("all_gather_dim", "integer"),), family="collective", elements="number"),
    OpDef("reduce_scatter", (("operand", "T"),), (("result", "R"),),
          "all_reduce with `kind` (add|mul|max|min), then process i keeps block i of the "
          "`scatter_dimension` split into as many blocks as processes (operand dim = result "
          "dim x processes)",
          attributes=(("scatter_dimension", "integer"), ("kind", "string")), family="collective",
          elements="number"),
    OpDef("collective_broadcast", (("operand", "T"),), (("result", "T"),),
          "process 0's operand, on every process (StableHLO's collective_broadcast with one "
          "group of all processes, whose first member is the root; MPI_Bcast); the identity "
          "on one process",
          family="collective", elements="number"),
]

# Ops without a derivative (see OpDef.differentiable); autodiff has a rule for every other op.
_NOT_DIFFERENTIABLE = frozenset({
    "constant", "iota", "and", "or", "xor", "shift_left", "shift_right_arithmetic",
    "shift_right_logical", "not", "popcnt", "count_leading_zeros", "is_finite", "compare",
    "bitcast_convert", "argmax", "argmin", "argsort", "sign", "floor", "ceil",
    "round_nearest_even", "round_nearest_afz"})

# Per-element costs other than 1 (OpDef.cost): data movement is free, division and roots
# cost a few adds, transcendental functions a polynomial's worth (MLC's own approximations
# are 15-40 arith ops).
_FREE = ("constant", "iota", "convert", "bitcast_convert", "broadcast_in_dim", "reverse", "slice",
         "reshape", "transpose", "pad", "dynamic_slice", "dynamic_update_slice")
_COSTS = {**{name: 0.0 for name in _FREE},
          **{name: 4.0 for name in ("divide", "remainder", "sqrt", "rsqrt", "cbrt")},
          **{name: 20.0 for name in ("exponential", "exponential_minus_one", "log", "log_plus_one",
                                     "logistic", "tanh", "sine", "cosine", "tan", "atan2", "power")}}


# Roles in fusion (OpDef.fusion), read by hlo-fuse:
#   elementwise  fuses into its consumers and pulls its own producers in;
#   movement     the same, for data movement (free per element, may repeat reads);
#   gather       fuses into its consumers (as a leaf: its operands stay materialized, since
#                they are read at data-dependent positions);
#   input        a reduction: roots an "input" fusion, takes an epilogue on its result shape;
#   output       a contraction: roots an "output" fusion, takes only an elementwise epilogue.
FUSION_ROLES = ("elementwise", "movement", "gather", "input", "output")
_ELEMENTWISE_FAMILIES = ("elementwise-unary", "elementwise-binary", "predicate", "compare", "select",
                         "clamp", "convert", "bitcast", "constant")
_FUSION = {"broadcast_in_dim": "movement", "reshape": "movement", "transpose": "movement",
           "slice": "movement", "reverse": "movement", "gather": "gather", "reduce": "input",
           "dot_general": "output", "convolution": "output"}


def _fusion_role(op: OpDef) -> str:
    return _FUSION.get(op.name, "elementwise" if op.family in _ELEMENTWISE_FAMILIES else "")


def _with_facts(op: OpDef) -> OpDef:
    if op.name in _NOT_DIFFERENTIABLE:
        op = replace(op, differentiable=False)
    if op.name in _COSTS:
        op = replace(op, cost=_COSTS[op.name])
    return replace(op, fusion=_fusion_role(op))


OPS: dict[str, OpDef] = {op.name: _with_facts(op) for op in _OP_LIST}
