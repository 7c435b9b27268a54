"""Result-type inference and the checks IRDL cannot express, one rule per op family.

A rule takes an `OpSignature` (operand types, attributes as Python values, and the result
types the IR declares, or None when a builder asks) and returns the result types the op
must have, or raises `HloTypeError`. The builders call a rule to infer result types; the
verifier calls the same rule and compares with what the IR declares: one source of truth.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from mlir import ir

from .ops import ELEMENT_CLASSES, OPS
from .types import (HloTypeError, element_bits, is_bool, is_float, is_integer, shape_str, static_tensor,
                    tensor_type)


@dataclass
class OpSignature:
    name: str
    operand_types: list[ir.RankedTensorType]
    attributes: dict
    declared_results: list[ir.Type] | None = None
    # Set when the types above were made signless for lowering: which were unsigned.
    unsigned_operands: tuple[bool, ...] = ()
    unsigned_results: tuple[bool, ...] = ()

    def operand_unsigned(self, i: int) -> bool:
        return bool(self.unsigned_operands) and self.unsigned_operands[i]

    def result_unsigned(self, i: int = 0) -> bool:
        return bool(self.unsigned_results) and self.unsigned_results[i]

    def declared(self, what: str = "result") -> ir.RankedTensorType:
        if not self.declared_results:
            raise HloTypeError(f"the {what} type must be given")
        return static_tensor(self.declared_results[0], what)


Rule = Callable[[OpSignature], list[ir.Type]]
RULES: dict[str, Rule] = {}


def rule(*op_names: str):
    def register(fn: Rule) -> Rule:
        for name in op_names:
            RULES[name] = fn
        return fn
    return register


_ELEMENT_CHECKS = {
    "any": lambda t: True,
    "number": lambda t: (is_float(t) or is_integer(t)) and not is_bool(t),
    "float": is_float,
    "integer": is_integer,
    "int": lambda t: is_integer(t) and not is_bool(t),
}


def _check_element_class(sig: OpSignature, et: ir.Type) -> None:
    cls = OPS[sig.name].elements
    if not _ELEMENT_CHECKS[cls](et):
        raise HloTypeError(f"operands must have {ELEMENT_CLASSES[cls]} elements, got {et}")


def _dims_in_range(dims, rank: int, what: str) -> None:
    if len(set(dims)) != len(dims):
        raise HloTypeError(f"{what} has repeated entries: {list(dims)}")
    for d in dims:
        if not 0 <= d < rank:
            raise HloTypeError(f"{what} entry {d} is out of range for rank {rank}")


def _names_of_family(family: str) -> list[str]:
    return [name for name, op in OPS.items() if op.family == family]


@rule(*_names_of_family("elementwise-binary"))
def elementwise_binary(sig: OpSignature) -> list[ir.Type]:
    lhs, rhs = sig.operand_types
    if lhs != rhs:
        raise HloTypeError(f"operands must have the same type, got {lhs} and {rhs}")
    _check_element_class(sig, lhs.element_type)
    return [lhs]


@rule(*_names_of_family("elementwise-unary"))
def elementwise_unary(sig: OpSignature) -> list[ir.Type]:
    (x,) = sig.operand_types
    _check_element_class(sig, x.element_type)
    return [x]


@rule(*_names_of_family("predicate"))
def elementwise_predicate(sig: OpSignature) -> list[ir.Type]:
    (x,) = sig.operand_types
    _check_element_class(sig, x.element_type)
    return [tensor_type(x.shape, ir.IntegerType.get_signless(1))]


@rule("clamp")
def clamp(sig: OpSignature) -> list[ir.Type]:
    low, x, high = sig.operand_types
    _check_element_class(sig, x.element_type)
    for name, bound in (("min", low), ("max", high)):
        if bound.element_type != x.element_type:
            raise HloTypeError(f"{name} element type {bound.element_type} must equal operand's "
                               f"{x.element_type}")
        if bound.rank != 0 and bound.shape != x.shape:
            raise HloTypeError(f"{name} shape {shape_str(bound.shape)} must be scalar or equal the "
                               f"operand shape {shape_str(x.shape)}")
    return [x]


COMPARISON_DIRECTIONS = ("EQ", "NE", "GE", "GT", "LE", "LT")
COMPARE_TYPES = ("FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED")


@rule("compare")
def compare(sig: OpSignature) -> list[ir.Type]:
    lhs, rhs = sig.operand_types
    if lhs != rhs:
        raise HloTypeError(f"operands must have the same type, got {lhs} and {rhs}")
    direction = sig.attributes["comparison_direction"]
    if direction not in COMPARISON_DIRECTIONS:
        raise HloTypeError(f"comparison_direction must be one of {', '.join(COMPARISON_DIRECTIONS)}, "
                           f"got \"{direction}\"")
    compare_type = sig.attributes.get("compare_type")
    if compare_type is not None:
        if compare_type not in COMPARE_TYPES:
            raise HloTypeError(f"compare_type must be one of {', '.join(COMPARE_TYPES)}, "
                               f"got \"{compare_type}\"")
        if (compare_type in ("FLOAT", "TOTALORDER")) != is_float(lhs.element_type):
            raise HloTypeError(f"compare_type \"{compare_type}\" does not fit element type "
                               f"{lhs.element_type}")
    return [tensor_type(lhs.shape, ir.IntegerType.get_signless(1))]


@rule("select")
def select(sig: OpSignature) -> list[ir.Type]:
    pred, on_true, on_false = sig.operand_types
    if on_true != on_false:
        raise HloTypeError(f"on_true and on_false must have the same type, got {on_true} and {on_false}")
    if not is_bool(pred.element_type):
        raise HloTypeError(f"pred must have i1 elements, got {pred.element_type}")
    if pred.rank != 0 and pred.shape != on_true.shape:
        raise HloTypeError(f"pred shape {shape_str(pred.shape)} must be scalar or equal the "
                           f"operand shape {shape_str(on_true.shape)}")
    return [on_true]


@rule("convert")
def convert(sig: OpSignature) -> list[ir.Type]:
    (x,) = sig.operand_types
    result = sig.declared()
    if result.shape != x.shape:
        raise HloTypeError(f"result shape {shape_str(result.shape)} must equal operand shape "
                           f"{shape_str(x.shape)}")
    return [result]


@rule("bitcast_convert")
def bitcast_convert(sig: OpSignature) -> list[ir.Type]:
    (result,) = convert(sig)  # the same shape rule
    src, dst = sig.operand_types[0].element_type, result.element_type
    if is_bool(src) or is_bool(dst) or element_bits(src) != element_bits(dst):
        raise HloTypeError(f"cannot bitcast {src} to {dst}: element types must have the same "
                           f"bit width, and i1 has no bit layout")
    return [result]


@rule("reverse")
def reverse(sig: OpSignature) -> list[ir.Type]:
    (x,) = sig.operand_types
    _dims_in_range(sig.attributes["dimensions"], x.rank, "dimensions")
    return [x]


def _per_dim(sig: OpSignature, rank: int, *names: str) -> list[list[int]]:
    values = [list(sig.attributes[n]) for n in names]
    for name, v in zip(names, values):
        if len(v) != rank:
            raise HloTypeError(f"{name} has {len(v)} entries, operand rank is {rank}")
    return values


@rule("slice")
def slice_(sig: OpSignature) -> list[ir.Type]:
    (x,) = sig.operand_types
    starts, limits, strides = _per_dim(sig, x.rank, "start_indices", "limit_indices", "strides")
    shape = []
    for d, (lo, hi, step, size) in enumerate(zip(starts, limits, strides, x.shape)):
        if step < 1:
            raise HloTypeError(f"strides[{d}] = {step} must be positive")
        if not 0 <= lo <= hi <= size:
            raise HloTypeError(f"dimension {d}: need 0 <= start ({lo}) <= limit ({hi}) <= size ({size})")
        shape.append((hi - lo + step - 1) // step)
    return [tensor_type(shape, x.element_type)]


def _check_start_indices(sig: OpSignature, starts: list, rank: int) -> None:
    if len(starts) != rank:
        raise HloTypeError(f"takes {rank} start indices (one per operand dimension), got {len(starts)}")
    for i, t in enumerate(starts):
        if t.rank != 0 or not is_integer(t.element_type) or is_bool(t.element_type):
            raise HloTypeError(f"start index {i} must be a 0-d integer tensor, got {t}")


@rule("dynamic_slice")
def dynamic_slice(sig: OpSignature) -> list[ir.Type]:
    x, *starts = sig.operand_types
    _check_start_indices(sig, starts, x.rank)
    (sizes,) = _per_dim(sig, x.rank, "slice_sizes")
    for d, (size, dim) in enumerate(zip(sizes, x.shape)):
        if not 0 <= size <= dim:
            raise HloTypeError(f"slice_sizes[{d}] = {size} must be in [0, {dim}]")
    return [tensor_type(sizes, x.element_type)]


@rule("dynamic_update_slice")
def dynamic_update_slice(sig: OpSignature) -> list[ir.Type]:
    x, update, *starts = sig.operand_types
    _check_start_indices(sig, starts, x.rank)
    if update.rank != x.rank or update.element_type != x.element_type:
        raise HloTypeError(f"update {update} must have operand's rank and element type ({x})")
    for d, (u, dim) in enumerate(zip(update.shape, x.shape)):
        if u > dim:
            raise HloTypeError(f"update dim {d} ({u}) is larger than operand dim ({dim})")
    return [x]


@rule("pad")
def pad(sig: OpSignature) -> list[ir.Type]:
    x, value = sig.operand_types
    if value.rank != 0 or value.element_type != x.element_type:
        raise HloTypeError(f"padding_value must be a 0-d tensor of {x.element_type}, got {value}")
    low, high, interior = _per_dim(sig, x.rank, "edge_padding_low", "edge_padding_high",
                                   "interior_padding")
    shape, widest = [], []
    for d, (lo, hi, inner, n) in enumerate(zip(low, high, interior, x.shape)):
        if inner < 0:
            raise HloTypeError(f"interior_padding[{d}] = {inner} must be non-negative")
        size = lo + hi + n + max(n - 1, 0) * inner
        if size < 0:
            raise HloTypeError(f"dimension {d} would have negative size {size}")
        shape.append(size)
        widest.append(size - min(lo, 0) - min(hi, 0))  # before negative padding crops it
    # The lowering builds the padded tensor before cropping: it must fit too.
    static_tensor(tensor_type(widest, x.element_type), "the padded operand (before negative padding)")
    return [tensor_type(shape, x.element_type)]


@rule("constant")
def constant(sig: OpSignature) -> list[ir.Type]:
    value = sig.attributes["value"]
    return [static_tensor(value.type, "value")]


@rule("iota")
def iota(sig: OpSignature) -> list[ir.Type]:
    result = sig.declared()
    dim = sig.attributes["iota_dimension"]
    if not 0 <= dim < max(result.rank, 1) or result.rank == 0:
        raise HloTypeError(f"iota_dimension {dim} is out of range for result rank {result.rank}")
    if is_bool(result.element_type):
        raise HloTypeError("iota cannot produce i1 elements")
    return [result]


@rule("broadcast_in_dim")
def broadcast_in_dim(sig: OpSignature) -> list[ir.Type]:
    (x,) = sig.operand_types
    result = sig.declared()
    dims = sig.attributes["broadcast_dimensions"]
    if len(dims) != x.rank:
        raise HloTypeError(f"broadcast_dimensions has {len(dims)} entries, operand rank is {x.rank}")
    _dims_in_range(dims, result.rank, "broadcast_dimensions")
    for i, d in enumerate(dims):
        if x.shape[i] not in (1, result.shape[d]):
            raise HloTypeError(f"operand dim {i} has size {x.shape[i]}, which cannot broadcast "
                               f"to result dim {d} of size {result.shape[d]}")
    if result.element_type != x.element_type:
        raise HloTypeError(f"result element type {result.element_type} must equal operand's "
                           f"{x.element_type}")
    return [result]


def _num_elements(shape) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


@rule("reshape")
def reshape(sig: OpSignature) -> list[ir.Type]:
    (x,) = sig.operand_types
    result = sig.declared()
    if _num_elements(result.shape) != _num_elements(x.shape):
        raise HloTypeError(f"cannot reshape {shape_str(x.shape)} ({_num_elements(x.shape)} elements) "
                           f"to {shape_str(result.shape)} ({_num_elements(result.shape)} elements)")
    if result.element_type != x.element_type:
        raise HloTypeError(f"result element type {result.element_type} must equal operand's "
                           f"{x.element_type}")
    return [result]


@rule("transpose")
def transpose(sig: OpSignature) -> list[ir.Type]:
    (x,) = sig.operand_types
    perm = sig.attributes["permutation"]
    if sorted(perm) != list(range(x.rank)):
        raise HloTypeError(f"permutation {list(perm)} is not a permutation of 0..{x.rank - 1}")
    return [tensor_type([x.shape[p] for p in perm], x.element_type)]


REDUCE_KINDS = ("add", "mul", "max", "min", "and", "or", "xor")
_BITWISE_KINDS = ("and", "or", "xor")


def _check_combiner(kind: str, x: ir.RankedTensorType, init: ir.RankedTensorType) -> None:
    """A reduction's `kind` fits the elements, and its init value is a 0-d of the same type."""
    if kind not in REDUCE_KINDS:
        raise HloTypeError(f"kind must be one of {', '.join(REDUCE_KINDS)}, got \"{kind}\"")
    if kind in _BITWISE_KINDS and not is_integer(x.element_type):
        raise HloTypeError(f"kind \"{kind}\" needs integer or i1 elements, got {x.element_type}")
    if init.rank != 0 or init.element_type != x.element_type:
        raise HloTypeError(f"init value must be a 0-d tensor of {x.element_type}, got {init}")


