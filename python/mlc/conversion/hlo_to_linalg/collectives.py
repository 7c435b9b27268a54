"""Collectives across the processes of an MPI job, as calls into MPI from compiled code.

hlo.all_reduce -> the operand copied into a fresh buffer, and
`MPI_Allreduce(MPI_IN_PLACE, buffer, count, datatype, op, MPI_COMM_WORLD)` on its address;
the buffer is read back as a tensor. all_gather -> MPI_Allgather, reduce_scatter ->
MPI_Reduce_scatter_block, with a transpose when the dimension is not the leading one.
Before each, a small all-reduce checks that every process agrees on the collective, count
and dtype (`_signature_check`). Direct calls rather than upstream `mpi.allreduce`: that op
declares no memory effects, which buffer-deallocation-pipeline refuses, and the dialect
has no allgather/reduce_scatter. The handles are MPICH's ABI (integer handles: the
`mpich` wheel's libmpi.so.12, and the upstream mpi dialect's default lowering);
`distributed.initialize()` checks them against the library mpi4py loaded. Buffers are
contiguous (identity layouts), as MPI needs.

On one process (not launched by mpiexec) a collective is the identity: nothing from MPI
is emitted or loaded, so the same program runs without MPI. The disk cache keys on the
process count (runtime/fingerprint.py), so the two forms never share an entry.
"""

from __future__ import annotations

import os

from mlir import ir
from mlir.dialects import arith, linalg, llvm, memref, tensor

from ... import distributed
from ...transforms.pass_base import PassError
from .registry import empty, lowering
from .shape import _flatten, _reassociation

MPI_COMM_WORLD = 0x44000000
# MPI_Op handles by hlo kind.
MPI_OPS = {"max": 0x58000001, "min": 0x58000002, "add": 0x58000003, "mul": 0x58000004}
# MPI_Datatype handles by (element type, unsigned); MPI has no f16/bf16 type.
MPI_DATATYPES = {
    ("f32", False): 0x4c00040a, ("f64", False): 0x4c00080b,
    ("i8", False): 0x4c000137, ("i16", False): 0x4c000238, ("i32", False): 0x4c000439,
    ("i64", False): 0x4c00083a, ("i8", True): 0x4c00013b, ("i16", True): 0x4c00023c,
    ("i32", True): 0x4c00043d, ("i64", True): 0x4c00083e,
}
# The names mpi4py gives the same handles (checked at initialize()).
MPI4PY_NAMES = {"COMM_WORLD": MPI_COMM_WORLD, "MAX": MPI_OPS["max"], "MIN": MPI_OPS["min"],
                "SUM": MPI_OPS["add"], "PROD": MPI_OPS["mul"], "FLOAT": 0x4c00040a,
                "DOUBLE": 0x4c00080b, "INT32_T": 0x4c000439, "INT64_T": 0x4c00083a}

_ALLREDUCE = "MPI_Allreduce"
_ALLGATHER = "MPI_Allgather"
_REDUCE_SCATTER = "MPI_Reduce_scatter_block"


def _error(op_name: str, message: str) -> PassError:
    """A compile error at the op being lowered (the lowering runs at its location)."""
    return PassError(f"'hlo.{op_name}' op {message}", ir.Location.current)


def _i32(value: int) -> ir.Value:
    i32 = ir.IntegerType.get_signless(32)
    return arith.constant(i32, ir.IntegerAttr.get(i32, value - (1 << 32) if value >= 1 << 31 else value))


def _buffer_type(t: ir.RankedTensorType) -> ir.MemRefType:
    return ir.MemRefType.get(t.shape, t.element_type)


def _address(buffer: ir.Value) -> ir.Value:
    """The first element's address as an !llvm.ptr (identity layout: offset 0)."""
    start = memref.extract_aligned_pointer_as_index(buffer)
    return llvm.inttoptr(ir.Type.parse("!llvm.ptr"), arith.index_cast(ir.IntegerType.get_signless(64), start))


