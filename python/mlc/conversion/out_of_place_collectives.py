"""Pass `mlc-out-of-place-collectives`: a copy into an all-reduce's buffer becomes the
all-reduce's send buffer.

hlo-to-linalg reduces in place (`MPI_Allreduce(MPI_IN_PLACE, buf, ...)`) on the operand's
own buffer, and one-shot bufferization copies the operand into a new buffer first when it
is still needed (a caller's array that is not donated, a value read again):

    memref.copy %src, %dst
    %p = memref.extract_aligned_pointer_as_index %dst ; arith.index_cast ; llvm.inttoptr
    llvm.call @MPI_Allreduce(%in_place, %p, %count, ...)
  ->
    %s = (the pointer of %src)   %p = (the pointer of %dst)
    llvm.call @MPI_Allreduce(%s, %p, %count, ...)

MPI then reads `%src` while it reduces into `%dst`: for 2 processes MPICH's reduce-scatter
writes each half of the result straight from the two send buffers, so the copy's pass
over memory is gone (1e6 float32: the copy was the 0.2-0.25 ms by which the compiled psum
trailed mpi4py's out-of-place Allreduce; benchmarks/results/allreduce.md). Only a copy of
a whole identity-layout buffer into another, immediately before the call (nothing but
the pointer arithmetic between them), is folded: then `%dst` holds exactly the elements
MPI reads, and `%src` is another buffer (MPI forbids overlapping send and receive
buffers; two distinct function arguments or allocations never overlap here, see
frontend/stages.py on donated arguments).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..transforms.pass_base import Pass
from ..transforms.patterns import producer

_ALLREDUCE = "MPI_Allreduce"
_MPI_IN_PLACE = -1  # MPICH's ABI: (void *) -1
# What may stand between the copy and the call: the pointer arithmetic of the call's operands.
_POINTER_OPS = ("memref.extract_aligned_pointer_as_index", "arith.index_cast", "llvm.inttoptr",
                "arith.constant", "llvm.mlir.constant")


def _constant_int(value: ir.Value) -> int | None:
    op = producer(value, "arith.constant") or producer(value, "llvm.mlir.constant")
    if op is None or not isinstance(op.attributes["value"], ir.IntegerAttr):
        return None
    return ir.IntegerAttr(op.attributes["value"]).value


def _buffer_of(pointer: ir.Value):
    """%buf if `pointer` is inttoptr(index_cast(extract_aligned_pointer_as_index %buf))."""
    cast = producer(pointer, "llvm.inttoptr")
    index = cast and producer(cast.operands[0], "arith.index_cast")
    extract = index and producer(index.operands[0], "memref.extract_aligned_pointer_as_index")
    return extract.operands[0] if extract else None


def _whole_buffer(t: ir.Type) -> bool:
    """A statically shaped memref with the identity layout (offset 0, row-major)."""
    if not isinstance(t, ir.MemRefType) or not t.has_static_shape:
        return False
    layout = t.layout
    return isinstance(layout, ir.AffineMapAttr) and layout.value == ir.AffineMap.get_identity(t.rank)


def _copy_before(call: ir.Operation, dst: ir.Value):
    """The memref.copy into `dst` that precedes `call` in its block with only pointer
    arithmetic in between, or None."""
    block = call.block
    ops = [op.operation for op in block.operations]
    at = next(i for i, op in enumerate(ops) if op == call)
    for op in reversed(ops[:at]):
        if op.name == "memref.copy":
            return op if op.operands[1] == dst else None
        if op.name not in _POINTER_OPS:
            return None
    return None


def _pointer(buffer: ir.Value, like: ir.Value) -> ir.Value:
    """`like`'s pointer arithmetic, on `buffer` (inserted at the current insertion point)."""
    cast = producer(like, "llvm.inttoptr")
    index = producer(cast.operands[0], "arith.index_cast")
    address = ir.Operation.create("memref.extract_aligned_pointer_as_index",
                                  results=[ir.IndexType.get()], operands=[buffer]).result
    integer = ir.Operation.create("arith.index_cast", results=[index.results[0].type],
                                  operands=[address]).result
    return ir.Operation.create("llvm.inttoptr", results=[like.type], operands=[integer]).result


@dataclass(frozen=True)
class OutOfPlaceCollectives(Pass):
    """Folds `memref.copy %src, %dst` followed by `MPI_Allreduce(MPI_IN_PLACE, %dst)` into `MPI_Allreduce(%src, %dst)`.

    Expects: bufferized functions (memrefs) with the all-reduce calls hlo-to-linalg emits.
    Produces: the same calls reading the copy's source, without the copy, where the copy
    covers the whole identity-layout buffer right before the call; others unchanged.
    """

    name = "mlc-out-of-place-collectives"

    def run(self, module: ir.Operation) -> None:
        calls = []

        def visit(op):
            if op.name == "llvm.call" and "callee" in op.attributes and \
                    ir.FlatSymbolRefAttr(op.attributes["callee"]).value == _ALLREDUCE:
                calls.append(op.operation)
            return ir.WalkResult.ADVANCE

        module.walk(visit)
        for call in calls:
            send, receive = call.operands[0], call.operands[1]
            in_place = producer(send, "llvm.inttoptr")
            if in_place is None or _constant_int(in_place.operands[0]) != _MPI_IN_PLACE:
                continue
            dst = _buffer_of(receive)
            if dst is None or not _whole_buffer(dst.type):
                continue
            copy = _copy_before(call, dst)
            if copy is None:
                continue
            src = copy.operands[0]
            if src == dst or src.type != dst.type:
                continue
            with ir.InsertionPoint(call), call.location:
                call.operands[0] = _pointer(src, receive)
            copy.erase()