@rule("reduce")
def reduce(sig: OpSignature) -> list[ir.Type]:
    x, init = sig.operand_types
    _check_combiner(sig.attributes["kind"], x, init)
    dims = sig.attributes["dimensions"]
    _dims_in_range(dims, x.rank, "dimensions")
    kept = [s for d, s in enumerate(x.shape) if d not in dims]
    return [tensor_type(kept, x.element_type)]


def _check_index_type(result: ir.RankedTensorType) -> None:
    if not is_integer(result.element_type) or is_bool(result.element_type):
        raise HloTypeError(f"result element type must be an integer index type, got {result.element_type}")


@rule("argmax", "argmin")
def arg_reduce(sig: OpSignature) -> list[ir.Type]:
    (x,) = sig.operand_types
    result = sig.declared()
    dim = sig.attributes["dimension"]
    if not 0 <= dim < x.rank:
        raise HloTypeError(f"dimension {dim} is out of range for rank {x.rank}")
    if x.shape[dim] == 0:
        raise HloTypeError(f"dimension {dim} has size 0: an empty dimension has no {sig.name}")
    _check_index_type(result)
    return [tensor_type([s for d, s in enumerate(x.shape) if d != dim], result.element_type)]


def padding_pairs(sig: OpSignature, rank: int) -> list[tuple[int, int]]:
    """The optional `padding` attribute, dense<[[lo, hi], ...]> : tensor<rank x 2 x i64>."""
    attr = sig.attributes.get("padding")
    if attr is None:
        return [(0, 0)] * rank
    if list(attr.type.shape) != [rank, 2] or str(attr.type.element_type) != "i64":
        raise HloTypeError(f"padding must be a tensor<{rank}x2xi64>, got {attr.type}")
    flat = [int(v) for v in ir.DenseIntElementsAttr(attr)] if not attr.is_splat else \
        [int(attr.get_splat_value().value)] * (2 * rank)
    return [(flat[2 * i], flat[2 * i + 1]) for i in range(rank)]