def _enclosing_module() -> ir.Operation:
    """The module around the insertion point (a lowering sees a view of the op, not the op)."""
    parent = ir.InsertionPoint.current.block.owner.operation
    while parent.name != "builtin.module":
        parent = parent.parent
    return parent


def _datatype(sig) -> int:
    (x,) = sig.operand_types
    key = (str(x.element_type), sig.operand_unsigned(0))
    if key not in MPI_DATATYPES:
        raise _error(sig.name, f"MPI has no datatype for {x.element_type} elements; "
                     "collectives take f32, f64 or 8- to 64-bit integers")
    return MPI_DATATYPES[key]


def _declare(name: str, llvm_function_type: str) -> None:
    """An llvm.func declaration of an MPI function, once per module. An llvm.func, not a
    func.func: llvm-request-c-wrappers would give a func.func declaration a C wrapper and
    route the call through `_mlir_ciface_<name>`, which MPI does not define."""
    body = _enclosing_module().regions[0].blocks[0]
    for existing in body.operations:
        if existing.operation.name == "llvm.func" and ir.StringAttr(existing.attributes["sym_name"]).value == name:
            return
    with ir.InsertionPoint.at_block_begin(body), ir.Location.unknown():
        llvm.LLVMFuncOp(name, ir.TypeAttr.get(ir.Type.parse(llvm_function_type)))


# What every rank checks before a collective: its element count, datatype and collective
# (op, kind, dim) agree with every other rank's. One small MPI_Allreduce(MAX) of (a, -a)
# pairs gives max and -min of each; they differ when some rank disagrees. MPI itself
# would read mismatched buffers as garbage (same bytes, other type) or fail obscurely.
_MPI_IN_PLACE = -1
_MPI_INT64_T = 0x4c00083a
_MPI_MAX = MPI_OPS["max"]


def _signature_check(what: str, values: list[int]) -> None:
    """At the insertion point: abort the job with a message naming the op and the user's
    line when the ranks' `values` differ."""
    from mlir.dialects import scf
    from ...autodiff.errors import describe
    i64, index = ir.IntegerType.get_signless(64), ir.IndexType.get()
    n = len(values)
    buffer = memref.alloca(ir.MemRefType.get([2 * n], i64), [], [])
    for i, v in enumerate(values + [-v for v in values]):
        memref.store(arith.constant(i64, v), buffer, [arith.constant(index, i)])
    _declare(_ALLREDUCE, "!llvm.func<i32 (ptr, ptr, i32, i32, i32, i32)>")
    in_place = llvm.inttoptr(ir.Type.parse("!llvm.ptr"), arith.constant(i64, _MPI_IN_PLACE))
    _call(_ALLREDUCE, [in_place, _address(buffer), _i32(2 * n), _i32(_MPI_INT64_T), _i32(_MPI_MAX),
                       _i32(MPI_COMM_WORLD)])
    differs = None
    for i in range(n):
        high = memref.load(buffer, [arith.constant(index, i)])
        low = arith.subi(arith.constant(i64, 0), memref.load(buffer, [arith.constant(index, n + i)]))
        ne = arith.cmpi(arith.CmpIPredicate.ne, high, low)
        differs = ne if differs is None else arith.ori(differs, ne)
    where = describe(ir.Location.current) or "unknown location"
    message_text = (f"mlc: the processes disagree on hlo.{what} at {where}: different shapes, "
                             "dtypes or collectives (every process must run the same collectives "
                             "on the same shapes); aborting the job\n")
    message = _global_string(message_text)
    # write(2, ...): unbuffered, so the message is out before MPI_Abort ends the process.
    _declare("write", "!llvm.func<i64 (i32, ptr, i64)>")
    _declare("MPI_Abort", "!llvm.func<i32 (i32, i32)>")
    branch = scf.IfOp(differs)
    with ir.InsertionPoint(branch.then_block):
        llvm.CallOp(i64, [_i32(2), message, arith.constant(i64, len(message_text.encode()))], [], [],
                    callee=ir.FlatSymbolRefAttr.get("write"))
        _call("MPI_Abort", [_i32(MPI_COMM_WORLD), _i32(1)])
        scf.YieldOp([])


