"""Converters for StableHLO ops that are not a same-named hlo op with builtin attributes:
dimension-number structs, region ops, concatenation, calls, identities."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import tensor

from ..dialects import hlo
from . import attributes as A
from .elementwise_regions import general_reduce, general_reduce_window
from .general_regions import general_scatter, general_sort
from .regions import arg_reduce_kind, combiner_kind, sort_descending
from .registry import CUSTOM_CALLS, rule


@rule("stablehlo.constant")
def constant(cv, op):
    value = A.get(op, "value")
    if value is None or not isinstance(value, ir.DenseElementsAttr):
        raise cv.error(op, f"constant value {value} is not supported (dense_resource blobs and "
                           f"elided constants carry no data)")
    return [cv.same_name(op)]


@rule("stablehlo.dot_general")
def dot_general(cv, op):
    fields = A.struct_fields(A.get(op, "dot_dimension_numbers"))
    extra = {k: A.i64_array(fields.get(k, [])) for k in (
        "lhs_batching_dimensions", "rhs_batching_dimensions",
        "lhs_contracting_dimensions", "rhs_contracting_dimensions")}
    return [cv.same_name(op, extra=extra)]


@rule("stablehlo.dot")
def dot(cv, op):  # the legacy 2-d dot: contract lhs's last dim with rhs's first
    lhs = ir.RankedTensorType(op.operands[0].type)
    extra = {"lhs_batching_dimensions": A.i64_array([]), "rhs_batching_dimensions": A.i64_array([]),
             "lhs_contracting_dimensions": A.i64_array([lhs.rank - 1]),
             "rhs_contracting_dimensions": A.i64_array([0])}
    return [cv.same_name(op, name="dot_general", extra=extra)]


def convolution_attributes(cv, op) -> dict:
    """hlo.convolution's dimension attributes from a (dynamic_)convolution op."""
    fields = A.conv_dimension_numbers(A.get(op, "dimension_numbers"))
    extra = {k: (A.i64_array(v) if isinstance(v, list) else A.i64(v)) for k, v in fields.items()}
    for name in ("feature_group_count", "batch_group_count"):
        if A.get(op, name) is None:
            extra[name] = A.i64(1)
    return extra


def convolution_operands(cv, op) -> list:
    """(lhs, rhs), the kernel reversed along the spatial dims `window_reversal` marks (a
    reversed window is the convolution with the reversed kernel)."""
    lhs, rhs = cv.value(op.operands[0]), cv.value(op.operands[1])
    reversal = A.int_list(A.get(op, "window_reversal"))
    if any(reversal):
        spatial = A.conv_dimension_numbers(A.get(op, "dimension_numbers"))["kernel_spatial_dimensions"]
        rhs = hlo.reverse(rhs, [d for d, flip in zip(spatial, reversal) if flip])
    return [lhs, rhs]


@rule("stablehlo.convolution")
def convolution(cv, op):
    return [cv.same_name(op, extra=convolution_attributes(cv, op), operands=convolution_operands(cv, op))]


def gather_attributes(op) -> dict:
    """hlo.gather's dimension attributes from a (dynamic_)gather op's dimension numbers."""
    fields = A.struct_fields(A.get(op, "dimension_numbers"))
    extra = {k: A.i64_array(fields.get(k, [])) for k in (
        "offset_dims", "collapsed_slice_dims", "start_index_map", "operand_batching_dims",
        "start_indices_batching_dims")}
    extra["index_vector_dim"] = A.i64(fields.get("index_vector_dim", 0))
    return extra


@rule("stablehlo.gather")
def gather(cv, op):
    return [cv.same_name(op, extra=gather_attributes(op))]


@rule("stablehlo.scatter")
def scatter(cv, op):
    kind = combiner_kind(op.regions[0], allow_set=True) if len(op.operands) == 3 else None
    if kind is None:  # several inputs, or a region that is not one binary op
        return general_scatter(cv, op)
    fields = A.struct_fields(A.get(op, "scatter_dimension_numbers"))
    extra = {k: A.i64_array(fields.get(k, [])) for k in (
        "update_window_dims", "inserted_window_dims", "scatter_dims_to_operand_dims",
        "input_batching_dims", "scatter_indices_batching_dims")}
    extra["index_vector_dim"] = A.i64(fields.get("index_vector_dim", 0))
    extra["kind"] = ir.StringAttr.get(kind)
    return [cv.same_name(op, extra=extra)]


@rule("stablehlo.reduce")
def reduce(cv, op):
    # One binary combiner -> hlo.reduce's kind; JAX's argmax/argmin reducer -> hlo.argmax/
    # argmin; any other elementwise region -> applied position by position.
    n = len(op.operands) // 2
    if n == 1:
        kind = combiner_kind(op.regions[0])
        if kind is None:
            return general_reduce(cv, op)
        return [cv.same_name(op, extra={"kind": ir.StringAttr.get(kind)})]
    dims = A.int_list(A.get(op, "dimensions"))
    kind = arg_reduce_kind(op.regions[0]) if n == 2 else None
    if kind is None or len(dims) != 1 or not _is_iota_along(op.operands[1], dims[0]):
        return general_reduce(cv, op)
    x, _, init, _ = cv.operands(op)
    value = ir.Operation.create("hlo.reduce", results=[op.results[0].type], operands=[x, init],
                                attributes={"dimensions": A.i64_array(dims),
                                            "kind": ir.StringAttr.get(kind[3:])}).result
    index = ir.Operation.create(f"hlo.{kind}", results=[op.results[1].type], operands=[x],
                                attributes={"dimension": A.i64(dims[0])}).result
    return [value, index]