def optional_per_dim(sig: OpSignature, name: str, rank: int, default: int) -> list[int]:
    values = list(sig.attributes.get(name, [default] * rank))
    if len(values) != rank:
        raise HloTypeError(f"{name} has {len(values)} entries, operand rank is {rank}")
    return values


def window_output_size(size: int, window: int, stride: int, base_dilation: int,
                       window_dilation: int, low: int, high: int, dim: int = 0) -> int:
    padded = (size - 1) * base_dilation + 1 + low + high if size else low + high
    span = (window - 1) * window_dilation + 1
    if padded < span:
        raise HloTypeError(f"the window (spanning {span}) is larger than the padded input "
                           f"({padded}) in dimension {dim}")
    return (padded - span) // stride + 1


@rule("reduce_window")
def reduce_window(sig: OpSignature) -> list[ir.Type]:
    x, init = sig.operand_types
    _check_combiner(sig.attributes["kind"], x, init)
    (window,) = _per_dim(sig, x.rank, "window_dimensions")
    strides = optional_per_dim(sig, "window_strides", x.rank, 1)
    base = optional_per_dim(sig, "base_dilations", x.rank, 1)
    dilations = optional_per_dim(sig, "window_dilations", x.rank, 1)
    padding = padding_pairs(sig, x.rank)
    for name, values in (("window_dimensions", window), ("window_strides", strides),
                         ("base_dilations", base), ("window_dilations", dilations)):
        for d, v in enumerate(values):
            if v < 1:
                raise HloTypeError(f"{name}[{d}] = {v} must be positive")
    shape = [window_output_size(n, w, s, b, wd, lo, hi, d) for d, (n, w, s, b, wd, (lo, hi))
             in enumerate(zip(x.shape, window, strides, base, dilations, padding))]
    return [tensor_type(shape, x.element_type)]