def _global_string(text: str) -> ir.Value:
    """The address of a NUL-terminated constant string, a module global named after its content."""
    import hashlib
    name = "mlc_message_" + hashlib.sha256(text.encode()).hexdigest()[:12]
    body = _enclosing_module().regions[0].blocks[0]
    data = text.encode() + b"\0"
    if not any(op.operation.name == "llvm.mlir.global" and ir.StringAttr(op.attributes["sym_name"]).value == name
               for op in body.operations):
        escaped = "".join(chr(b) if 32 <= b < 127 and chr(b) not in '"\\' else f"\\{b:02X}" for b in data)
        with ir.InsertionPoint.at_block_begin(body), ir.Location.unknown():
            ir.InsertionPoint.current.insert(ir.Operation.parse(
                f'llvm.mlir.global internal constant @{name}("{escaped}") {{addr_space = 0 : i32}} '
                f': !llvm.array<{len(data)} x i8>'))
    return llvm.AddressOfOp(ir.Type.parse("!llvm.ptr"), name).result


def emits_mpi_calls() -> bool:
    """Whether collectives become MPI calls: when the job has several processes, or when
    MLC_COLLECTIVES=mpi asks for them (lit tests of the lowering, without a job)."""
    return os.environ.get("MLC_COLLECTIVES") == "mpi" or distributed.process_count() > 1


def _count(t: ir.RankedTensorType, what: str) -> int:
    count = 1
    for size in t.shape:
        count *= size
    if count >= 1 << 31:
        raise _error(what, f"{count} elements: MPI counts are 32-bit")
    return count


def _send_buffer(value: ir.Value) -> ir.Value:
    t = ir.RankedTensorType(value.type)
    # read_only: MPI only reads the send buffer, so bufferization need not copy it.
    return ir.Operation.create("bufferization.to_buffer", results=[_buffer_type(t)], operands=[value],
                               attributes={"read_only": ir.UnitAttr.get()}).result


def _received(buffer: ir.Value, t: ir.RankedTensorType) -> ir.Value:
    # restrict: nothing else writes this fresh buffer, so the tensor may alias it.
    return ir.Operation.create("bufferization.to_tensor", results=[t], operands=[buffer],
                               attributes={"restrict": ir.UnitAttr.get()}).result


def _call(name: str, args) -> None:
    llvm.CallOp(ir.IntegerType.get_signless(32), list(args), [], [], callee=ir.FlatSymbolRefAttr.get(name))


def _reshape(value: ir.Value, to: ir.RankedTensorType) -> ir.Value:
    """The same elements in row-major order, in shape `to` (through a 1-d tensor)."""
    flat = _flatten(value, ir.RankedTensorType(value.type))
    return tensor.expand_shape(to, flat, _reassociation(to.rank), [], list(to.shape))


def _transpose(value: ir.Value, permutation: list[int]) -> ir.Value:
    t = ir.RankedTensorType(value.type)
    to = ir.RankedTensorType.get([t.shape[p] for p in permutation], t.element_type)
    return linalg.transpose(value, outs=[empty(to)], permutation=permutation).results[0]


def _check_processes(what: str, processes: int) -> None:
    """The result type fixes the number of processes; the job must have that many."""
    if os.environ.get("MLC_COLLECTIVES") == "mpi" and distributed.process_count() == 1:
        return  # forced MPI calls without a job (lit): the type's count is taken as given
    count = distributed.process_count()
    if processes != count:
        raise _error(what, f"{what} was built for {processes} processes, this job has {count}")


