"""Cost and memory analysis of a compiled function, read off its bufferized IR (the
`buffers` stage), so it counts what the generated loops do (a producer recomputed inside a
consumer's loop shows up as flops):

  - kernels: loop nests. Each linalg op is one; a loop made before bufferization is one
    whatever it holds (a row-fused loop over rows, a chain-tiled loop over blocks of rows,
    mlc-tile-matmul's register-tiled loops over vectors).
  - flops: arithmetic ops (arith/math, not index or integer address arithmetic) times the
    elements they compute, times the trips of the loops around them. Named linalg ops
    (convolutions, transposes) are read in their generic form.
  - bytes read / written: each kernel's operands (a linalg op's; a loop nest's distinct
    buffers, whole), plus the elements a kernel's body loads at computed positions (a fused
    gather's rows), times the trips of the loops around them.
  - temp bytes: the scratch buffer (mlc-preallocate-temporaries) plus buffers still
    allocated inside the function.
"""

from __future__ import annotations

import math

from mlir import ir

from .codegen.chain_tiling import TAG as CHAIN_TILING
from .codegen.loops import trip_count
from .codegen.row_fusion import TAG as ROW_FUSION
from .codegen.views import ALL_VIEWS, view_root
from .abi import SCRATCH_ATTR
from .destination_style import segment_sizes
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


def _elements(t: ir.Type) -> int:
    return math.prod(ir.VectorType(t).shape) if isinstance(t, ir.VectorType) else 1


def _is_flop(op) -> bool:
    """An arith/math op computing numbers (floats, or integer vectors: a widened int8 matmul),
    not a constant, an index or a scalar integer (loop and address arithmetic)."""
    if op.name.split(".")[0] not in ("arith", "math") or op.name == "arith.constant" or not len(op.results):
        return False
    t = op.results[0].type
    if isinstance(t, ir.VectorType):
        return not isinstance(t.element_type, ir.IndexType)
    return isinstance(t, ir.FloatType)


def _flops(op) -> int:
    """A linalg.generic's arithmetic: its body's ops times its iterations."""
    if op.name != "linalg.generic":
        return 0
    body = op.regions[0].blocks[0]
    per_iteration = sum(1 for inner in body.operations if _is_flop(inner.operation))
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


def _loop_trips(loop) -> int:
    """How many times a loop runs its body: a row-fused loop's tag, else its static trip
    count, 1 when not static (or not a loop)."""
    if ROW_FUSION in loop.attributes:
        return ir.IntegerAttr(loop.attributes[ROW_FUSION]).value
    trips = trip_count(loop)
    return 1 if trips is None else trips


def _trips(op) -> int:
    """How many times `op` runs: the trip counts of the loops around it in its function."""
    trips, parent = 1, op.parent
    while parent is not None and parent.name != "func.func":
        trips *= _loop_trips(parent)
        parent = parent.parent
    return trips


def _has_linalg(op) -> bool:
    found = []

    def visit(inner):
        if inner.name.startswith("linalg."):
            found.append(inner)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    op.walk(visit)
    return bool(found)


# A view of the scratch buffer (memref.view) counts as that buffer, as before.
_VIEWS = ALL_VIEWS | {"memref.view"}
_READS = ("vector.transfer_read", "vector.load", "memref.load", "vector.maskedload")
_WRITES = ("vector.transfer_write", "vector.store", "memref.store", "vector.maskedstore")


def _nest_bytes(loop) -> tuple[int, int]:
    """A loop nest's (bytes read, bytes written): the distinct buffers its vector and scalar
    loads and stores touch, each whole."""
    read, written = {}, {}

    def visit(op):
        name = op.name
        if name in _READS or name in _WRITES:
            buffer = op.operands[0] if name in _READS else op.operands[1]
            root = view_root(buffer, _VIEWS)
            if isinstance(root.type, ir.MemRefType) and ir.MemRefType(root.type).has_static_shape:
                (read if name in _READS else written)[root] = byte_size(root.type)
        return ir.WalkResult.ADVANCE

    loop.walk(visit)
    return sum(read.values()), sum(written.values())


def _generalized(module: ir.Module) -> ir.Module:
    """Named linalg ops (convolutions, transposes, fills) as linalg.generic, whose body and
    indexing maps give the arithmetic and the loop sizes."""
    from mlir.passmanager import PassManager
    with module.context:
        PassManager.parse("builtin.module(func.func(linalg-generalize-named-ops))").run(module.operation)
    return module


def analyze(module: ir.Module) -> dict:
    """{kernels, flops, bytes_read, bytes_written, temp_bytes} of a `buffers`-stage module
    (changed in place: named ops generalized)."""
    result = {"kernels": 0, "flops": 0, "bytes_read": 0, "bytes_written": 0, "temp_bytes": 0}
    module = _generalized(module)

    kernel_loops = set()  # loops made before bufferization, each counted as one kernel

    def one_kernel(op) -> bool:
        return op.name in ("scf.for", "scf.forall", "scf.parallel") and op.parent.name == "func.func" and (
            ROW_FUSION in op.attributes or CHAIN_TILING in op.attributes or not _has_linalg(op))

    def in_kernel_loop(op) -> bool:
        parent = op.parent
        while parent is not None and parent.name != "func.func":
            if parent in kernel_loops:
                return True
            parent = parent.parent
        return False

    def visit(op):
        name = op.name
        if one_kernel(op):  # (pre-order: the loop is met before the ops it holds)
            kernel_loops.add(op)
            result["kernels"] += 1
            if not _has_linalg(op):  # vector loops: their buffers, whole
                read, written = _nest_bytes(op)
                result["bytes_read"] += read
                result["bytes_written"] += written
        elif name.startswith("linalg.") and name not in _NOT_KERNELS:
            trips = _trips(op)
            result["kernels"] += 0 if in_kernel_loop(op) else 1
            result["flops"] += _flops(op) * trips
            result["bytes_read"] += _body_load_bytes(op) * trips
            segments = segment_sizes(op) or (len(op.operands) - 1, 1)
            operands = list(op.operands)
            for value in operands[:segments[0]]:
                if isinstance(value.type, ir.ShapedType):
                    result["bytes_read"] += byte_size(value.type) * trips
            for value in operands[segments[0]:]:
                result["bytes_written"] += byte_size(value.type) * trips
            return ir.WalkResult.SKIP  # its body's ops are counted through _flops
        elif _is_flop(op):  # arithmetic outside linalg bodies: register-tiled loops
            result["flops"] += _elements(op.results[0].type) * _trips(op)
        elif name in ("memref.alloc", "memref.alloca"):
            result["temp_bytes"] += byte_size(op.results[0].type)
        elif name == "func.func" and SCRATCH_ATTR in op.attributes:  # preallocated temporaries
            result["temp_bytes"] += ir.IntegerAttr(op.attributes[SCRATCH_ATTR]).value
        elif name == "memref.copy":
            trips = _trips(op)
            result["kernels"] += 0 if in_kernel_loop(op) else 1
            result["bytes_read"] += byte_size(op.operands[0].type) * trips
            result["bytes_written"] += byte_size(op.operands[1].type) * trips
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit, ir.WalkOrder.PRE_ORDER)
    return result
