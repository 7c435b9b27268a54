"""Cost and memory analysis of a compiled function, read off its bufferized IR (the
`buffers` stage): kernels are linalg ops (each one loop nest; a row-fused loop of several
is one), temporaries are the
scratch buffer (mlc-preallocate-temporaries) plus buffers still allocated inside the
function, reads/writes are each kernel's operand sizes, plus the elements a kernel's body loads at
computed positions (a fused gather's rows)."""

from __future__ import annotations

import math

from mlir import ir

from .codegen.row_fusion import TAG as ROW_FUSION
from .abi import SCRATCH_ATTR
from .dialects.hlo.types import byte_size, element_bytes

_NOT_KERNELS = {"linalg.yield", "linalg.index"}


def _loop_ranges(op) -> list[int]:
    """A linalg.generic's loop sizes, from operand shapes through its indexing maps."""
    maps = [ir.AffineMapAttr(m).value for m in ir.ArrayAttr(op.attributes["indexing_maps"])]
    ranges = [1] * maps[0].n_dims
    for value, amap in zip(op.operands, maps):
        shape = ir.ShapedType(value.type).shape if isinstance(value.type, ir.ShapedType) else []
        for size, expr in zip(shape, amap.results):
            if isinstance(expr, ir.AffineDimExpr):
                ranges[expr.position] = max(ranges[expr.position], size)
    return ranges


def _flops(op) -> int:
    if op.name != "linalg.generic":
        return 0
    body = op.regions[0].blocks[0]
    per_iteration = sum(1 for inner in body.operations
                        if inner.operation.name.split(".")[0] in ("arith", "math")
                        and inner.operation.name != "arith.constant")
    return per_iteration * math.prod(_loop_ranges(op))


def _body_load_bytes(op) -> int:
    """Bytes a linalg.generic loads inside its body (a fused gather reads rows at computed
    positions, not through an operand): per load, element size x iterations, capped at the
    loaded buffer's size (a small index buffer re-read per element stays in cache)."""
    if op.name != "linalg.generic":
        return 0
    iterations = math.prod(_loop_ranges(op))
    total = 0
    for inner in op.regions[0].blocks[0].operations:
        if inner.operation.name == "memref.load":
            source = ir.MemRefType(inner.operands[0].type)
            total += min(element_bytes(source.element_type) * iterations,
                         byte_size(source) if source.has_static_shape else iterations)
    return total


def _row_loop_trips(op) -> int:
    """How many times `op` runs: the row count of the row-fused loop around it, else 1."""
    parent = op.parent
    while parent is not None:
        if ROW_FUSION in parent.attributes:
            return ir.IntegerAttr(parent.attributes[ROW_FUSION]).value
        parent = parent.parent
    return 1


def _has_linalg(op) -> bool:
    found = []

    def visit(inner):
        if inner.name.startswith("linalg."):
            found.append(inner)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    return bool(found)


def analyze(module: ir.Module) -> dict:
    result = {"kernels": 0, "flops": 0, "bytes_read": 0, "bytes_written": 0, "temp_bytes": 0}

    def visit(op):
        name = op.name
        if ROW_FUSION in op.attributes:  # one loop nest holding several kernels (mlc-row-fusion)
            result["kernels"] += 1
        elif name in ("scf.for", "scf.forall") and op.parent.name == "func.func" and not _has_linalg(op):
            result["kernels"] += 1  # a loop nest generated before bufferization (mlc-tile-matmul)
        elif name.startswith("linalg.") and name not in _NOT_KERNELS:
            trips = _row_loop_trips(op)  # a kernel in a row loop is counted once, for all rows
            result["kernels"] += 1 if trips == 1 else 0
            result["flops"] += _flops(op) * trips
            result["bytes_read"] += _body_load_bytes(op) * trips
            segments = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])) \
                if "operandSegmentSizes" in op.attributes else [len(op.operands) - 1, 1]
            operands = list(op.operands)
            for value in operands[:segments[0]]:
                if isinstance(value.type, ir.ShapedType):
                    result["bytes_read"] += byte_size(value.type) * trips
            for value in operands[segments[0]:]:
                result["bytes_written"] += byte_size(value.type) * trips
        elif name in ("memref.alloc", "memref.alloca"):
            result["temp_bytes"] += byte_size(op.results[0].type)
        elif name == "func.func" and SCRATCH_ATTR in op.attributes:  # preallocated temporaries
            result["temp_bytes"] += ir.IntegerAttr(op.attributes[SCRATCH_ATTR]).value
        elif name == "memref.copy":
            result["kernels"] += 1
            result["bytes_read"] += byte_size(op.operands[0].type)
            result["bytes_written"] += byte_size(op.operands[1].type)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return result