@rule("dot_general")
def dot_general(sig: OpSignature) -> list[ir.Type]:
    lhs, rhs = sig.operand_types
    a = sig.attributes
    lb, rb = a["lhs_batching_dimensions"], a["rhs_batching_dimensions"]
    lc, rc = a["lhs_contracting_dimensions"], a["rhs_contracting_dimensions"]
    if len(lb) != len(rb):
        raise HloTypeError(f"lhs and rhs must have as many batching dimensions, got {list(lb)} and {list(rb)}")
    if len(lc) != len(rc):
        raise HloTypeError(f"lhs and rhs must have as many contracting dimensions, got {list(lc)} and {list(rc)}")
    _dims_in_range(list(lb) + list(lc), lhs.rank, "lhs batching + contracting dimensions")
    _dims_in_range(list(rb) + list(rc), rhs.rank, "rhs batching + contracting dimensions")
    for kind, ld, rd in (("batching", lb, rb), ("contracting", lc, rc)):
        for i, j in zip(ld, rd):
            if lhs.shape[i] != rhs.shape[j]:
                raise HloTypeError(f"{kind} dimension sizes differ: lhs dim {i} is {lhs.shape[i]}, "
                                   f"rhs dim {j} is {rhs.shape[j]}")
    if lhs.element_type != rhs.element_type:
        raise HloTypeError(f"lhs and rhs element types differ: {lhs.element_type} and {rhs.element_type}")
    lhs_free = [lhs.shape[d] for d in range(lhs.rank) if d not in lb and d not in lc]
    rhs_free = [rhs.shape[d] for d in range(rhs.rank) if d not in rb and d not in rc]
    shape = [lhs.shape[d] for d in lb] + lhs_free + rhs_free
    element_type = lhs.element_type
    if sig.declared_results:
        declared = static_tensor(sig.declared_results[0], "result")
        if is_float(declared.element_type) != is_float(element_type):
            raise HloTypeError(f"result element type {declared.element_type} does not fit operand "
                               f"element type {element_type}")
        element_type = declared.element_type
    return [tensor_type(shape, element_type)]


