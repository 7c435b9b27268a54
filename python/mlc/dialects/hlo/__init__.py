"""Typed builders for the hlo dialect: `hlo.add(a, b)` returns an `ir.Value`.

Each builder infers the result type with the op's shape rule (the same rule the verifier
runs), so an op built here is valid by construction or raises `HloTypeError` naming what
is wrong. Builders use the current `ir.InsertionPoint` and `ir.Location`, as MLIR's own
generated builders do.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from mlir import ir

from ...dtypes import mlir_element_name
from .irdl import irdl_text, load_hlo_dialect
from .ops import OPS, OpDef
from .shape_rules import RULES, OpSignature
from .types import HloTypeError, context_memo, static_tensor, tensor_type
from .verify import verify_hlo, verify_op

__all__ = [
    "OPS", "OpDef", "HloTypeError", "irdl_text", "load_hlo_dialect", "verify_hlo", "verify_op",
    "constant", "iota", "add", "subtract", "multiply", "divide", "remainder", "power",
    "maximum", "minimum", "atan2", "and_", "or_", "xor", "shift_left", "shift_right_arithmetic",
    "shift_right_logical", "negate", "abs", "sign", "floor", "ceil", "round_nearest_even",
    "round_nearest_afz", "exponential", "exponential_minus_one", "log", "log_plus_one",
    "logistic", "tanh", "sqrt", "rsqrt", "cbrt", "sine", "cosine", "tan", "not_", "popcnt",
    "count_leading_zeros", "is_finite", "clamp", "compare", "select", "convert",
    "broadcast_in_dim", "reshape", "transpose", "reduce", "dot_general", "bitcast_convert",
    "reverse", "slice", "dynamic_slice", "dynamic_update_slice", "pad", "argmax", "argmin",
    "reduce_window", "convolution", "gather", "scatter", "sort", "argsort",
]


def _to_attribute(kind: str, value) -> ir.Attribute:
    if kind == "i64_array":
        return ir.DenseI64ArrayAttr.get([int(v) for v in value])
    if kind == "string":
        return ir.StringAttr.get(value)
    if kind == "integer":
        return ir.IntegerAttr.get(ir.IntegerType.get_signless(64), int(value))
    if kind == "elements":
        return value
    if kind == "bool":
        return ir.BoolAttr.get(bool(value))
    raise AssertionError(kind)


def _build(name: str, operands: Sequence[ir.Value], attrs: dict, result_type=None) -> ir.Value:
    opdef = OPS[name]
    if attrs:
        attrs = {k: v for k, v in attrs.items() if v is not None}
    elif result_type is None and operands:
        return _build_from_operand_types(name, opdef, operands)
    sig = OpSignature(name, _operand_types(operands), attrs, [result_type] if result_type is not None else None)
    result_types = RULES[name](sig)
    ir_attrs = {k: _to_attribute(opdef.attribute_kind(k), v) for k, v in attrs.items()} if attrs else {}
    op = ir.Operation.create(opdef.full_name, results=result_types, operands=list(operands),
                             attributes=ir_attrs)
    return op.result


def _build_from_operand_types(name: str, opdef: OpDef, operands: Sequence[ir.Value]) -> ir.Value:
    """_build of an op without attributes or a declared result type, whose shape rule
    depends on its operand types only. A graph builds the same few signatures thousands of
    times, so the rule's verdict is remembered per context (_results_by_operands) when each
    result type is one of the operand types (elementwise ops): the rule and the operand
    checks were most of the cost of building an op."""
    types = [v.type for v in operands]
    memo = _results_by_operands(types[0].context)
    key = (name, *[hash(t) for t in types])
    found = memo.get(key)
    if found is not None:
        result_types = [types[i] for i in found]
    else:
        result_types = RULES[name](OpSignature(name, _operand_types(operands), {}, None))
        indices = [next((i for i, t in enumerate(types) if t == r), None) for r in result_types]
        if None not in indices:
            memo[key] = tuple(indices)
    op = ir.Operation.create(opdef.full_name, results=result_types, operands=list(operands))
    return op.result


def _results_by_operands(context: ir.Context) -> dict:
    """(op name, hash of each operand type) -> which operand's type each result has, for
    the signatures the shape rules accepted in `context`. By hash, as types._checked, not
    the types themselves (which would keep the context alive)."""
    return context_memo(context, "_mlc_results_by_operands", dict)


def _operand_types(operands) -> list[ir.RankedTensorType]:
    types = []
    for v in operands:
        try:
            types.append(static_tensor(v.type, ""))
        except HloTypeError:  # again, naming the operand (the name is built only for an error)
            static_tensor(v.type, f"operand #{len(types)}")
            raise
    return types


def constant(value, element_type: ir.Type | None = None) -> ir.Value:
    """A constant from a numpy array / scalar (or an ir.DenseElementsAttr)."""
    if not isinstance(value, ir.Attribute):
        array = np.array(value, order="C", copy=None)
        name = mlir_element_name(array.dtype)  # rejects dtypes MLC does not support
        if element_type is None and name.startswith("ui"):
            element_type = ir.Type.parse(name)  # numpy's buffer would give signless
        if element_type is None:
            value = ir.DenseElementsAttr.get(array)
        else:
            value = ir.DenseElementsAttr.get(array, type=tensor_type(array.shape, element_type))
    # _build without its generic steps (a graph builds thousands of constants): the one
    # attribute is an ir.Attribute already, and the shape rule is the attribute's type.
    attrs = {"value": value}
    result_types = RULES["constant"](OpSignature("constant", [], attrs))
    return ir.Operation.create(_CONSTANT, results=result_types, attributes=attrs).result


_CONSTANT = OPS["constant"].full_name


def iota(shape: Sequence[int], element_type: ir.Type, iota_dimension: int) -> ir.Value:
    return _build("iota", [], {"iota_dimension": iota_dimension}, tensor_type(shape, element_type))


def add(lhs, rhs): return _build("add", [lhs, rhs], {})
def subtract(lhs, rhs): return _build("subtract", [lhs, rhs], {})
def multiply(lhs, rhs): return _build("multiply", [lhs, rhs], {})
def divide(lhs, rhs): return _build("divide", [lhs, rhs], {})
def maximum(lhs, rhs): return _build("maximum", [lhs, rhs], {})
def minimum(lhs, rhs): return _build("minimum", [lhs, rhs], {})
def remainder(lhs, rhs): return _build("remainder", [lhs, rhs], {})
def power(lhs, rhs): return _build("power", [lhs, rhs], {})
def atan2(lhs, rhs): return _build("atan2", [lhs, rhs], {})
def and_(lhs, rhs): return _build("and", [lhs, rhs], {})
def or_(lhs, rhs): return _build("or", [lhs, rhs], {})
def xor(lhs, rhs): return _build("xor", [lhs, rhs], {})
def shift_left(lhs, rhs): return _build("shift_left", [lhs, rhs], {})
def shift_right_arithmetic(lhs, rhs): return _build("shift_right_arithmetic", [lhs, rhs], {})
def shift_right_logical(lhs, rhs): return _build("shift_right_logical", [lhs, rhs], {})
def negate(x): return _build("negate", [x], {})
def abs(x): return _build("abs", [x], {})  # noqa: A001 - StableHLO's name
def sign(x): return _build("sign", [x], {})
def floor(x): return _build("floor", [x], {})
def ceil(x): return _build("ceil", [x], {})
def round_nearest_even(x): return _build("round_nearest_even", [x], {})
def round_nearest_afz(x): return _build("round_nearest_afz", [x], {})
def exponential(x): return _build("exponential", [x], {})
def exponential_minus_one(x): return _build("exponential_minus_one", [x], {})
def log(x): return _build("log", [x], {})
def log_plus_one(x): return _build("log_plus_one", [x], {})
def logistic(x): return _build("logistic", [x], {})
def tanh(x): return _build("tanh", [x], {})
def sqrt(x): return _build("sqrt", [x], {})
def rsqrt(x): return _build("rsqrt", [x], {})
def cbrt(x): return _build("cbrt", [x], {})
def sine(x): return _build("sine", [x], {})
def cosine(x): return _build("cosine", [x], {})
def tan(x): return _build("tan", [x], {})
def not_(x): return _build("not", [x], {})
def popcnt(x): return _build("popcnt", [x], {})
def count_leading_zeros(x): return _build("count_leading_zeros", [x], {})
def is_finite(x): return _build("is_finite", [x], {})
def clamp(min, operand, max): return _build("clamp", [min, operand, max], {})  # noqa: A002


def compare(lhs, rhs, comparison_direction: str, compare_type: str | None = None) -> ir.Value:
    return _build("compare", [lhs, rhs], {"comparison_direction": comparison_direction,
                                          "compare_type": compare_type})


def select(pred, on_true, on_false) -> ir.Value:
    return _build("select", [pred, on_true, on_false], {})


def convert(x, element_type: ir.Type) -> ir.Value:
    return _build("convert", [x], {}, tensor_type(ir.RankedTensorType(x.type).shape, element_type))


def broadcast_in_dim(x, shape: Sequence[int], broadcast_dimensions: Sequence[int]) -> ir.Value:
    et = ir.RankedTensorType(x.type).element_type
    return _build("broadcast_in_dim", [x], {"broadcast_dimensions": broadcast_dimensions},
                  tensor_type(shape, et))


def bitcast_convert(x, element_type: ir.Type) -> ir.Value:
    return _build("bitcast_convert", [x], {},
                  tensor_type(ir.RankedTensorType(x.type).shape, element_type))


def reverse(x, dimensions: Sequence[int]) -> ir.Value:
    return _build("reverse", [x], {"dimensions": dimensions})


def slice(x, start_indices, limit_indices, strides=None) -> ir.Value:  # noqa: A001
    strides = strides if strides is not None else [1] * len(start_indices)
    return _build("slice", [x], {"start_indices": start_indices, "limit_indices": limit_indices,
                                 "strides": strides})


def dynamic_slice(x, start_indices: Sequence, slice_sizes: Sequence[int]) -> ir.Value:
    return _build("dynamic_slice", [x, *start_indices], {"slice_sizes": slice_sizes})


def dynamic_update_slice(x, update, start_indices: Sequence) -> ir.Value:
    return _build("dynamic_update_slice", [x, update, *start_indices], {})


def pad(x, padding_value, edge_padding_low, edge_padding_high, interior_padding=None) -> ir.Value:
    interior_padding = interior_padding if interior_padding is not None else [0] * len(edge_padding_low)
    return _build("pad", [x, padding_value], {"edge_padding_low": edge_padding_low,
                                              "edge_padding_high": edge_padding_high,
                                              "interior_padding": interior_padding})


def reshape(x, shape: Sequence[int]) -> ir.Value:
    return _build("reshape", [x], {}, tensor_type(shape, ir.RankedTensorType(x.type).element_type))


def transpose(x, permutation: Sequence[int]) -> ir.Value:
    return _build("transpose", [x], {"permutation": permutation})


def reduce(x, init_value, dimensions: Sequence[int], kind: str) -> ir.Value:
    return _build("reduce", [x, init_value], {"dimensions": dimensions, "kind": kind})


def all_reduce(x, kind: str) -> ir.Value:
    return _build("all_reduce", [x], {"kind": kind})


def collective_broadcast(x) -> ir.Value:
    return _build("collective_broadcast", [x], {})


def _resized(x, dim: int, size: int) -> ir.RankedTensorType:
    t = ir.RankedTensorType(x.type)
    shape = list(t.shape)
    shape[dim] = size
    return ir.RankedTensorType.get(shape, t.element_type)


def all_gather(x, all_gather_dim: int, processes: int) -> ir.Value:
    t = static_tensor(x.type, "operand #0")
    size = t.shape[all_gather_dim] * processes if 0 <= all_gather_dim < t.rank else 0
    return _build("all_gather", [x], {"all_gather_dim": all_gather_dim},
                  _resized(x, all_gather_dim, size) if 0 <= all_gather_dim < t.rank else t)


def reduce_scatter(x, scatter_dimension: int, kind: str, processes: int) -> ir.Value:
    t = static_tensor(x.type, "operand #0")
    ok = 0 <= scatter_dimension < t.rank
    size = t.shape[scatter_dimension] // processes if ok else 0
    return _build("reduce_scatter", [x], {"scatter_dimension": scatter_dimension, "kind": kind},
                  _resized(x, scatter_dimension, size) if ok else t)


def argmax(x, dimension: int, index_type: ir.Type | None = None) -> ir.Value:
    return _arg_reduce("argmax", x, dimension, index_type)


def argmin(x, dimension: int, index_type: ir.Type | None = None) -> ir.Value:
    return _arg_reduce("argmin", x, dimension, index_type)


def _arg_reduce(name, x, dimension, index_type):
    index_type = index_type or ir.IntegerType.get_signless(64)
    return _build(name, [x], {"dimension": dimension}, tensor_type([], index_type))


def reduce_window(x, init_value, window_dimensions, kind: str, window_strides=None,
                  base_dilations=None, window_dilations=None, padding=None) -> ir.Value:
    """`padding` is a list of (low, high) pairs, one per dimension."""
    attrs = {"window_dimensions": window_dimensions, "kind": kind, "window_strides": window_strides,
             "base_dilations": base_dilations, "window_dilations": window_dilations}
    if padding is not None:
        pairs = np.asarray(padding, dtype=np.int64).reshape(len(window_dimensions), 2)
        attrs["padding"] = ir.DenseElementsAttr.get(pairs)
    return _build("reduce_window", [x, init_value], attrs)


def convolution(lhs, rhs, *, input_batch_dimension, input_feature_dimension,
                input_spatial_dimensions, kernel_input_feature_dimension,
                kernel_output_feature_dimension, kernel_spatial_dimensions, output_batch_dimension,
                output_feature_dimension, output_spatial_dimensions, window_strides=None,
                padding=None, lhs_dilation=None, rhs_dilation=None, feature_group_count=1,
                batch_group_count=1, result_element_type: ir.Type | None = None) -> ir.Value:
    """StableHLO convolution; `padding` is a list of (low, high) pairs per spatial dim."""
    attrs = dict(input_batch_dimension=input_batch_dimension,
                 input_feature_dimension=input_feature_dimension,
                 input_spatial_dimensions=input_spatial_dimensions,
                 kernel_input_feature_dimension=kernel_input_feature_dimension,
                 kernel_output_feature_dimension=kernel_output_feature_dimension,
                 kernel_spatial_dimensions=kernel_spatial_dimensions,
                 output_batch_dimension=output_batch_dimension,
                 output_feature_dimension=output_feature_dimension,
                 output_spatial_dimensions=output_spatial_dimensions,
                 window_strides=window_strides, lhs_dilation=lhs_dilation, rhs_dilation=rhs_dilation,
                 feature_group_count=feature_group_count, batch_group_count=batch_group_count)
    if padding is not None:
        pairs = np.asarray(padding, dtype=np.int64).reshape(len(input_spatial_dimensions), 2)
        attrs["padding"] = ir.DenseElementsAttr.get(pairs)
    declared = tensor_type([], result_element_type) if result_element_type is not None else None
    return _build("convolution", [lhs, rhs], attrs, declared)


def gather(operand, start_indices, *, offset_dims, collapsed_slice_dims, start_index_map,
           index_vector_dim, slice_sizes, operand_batching_dims=None,
           start_indices_batching_dims=None, indices_are_sorted=None) -> ir.Value:
    return _build("gather", [operand, start_indices], dict(
        offset_dims=offset_dims, collapsed_slice_dims=collapsed_slice_dims,
        start_index_map=start_index_map, index_vector_dim=index_vector_dim, slice_sizes=slice_sizes,
        operand_batching_dims=operand_batching_dims,
        start_indices_batching_dims=start_indices_batching_dims,
        indices_are_sorted=indices_are_sorted))


def scatter(inputs, scatter_indices, updates, *, update_window_dims, inserted_window_dims,
            scatter_dims_to_operand_dims, index_vector_dim, kind: str, input_batching_dims=None,
            scatter_indices_batching_dims=None, indices_are_sorted=None,
            unique_indices=None) -> ir.Value:
    return _build("scatter", [inputs, scatter_indices, updates], dict(
        update_window_dims=update_window_dims, inserted_window_dims=inserted_window_dims,
        scatter_dims_to_operand_dims=scatter_dims_to_operand_dims,
        index_vector_dim=index_vector_dim, kind=kind, input_batching_dims=input_batching_dims,
        scatter_indices_batching_dims=scatter_indices_batching_dims,
        indices_are_sorted=indices_are_sorted, unique_indices=unique_indices))


def sort(x, dimension: int, descending: bool = False, is_stable: bool | None = None) -> ir.Value:
    return _build("sort", [x], {"dimension": dimension, "descending": descending or None,
                                "is_stable": is_stable})


def argsort(x, dimension: int, descending: bool = False, index_type: ir.Type | None = None,
            limit: int | None = None) -> ir.Value:
    """limit = k: only the first k indices along `dimension` (top-k)."""
    index_type = index_type or ir.IntegerType.get_signless(64)
    return _build("argsort", [x], {"dimension": dimension, "descending": descending or None, "limit": limit},
                  tensor_type([], index_type))


def top_k(x, k: int, index_type: ir.Type | None = None) -> tuple[ir.Value, ir.Value]:
    """The k largest along the last dimension, largest first, ties by lower index, NaN
    largest (jax.lax.top_k): indices = argsort(descending, limit = k), values = x gathered
    at them (a gather batched over the leading dimensions)."""
    t = ir.RankedTensorType(x.type)
    last = t.rank - 1
    indices = argsort(x, last, descending=True, index_type=index_type, limit=k)
    column = reshape(indices, list(t.shape[:-1]) + [k, 1])
    batch = list(range(last))
    values = gather(x, column, offset_dims=[], collapsed_slice_dims=[last], start_index_map=[last],
                    index_vector_dim=t.rank, slice_sizes=[1] * t.rank,
                    operand_batching_dims=batch or None, start_indices_batching_dims=batch or None,
                    indices_are_sorted=None)
    return values, indices


def dot_general(lhs, rhs, lhs_batching_dimensions=(), rhs_batching_dimensions=(),
                lhs_contracting_dimensions=(), rhs_contracting_dimensions=(),
                result_element_type: ir.Type | None = None) -> ir.Value:
    attrs = {"lhs_batching_dimensions": lhs_batching_dimensions,
             "rhs_batching_dimensions": rhs_batching_dimensions,
             "lhs_contracting_dimensions": lhs_contracting_dimensions,
             "rhs_contracting_dimensions": rhs_contracting_dimensions}
    declared = tensor_type([], result_element_type) if result_element_type is not None else None
    return _build("dot_general", [lhs, rhs], attrs, declared)