@lowering("all_reduce")
def lower_all_reduce(op, sig):
    x = op.operands[0]
    if not emits_mpi_calls():
        return [x]
    t = ir.RankedTensorType(op.results[0].type)
    count, datatype, kind = _count(t, "all_reduce"), _datatype(sig), MPI_OPS[sig.attributes["kind"]]
    _signature_check("all_reduce", [count, datatype, 1, kind])
    _declare(_ALLREDUCE, "!llvm.func<i32 (ptr, ptr, i32, i32, i32, i32)>")
    recv = memref.alloc(_buffer_type(t), [], [])
    # In place (MPI_IN_PLACE) on a copy of the operand: MPICH copies a separate send buffer
    # itself, then reduces in place with more temporaries: measured 10-25 % slower at 1e7.
    memref.copy(_send_buffer(x), recv)
    in_place = llvm.inttoptr(ir.Type.parse("!llvm.ptr"), arith.constant(ir.IntegerType.get_signless(64), _MPI_IN_PLACE))
    _call(_ALLREDUCE, [in_place, _address(recv), _i32(count), _i32(datatype), _i32(kind), _i32(MPI_COMM_WORLD)])
    return [_received(recv, t)]


@lowering("all_gather")
def lower_all_gather(op, sig):
    """MPI_Allgather stacks the processes' buffers: [P, *operand], then P moves next to
    all_gather_dim and merges with it."""
    x = op.operands[0]
    (xt,) = sig.operand_types
    t = ir.RankedTensorType(op.results[0].type)
    dim = sig.attributes["all_gather_dim"]
    processes = t.shape[dim] // xt.shape[dim]
    _check_processes("all_gather", processes)
    if processes == 1:
        return [x]
    _signature_check("all_gather", [_count(xt, "all_gather"), _datatype(sig), 2, dim])
    _declare(_ALLGATHER, "!llvm.func<i32 (ptr, i32, i32, ptr, i32, i32, i32)>")
    stacked = ir.RankedTensorType.get([processes, *xt.shape], xt.element_type)
    recv = memref.alloc(_buffer_type(stacked), [], [])
    count, datatype = _i32(_count(xt, "all_gather")), _i32(_datatype(sig))
    _call(_ALLGATHER, [_address(_send_buffer(x)), count, datatype, _address(recv), count, datatype,
                       _i32(MPI_COMM_WORLD)])
    gathered = _received(recv, stacked)
    if dim:
        gathered = _transpose(gathered, [*range(1, dim + 1), 0, *range(dim + 1, xt.rank + 1)])
    return [_reshape(gathered, t)]


@lowering("reduce_scatter")
def lower_reduce_scatter(op, sig):
    """MPI_Reduce_scatter_block hands process i the i-th contiguous block: scatter_dimension
    is split into [P, block] and P moved to the front first."""
    x = op.operands[0]
    (xt,) = sig.operand_types
    t = ir.RankedTensorType(op.results[0].type)
    dim = sig.attributes["scatter_dimension"]
    processes = xt.shape[dim] // t.shape[dim]
    _check_processes("reduce_scatter", processes)
    if processes == 1:
        return [x]
    _signature_check("reduce_scatter", [_count(t, "reduce_scatter"), _datatype(sig), 3, dim,
                                        MPI_OPS[sig.attributes["kind"]]])
    if dim:
        split = ir.RankedTensorType.get([*xt.shape[:dim], processes, t.shape[dim], *xt.shape[dim + 1:]],
                                        xt.element_type)
        x = _transpose(_reshape(x, split), [dim, *range(dim), *range(dim + 1, xt.rank + 1)])
    _declare(_REDUCE_SCATTER, "!llvm.func<i32 (ptr, ptr, i32, i32, i32, i32)>")
    recv = memref.alloc(_buffer_type(t), [], [])
    _call(_REDUCE_SCATTER, [_address(_send_buffer(x)), _address(recv), _i32(_count(t, "reduce_scatter")),
                            _i32(_datatype(sig)), _i32(MPI_OPS[sig.attributes["kind"]]), _i32(MPI_COMM_WORLD)])
    return [_received(recv, t)]