@dataclass(frozen=True)
class ConvolutionLayout:
    """A convolution's dimension numbers and window, read from its attributes and checked."""

    in_batch: int
    in_feature: int
    in_spatial: list
    k_in: int
    k_out: int
    k_spatial: list
    out_batch: int
    out_feature: int
    out_spatial: list
    strides: list
    padding: list
    lhs_dilation: list
    rhs_dilation: list
    feature_groups: int
    batch_groups: int


def convolution_layout(sig: OpSignature) -> ConvolutionLayout:
    lhs, rhs = sig.operand_types
    a = sig.attributes
    n_spatial = lhs.rank - 2
    layout = ConvolutionLayout(
        a["input_batch_dimension"], a["input_feature_dimension"], list(a["input_spatial_dimensions"]),
        a["kernel_input_feature_dimension"], a["kernel_output_feature_dimension"],
        list(a["kernel_spatial_dimensions"]), a["output_batch_dimension"],
        a["output_feature_dimension"], list(a["output_spatial_dimensions"]),
        list(a.get("window_strides", [1] * n_spatial)), padding_pairs(sig, n_spatial),
        list(a.get("lhs_dilation", [1] * n_spatial)), list(a.get("rhs_dilation", [1] * n_spatial)),
        a["feature_group_count"], a["batch_group_count"])
    if rhs.rank != lhs.rank or lhs.rank < 2:
        raise HloTypeError(f"lhs and rhs must have the same rank >= 2, got {lhs.rank} and {rhs.rank}")
    for name, dims in (("input", [layout.in_batch, layout.in_feature] + layout.in_spatial),
                       ("kernel", [layout.k_in, layout.k_out] + layout.k_spatial),
                       ("output", [layout.out_batch, layout.out_feature] + layout.out_spatial)):
        if sorted(dims) != list(range(lhs.rank)):
            raise HloTypeError(f"{name} dimension numbers {dims} must be a permutation of 0..{lhs.rank - 1}")
    for name in ("strides", "lhs_dilation", "rhs_dilation"):
        values = getattr(layout, name)
        if len(values) != n_spatial or any(v < 1 for v in values):
            raise HloTypeError(f"{name} must have {n_spatial} positive entries, got {values}")
    return layout