def _is_iota_along(value: ir.Value, dim: int) -> bool:
    """value is an iota along `dim`, possibly broadcast (JAX emits both)."""
    owner = value.owner
    if isinstance(owner, ir.Block):
        return False
    if owner.name == "stablehlo.iota":
        return A.get(owner, "iota_dimension").value == dim
    if owner.name == "stablehlo.broadcast_in_dim":
        dims = A.int_list(A.get(owner, "broadcast_dimensions"))
        return dim in dims and _is_iota_along(owner.operands[0], dims.index(dim))
    return False


@rule("stablehlo.reduce_window")
def reduce_window(cv, op):
    kind = combiner_kind(op.regions[0]) if len(op.operands) == 2 else None
    if kind is None:  # several inputs, or a region that is not one binary op
        return general_reduce_window(cv, op)
    return [cv.same_name(op, extra={"kind": ir.StringAttr.get(kind)})]


@rule("stablehlo.sort")
def sort(cv, op):
    # One input with a `<`/`>` comparator -> hlo.sort; (x, iota) -> hlo.sort + hlo.argsort;
    # anything else -> an odd-even transposition sort running the comparator.
    descending = sort_descending(op.regions[0])
    dim = A.get(op, "dimension").value
    n = len(op.operands)
    if descending is None or n > 2 or (n == 2 and not _is_iota_along(op.operands[1], dim)):
        return general_sort(cv, op)
    x = cv.value(op.operands[0])
    attrs = {"dimension": A.i64(dim)}
    if descending:
        attrs["descending"] = ir.BoolAttr.get(True)
    out = [ir.Operation.create("hlo.sort", results=[op.results[0].type], operands=[x],
                               attributes=dict(attrs)).result]
    if n == 2:
        out.append(ir.Operation.create("hlo.argsort", results=[op.results[1].type], operands=[x],
                                       attributes=dict(attrs)).result)
    return out


@rule("stablehlo.concatenate")
def concatenate(cv, op):
    dim = A.get(op, "dimension").value
    return [tensor.concat(op.results[0].type, dim, cv.operands(op))]


@rule("func.call", "mlc.call")
def call(cv, op):
    callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
    return cv.call(op, callee, cv.operands(op))


@rule("stablehlo.optimization_barrier")
def identity(cv, op):
    return cv.operands(op)


@rule("stablehlo.custom_call")
def custom_call(cv, op):
    target = A.get(op, "call_target_name")
    name = ir.StringAttr(target).value if target is not None else "?"
    # On one device a sharding annotation changes nothing.
    if name in ("Sharding", "SPMDFullToShardShape", "SPMDShardToFullShape") and len(op.operands) == 1:
        return cv.operands(op)
    target = CUSTOM_CALLS.get(name)
    if target is not None:  # e.g. JAX's LAPACK calls on CPU (linalg.py)
        return target(cv, op)
    raise cv.error(op, f"custom_call @{name} is not supported")


@rule("stablehlo.real")
def real(cv, op):
    _real_operand(cv, op)
    return cv.operands(op)


@rule("stablehlo.imag")
def imag(cv, op):  # the imaginary part of a real number is 0
    _real_operand(cv, op)
    t = ir.RankedTensorType(op.results[0].type)
    zero = ir.DenseElementsAttr.get_splat(t, ir.FloatAttr.get(t.element_type, 0.0))
    return [ir.Operation.create("hlo.constant", results=[t], attributes={"value": zero}).result]


def _real_operand(cv, op):
    if "complex" in str(op.operands[0].type):
        raise cv.error(op, f"'{op.name}' of a complex operand is not supported")


@rule("stablehlo.composite")
def composite(cv, op):  # by its decomposition, as the spec allows
    callee = ir.FlatSymbolRefAttr(A.get(op, "decomposition")).value
    return cv.call(op, callee, cv.operands(op))


# Dynamic ops whose result type is static (a `?` result was rejected by the type check):
# the shape operand can only say what the type says, so they are their static forms.
@rule("stablehlo.dynamic_reshape")
def dynamic_reshape(cv, op):
    return [cv.same_name(op, name="reshape", operands=[cv.value(op.operands[0])])]


@rule("stablehlo.dynamic_broadcast_in_dim")
def dynamic_broadcast_in_dim(cv, op):
    return [cv.same_name(op, name="broadcast_in_dim", operands=[cv.value(op.operands[0])])]


@rule("stablehlo.dynamic_iota")
def dynamic_iota(cv, op):
    return [cv.same_name(op, name="iota", operands=[])]


@rule("stablehlo.broadcast")
def broadcast(cv, op):  # the legacy form: new dims in front
    rank_in = ir.RankedTensorType(op.operands[0].type).rank
    rank_out = ir.RankedTensorType(op.results[0].type).rank
    dims = A.i64_array(range(rank_out - rank_in, rank_out))
    return [cv.same_name(op, name="broadcast_in_dim", extra={"broadcast_dimensions": dims})]


@rule("stablehlo.get_dimension_size")
def get_dimension_size(cv, op):
    size = ir.RankedTensorType(op.operands[0].type).shape[A.get(op, "dimension").value]
    t = ir.RankedTensorType(op.results[0].type)
    value = ir.DenseElementsAttr.get_splat(t, ir.IntegerAttr.get(t.element_type, size))
    return [ir.Operation.create("hlo.constant", results=[t], attributes={"value": value}).result]