@rule("convolution")
def convolution(sig: OpSignature) -> list[ir.Type]:
    lhs, rhs = sig.operand_types
    c = convolution_layout(sig)
    groups, batch_groups = c.feature_groups, c.batch_groups
    if groups < 1 or batch_groups < 1 or (groups > 1 and batch_groups > 1):
        raise HloTypeError(f"feature_group_count ({groups}) and batch_group_count ({batch_groups}) must be "
                           f"positive and at most one of them > 1")
    c_in, c_out, batch = lhs.shape[c.in_feature], rhs.shape[c.k_out], lhs.shape[c.in_batch]
    if c_in % groups or c_in // groups != rhs.shape[c.k_in]:
        raise HloTypeError(f"input features ({c_in}) / feature_group_count ({groups}) must equal the "
                           f"kernel's input features ({rhs.shape[c.k_in]})")
    if c_out % groups or c_out % batch_groups:
        raise HloTypeError(f"kernel output features ({c_out}) must be divisible by the group counts")
    if batch % batch_groups:
        raise HloTypeError(f"batch ({batch}) must be divisible by batch_group_count ({batch_groups})")
    if lhs.element_type != rhs.element_type:
        raise HloTypeError(f"lhs and rhs element types differ: {lhs.element_type} and {rhs.element_type}")
    shape = [0] * lhs.rank
    shape[c.out_batch] = batch // batch_groups
    shape[c.out_feature] = c_out
    for i, (ld, kd, od) in enumerate(zip(c.in_spatial, c.k_spatial, c.out_spatial)):
        shape[od] = window_output_size(lhs.shape[ld], rhs.shape[kd], c.strides[i], c.lhs_dilation[i],
                                       c.rhs_dilation[i], *c.padding[i], dim=ld)
    element_type = lhs.element_type
    if sig.declared_results:
        element_type = static_tensor(sig.declared_results[0], "result").element_type
    return [tensor_type(shape, element_type)]


def _sorted_unique(values, what: str, rank: int) -> None:
    _dims_in_range(values, rank, what)
    if list(values) != sorted(values):
        raise HloTypeError(f"{what} must be sorted, got {list(values)}")


def _check_batching(operand, indices, operand_dims, index_dims, index_vector_dim: int, names) -> None:
    """StableHLO's batching-dimension constraints of gather/scatter: each operand batching
    dim pairs with an index batching dim of the same size (else the op reads or writes
    outside the operand), neither repeated, the index ones never the index vector dim."""
    operand_name, index_name = names
    _sorted_unique(operand_dims, operand_name, operand.rank)
    _dims_in_range(index_dims, indices.rank, index_name)
    if len(operand_dims) != len(index_dims):
        raise HloTypeError(f"{operand_name} and {index_name} differ in length")
    for o, i in zip(operand_dims, index_dims):
        if i == index_vector_dim:
            raise HloTypeError(f"{index_name} must not contain index_vector_dim {index_vector_dim}")
        if operand.shape[o] != indices.shape[i]:
            raise HloTypeError(f"{operand_name} dim {o} (size {operand.shape[o]}) and {index_name} dim {i} "
                               f"(size {indices.shape[i]}) must have the same size")


def _disjoint(a, b, what: str) -> None:
    common = sorted(set(a) & set(b))
    if common:
        raise HloTypeError(f"{what} share dimension(s) {common}")


def index_batch_shape(indices: ir.RankedTensorType, index_vector_dim: int, n_index: int,
                      what: str) -> list[int]:
    """The shape of the index tensor without its index vector dimension (checked)."""
    if not is_integer(indices.element_type) or is_bool(indices.element_type):
        raise HloTypeError(f"{what} must have integer elements, got {indices.element_type}")
    if not 0 <= index_vector_dim <= indices.rank:
        raise HloTypeError(f"index_vector_dim {index_vector_dim} is out of range for {what} of rank {indices.rank}")
    vector = indices.shape[index_vector_dim] if index_vector_dim < indices.rank else 1
    if vector != n_index:
        raise HloTypeError(f"{what} index vectors have {vector} entries, the index map has {n_index}")
    return [s for d, s in enumerate(indices.shape) if d != index_vector_dim]


@rule("gather")
def gather(sig: OpSignature) -> list[ir.Type]:
    operand, indices = sig.operand_types
    a = sig.attributes
    offset_dims, collapsed = list(a["offset_dims"]), list(a["collapsed_slice_dims"])
    start_map, sizes = list(a["start_index_map"]), list(a["slice_sizes"])
    batching = list(a.get("operand_batching_dims", []))
    index_batching = list(a.get("start_indices_batching_dims", []))
    batch_shape = index_batch_shape(indices, a["index_vector_dim"], len(start_map), "start_indices")
    if len(sizes) != operand.rank:
        raise HloTypeError(f"slice_sizes has {len(sizes)} entries, operand rank is {operand.rank}")
    for d, (size, dim) in enumerate(zip(sizes, operand.shape)):
        if not 0 <= size <= dim:
            raise HloTypeError(f"slice_sizes[{d}] = {size} must be in [0, {dim}]")
    _sorted_unique(collapsed, "collapsed_slice_dims", operand.rank)
    _dims_in_range(start_map, operand.rank, "start_index_map")
    _dims_in_range(collapsed + batching, operand.rank, "collapsed_slice_dims + operand_batching_dims")
    _check_batching(operand, indices, batching, index_batching, a["index_vector_dim"],
                    ("operand_batching_dims", "start_indices_batching_dims"))
    _disjoint(start_map, batching, "start_index_map and operand_batching_dims")
    for d in collapsed + batching:
        if sizes[d] > 1:
            raise HloTypeError(f"slice_sizes[{d}] must be 0 or 1 for a collapsed or batching dimension")
    offset_sizes = [s for d, s in enumerate(sizes) if d not in collapsed and d not in batching]
    result_rank = len(batch_shape) + len(offset_sizes)
    if len(offset_dims) != len(offset_sizes):
        raise HloTypeError(f"offset_dims has {len(offset_dims)} entries, the slices have "
                           f"{len(offset_sizes)} offset dimensions")
    _sorted_unique(offset_dims, "offset_dims", result_rank)
    batch_iter, offset_iter = iter(batch_shape), iter(offset_sizes)
    shape = [next(offset_iter) if d in offset_dims else next(batch_iter) for d in range(result_rank)]
    return [tensor_type(shape, operand.element_type)]


SCATTER_KINDS = ("set", "add", "mul", "max", "min")


@rule("scatter")
def scatter(sig: OpSignature) -> list[ir.Type]:
    operand, indices, updates = sig.operand_types
    a = sig.attributes
    if a["kind"] not in SCATTER_KINDS:
        raise HloTypeError(f"kind must be one of {', '.join(SCATTER_KINDS)}, got \"{a['kind']}\"")
    window_dims, inserted = list(a["update_window_dims"]), list(a["inserted_window_dims"])
    to_operand = list(a["scatter_dims_to_operand_dims"])
    batching = list(a.get("input_batching_dims", []))
    index_batching = list(a.get("scatter_indices_batching_dims", []))
    batch_shape = index_batch_shape(indices, a["index_vector_dim"], len(to_operand), "scatter_indices")
    if updates.element_type != operand.element_type:
        raise HloTypeError(f"updates element type {updates.element_type} must equal the input's "
                           f"{operand.element_type}")
    _sorted_unique(window_dims, "update_window_dims", updates.rank)
    _sorted_unique(inserted, "inserted_window_dims", operand.rank)
    _dims_in_range(to_operand, operand.rank, "scatter_dims_to_operand_dims")
    _dims_in_range(inserted + batching, operand.rank, "inserted_window_dims + input_batching_dims")
    _check_batching(operand, indices, batching, index_batching, a["index_vector_dim"],
                    ("input_batching_dims", "scatter_indices_batching_dims"))
    _disjoint(to_operand, batching, "scatter_dims_to_operand_dims and input_batching_dims")
    scatter_sizes = [s for d, s in enumerate(updates.shape) if d not in window_dims]
    if scatter_sizes != batch_shape:
        raise HloTypeError(f"updates scatter dims {scatter_sizes} must match the scatter index batch "
                           f"shape {batch_shape}")
    window_operand_dims = [d for d in range(operand.rank) if d not in inserted and d not in batching]
    if len(window_operand_dims) != len(window_dims):
        raise HloTypeError(f"update_window_dims has {len(window_dims)} entries, the input has "
                           f"{len(window_operand_dims)} window dimensions")
    for u, d in zip(window_dims, window_operand_dims):
        if updates.shape[u] > operand.shape[d]:
            raise HloTypeError(f"update window dim {u} ({updates.shape[u]}) is larger than input dim "
                               f"{d} ({operand.shape[d]})")
    return [operand]


@rule("sort", "argsort")
def sort(sig: OpSignature) -> list[ir.Type]:
    (x,) = sig.operand_types
    dim = sig.attributes["dimension"]
    if not 0 <= dim < x.rank:
        raise HloTypeError(f"dimension {dim} is out of range for rank {x.rank}")
    if sig.name == "sort":
        return [x]
    result = sig.declared()
    _check_index_type(result)
    shape = list(x.shape)
    limit = sig.attributes.get("limit")
    if limit is not None:
        if not 0 <= limit <= shape[dim]:
            raise HloTypeError(f"limit {limit} is out of range for dimension {dim} of size {shape[dim]}")
        shape[dim] = limit
    return [tensor_type(shape, result.element_type)]


# The reductions MPI has for every number type (its and/or/xor are logical/bitwise in
# other ways than hlo's, so they are left out).
ALL_REDUCE_KINDS = ("add", "mul", "max", "min")


@rule("all_reduce")
def all_reduce(sig: OpSignature) -> list[ir.Type]:
    (x,) = sig.operand_types
    _check_element_class(sig, x.element_type)
    kind = sig.attributes["kind"]
    if kind not in ALL_REDUCE_KINDS:
        raise HloTypeError(f"kind must be one of {', '.join(ALL_REDUCE_KINDS)}, got \"{kind}\"")
    return [x]


@rule("collective_broadcast")
def collective_broadcast(sig: OpSignature) -> list[ir.Type]:
    (x,) = sig.operand_types
    _check_element_class(sig, x.element_type)
    return [x]


def _collective_dim(sig: OpSignature, name: str) -> tuple[ir.RankedTensorType, ir.RankedTensorType, int]:
    """The operand, the declared result (it carries the process count) and the checked dim."""
    (x,) = sig.operand_types
    _check_element_class(sig, x.element_type)
    dim = sig.attributes[name]
    if not 0 <= dim < x.rank:
        raise HloTypeError(f"{name} {dim} is out of range for rank {x.rank}")
    result = sig.declared()
    if result.element_type != x.element_type or result.rank != x.rank:
        raise HloTypeError(f"result type {result} must have the operand's element type and rank ({x})")
    for d in range(x.rank):
        if d != dim and result.shape[d] != x.shape[d]:
            raise HloTypeError(f"result dim {d} ({result.shape[d]}) must equal the operand's ({x.shape[d]})")
    return x, result, dim


def _whole_multiple(big: int, small: int) -> bool:
    return small > 0 and big >= small and big % small == 0


@rule("all_gather")
def all_gather(sig: OpSignature) -> list[ir.Type]:
    x, result, dim = _collective_dim(sig, "all_gather_dim")
    if not _whole_multiple(result.shape[dim], x.shape[dim]):
        raise HloTypeError(f"result dim {dim} ({result.shape[dim]}) must be the operand's "
                           f"({x.shape[dim]}) times the number of processes")
    return [result]


@rule("reduce_scatter")
def reduce_scatter(sig: OpSignature) -> list[ir.Type]:
    x, result, dim = _collective_dim(sig, "scatter_dimension")
    kind = sig.attributes["kind"]
    if kind not in ALL_REDUCE_KINDS:
        raise HloTypeError(f"kind must be one of {', '.join(ALL_REDUCE_KINDS)}, got \"{kind}\"")
    if not _whole_multiple(x.shape[dim], result.shape[dim]):
        raise HloTypeError(f"operand dim {dim} ({x.shape[dim]}) must be the result's "
                           f"({result.shape[dim]}) times the number of processes")
    return [result]
