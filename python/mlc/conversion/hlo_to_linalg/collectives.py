"""Collectives across the processes of an MPI job, as calls into MPI from compiled code.

hlo.all_reduce -> `MPI_Allreduce(MPI_IN_PLACE, buffer, count, datatype, op, MPI_COMM_WORLD)`
on the operand's buffer, which one-shot bufferization copies first only when the operand
is still needed afterwards (so a donated or dead operand is reduced in place, without a
copy); the buffer is read back as the result. all_gather -> MPI_Allgather, reduce_scatter ->
MPI_Reduce_scatter_block (with a transpose when the dimension is not the leading one),
collective_broadcast -> MPI_Bcast from process 0, in place like all_reduce.
Direct calls rather than upstream `mpi.allreduce`: that op declares no memory effects,
which buffer-deallocation-pipeline refuses, and the dialect has no allgather/reduce_scatter.
The handles are MPICH's ABI (integer handles: the `mpich` wheel's libmpi.so.12, and the
upstream mpi dialect's default lowering); `distributed.initialize()` checks them against
the library mpi4py loaded. Buffers are contiguous (identity layouts), as MPI needs.

No collective can hang the job or read garbage. Before each, a small nonblocking
all-reduce (`_signature_check`) checks that every process reached the same collective
with the same count and dtype, and aborts the job naming the op and the user's line if
not. It completes in `@mlc_collective_wait` (one LLVM function per module), which polls
MPI_Test, yielding the core between polls, and aborts the job (MPI_Abort, after a message naming this process, the op and
the line) when the check has not completed within the compile's `collective_timeout`, or
2 s after another process announced its exit (`distributed` sends that notice, tag
EXIT_TAG, from every process that ends). Once the check is through, every process is in
the collective, so the data moves with MPI's blocking call (see `_blocking`).

On one process (not launched by mpiexec) a collective is the identity: nothing from MPI
is emitted or loaded, so the same program runs without MPI. The disk cache keys on the
process count (runtime/fingerprint.py), so the two forms never share an entry.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, linalg, llvm, memref, tensor

from ... import config, distributed
from ...transforms.pass_base import PassError
from .registry import empty, lowering
from ...codegen.views import reassociation
from .shape import _flatten

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

# The collectives and their LLVM types; the agreement check uses the nonblocking
# all-reduce (MPI_Request is an int in MPICH's ABI).
_ALLREDUCE = ("MPI_Allreduce", "!llvm.func<i32 (ptr, ptr, i32, i32, i32, i32)>")
_ALLGATHER = ("MPI_Allgather", "!llvm.func<i32 (ptr, i32, i32, ptr, i32, i32, i32)>")
_REDUCE_SCATTER = ("MPI_Reduce_scatter_block", "!llvm.func<i32 (ptr, ptr, i32, i32, i32, i32)>")
_BCAST = ("MPI_Bcast", "!llvm.func<i32 (ptr, i32, i32, i32, i32)>")
_IALLREDUCE = ("MPI_Iallreduce", "!llvm.func<i32 (ptr, ptr, i32, i32, i32, i32, ptr)>")
# The tag of the exit notices `distributed` sends (below MPI's guaranteed MPI_TAG_UB, 32767).
EXIT_TAG = 32100
# Microseconds a process sleeps between writing why it aborts and MPI_Abort: the abort makes
# mpiexec tear the job down, and a message still in the pipe to mpiexec was sometimes lost
# (1 run in 6 of the mismatch test ended with exit code 1 and an empty stderr).
DRAIN_US = 200_000


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


# What every rank checks before a collective: its element count, datatype, collective
# (op, kind, dim) and operand shape (a 56-bit hash) agree with every other rank's. One small MPI_Allreduce(MAX) of (a, -a)
# pairs gives max and -min of each; they differ when some rank disagrees. MPI itself
# would read mismatched buffers as garbage (same bytes, other type) or fail obscurely.
# Every check has the same length (SIGNATURE_VALUES, zero-padded), so the checks of two
# different collectives still match each other inside MPI, and report the disagreement.
SIGNATURE_VALUES = 6
_MPI_IN_PLACE = -1
_MPI_INT64_T = 0x4c00083a
_MPI_MAX = MPI_OPS["max"]


def _shape_key(t: ir.RankedTensorType) -> int:
    """A 56-bit hash of the shape: (2, 3) and (3, 2) have one count but differ."""
    import hashlib
    return int.from_bytes(hashlib.sha256(repr(list(t.shape)).encode()).digest()[:7], "little")


def _signature_check(what: str, values: list[int]) -> None:
    """At the insertion point: abort the job with a message naming the op and the user's
    line when the ranks' `values` differ."""
    from mlir.dialects import scf
    from ...autodiff.errors import describe
    i64, index = ir.IntegerType.get_signless(64), ir.IndexType.get()
    assert len(values) <= SIGNATURE_VALUES, values
    values = values + [0] * (SIGNATURE_VALUES - len(values))
    n = len(values)
    buffer = memref.alloca(ir.MemRefType.get([2 * n], i64), [], [])
    for i, v in enumerate(values + [-v for v in values]):
        memref.store(arith.constant(i64, v), buffer, [arith.constant(index, i)])
    _start_and_wait(what, _IALLREDUCE, [_in_place(), _address(buffer), _i32(2 * n), _i32(_MPI_INT64_T),
                                        _i32(_MPI_MAX), _i32(MPI_COMM_WORLD)])
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
    # write(2, ...): unbuffered, so the message is out before MPI_Abort ends the process;
    # then DRAIN_US for mpiexec to forward it (see DRAIN_US).
    _declare("write", "!llvm.func<i64 (i32, ptr, i64)>")
    _declare("usleep", "!llvm.func<i32 (i32)>")
    _declare("MPI_Abort", "!llvm.func<i32 (i32, i32)>")
    _declare("_exit", "!llvm.func<void (i32)>")
    branch = scf.IfOp(differs)
    with ir.InsertionPoint(branch.then_block):
        llvm.CallOp(i64, [_i32(2), message, arith.constant(i64, len(message_text.encode()))], [], [],
                    callee=ir.FlatSymbolRefAttr.get("write"))
        _call("usleep", [_i32(DRAIN_US)])
        _call("MPI_Abort", [_i32(MPI_COMM_WORLD), _i32(1)])
        # MPI_Abort may return before mpiexec has ended this process (MPICH did, about one
        # run in 15): the data call after the check would then combine arrays of different
        # shapes and the program print the result. Never go on.
        llvm.CallOp(None, [_i32(1)], [], [], callee=ir.FlatSymbolRefAttr.get("_exit"))
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


def _in_place() -> ir.Value:
    return llvm.inttoptr(ir.Type.parse("!llvm.ptr"), arith.constant(ir.IntegerType.get_signless(64), _MPI_IN_PLACE))


# The wait loop every agreement check ends in: MPI_Test, then sched_yield() while not done
# (MPICH's own blocking waits yield too). Without the yield a process that arrives first
# spins through its whole time slice whenever the other one is not running (processes
# sharing cores, or any other load): measured with both processes on one core, a 1-float
# psum took 6-7 ms instead of 0.25 ms and a 1e6-element one 11-13 ms instead of 5-6 ms;
# that was the gap to mpi4py on the shared 2-core machine. Every 10 ms, a look for a
# notice from a process that exited (MPI_Iprobe of EXIT_TAG; probing on every turn made a
# 1e6-element all-reduce 3x slower), which shortens the limit to 2 s from now (the grace
# lets a collective the leaver did join finish); past the limit (none when <= 0), a
# message and MPI_Abort. %what is "hlo.<op> at <file:line>". Never inlined: its branches would make the
# caller's control flow unstructured, which bufferization's deallocation refuses.
_WAIT_MODULE = """
llvm.mlir.global internal constant @mlc_wait_left("mlc: process %d left the job while process %d waits in %s; aborting the job\\0A\\00") {addr_space = 0 : i32}
llvm.mlir.global internal constant @mlc_wait_late("mlc: process %d: %s did not complete within %.1f s (another process exited, raised, hangs or runs other collectives; CompileOptions.collective_timeout, MLC_COLLECTIVE_TIMEOUT); aborting the job\\0A\\00") {addr_space = 0 : i32}
llvm.func internal @mlc_collective_wait(%req: !llvm.ptr, %deadline: f64, %what: !llvm.ptr) attributes {no_inline} {
  %one = llvm.mlir.constant(1 : i32) : i32
  %zero = llvm.mlir.constant(0 : i32) : i32
  %eight = llvm.mlir.constant(8 : i32) : i32
  %stderr = llvm.mlir.constant(2 : i32) : i32
  %anysrc = llvm.mlir.constant(-2 : i32) : i32
  %tag = llvm.mlir.constant(EXIT_TAG : i32) : i32
  %world = llvm.mlir.constant(WORLD : i32) : i32
  %grace = llvm.mlir.constant(2.0 : f64) : f64
  %none = llvm.mlir.constant(0.0 : f64) : f64
  %flag = llvm.alloca %one x i32 : (i32) -> !llvm.ptr
  %status = llvm.alloca %eight x i32 : (i32) -> !llvm.ptr
  %start = llvm.call @MPI_Wtime() : () -> f64
  %never = llvm.mlir.constant(0 : i1) : i1
  %period = llvm.mlir.constant(0.01 : f64) : f64
  %one64 = llvm.mlir.constant(1 : i64) : i64
  %ignore = llvm.inttoptr %one64 : i64 to !llvm.ptr
  llvm.br ^loop(%deadline, %none, %never : f64, f64, i1)
^loop(%limit: f64, %probe_at: f64, %seen: i1):
  %0 = llvm.call @MPI_Test(%req, %flag, %ignore) : (!llvm.ptr, !llvm.ptr, !llvm.ptr) -> i32
  %f = llvm.load %flag : !llvm.ptr -> i32
  %done = llvm.icmp "ne" %f, %zero : i32
  llvm.cond_br %done, ^done, ^check
^check:
  %yielded = llvm.call @sched_yield() : () -> i32
  %now = llvm.call @MPI_Wtime() : () -> f64
  %elapsed = llvm.fsub %now, %start : f64
  %due = llvm.fcmp "oge" %elapsed, %probe_at : f64
  llvm.cond_br %due, ^probe, ^decide(%limit, %probe_at, %seen : f64, f64, i1)
^probe:
  %1 = llvm.call @MPI_Iprobe(%anysrc, %tag, %world, %flag, %status) : (i32, i32, i32, !llvm.ptr, !llvm.ptr) -> i32
  %g = llvm.load %flag : !llvm.ptr -> i32
  %now_seen = llvm.icmp "ne" %g, %zero : i32
  %noticed = llvm.or %seen, %now_seen : i1
  %soon = llvm.fadd %elapsed, %grace : f64
  %earlier = llvm.fcmp "olt" %limit, %soon : f64
  %bounded = llvm.fcmp "ogt" %limit, %none : f64
  %keep = llvm.and %earlier, %bounded : i1
  %capped = llvm.select %keep, %limit, %soon : i1, f64
  %next = llvm.select %noticed, %capped, %limit : i1, f64
  %next_probe = llvm.fadd %elapsed, %period : f64
  llvm.br ^decide(%next, %next_probe, %noticed : f64, f64, i1)
^decide(%new_limit: f64, %new_probe_at: f64, %left: i1):
  %over = llvm.fcmp "ogt" %elapsed, %new_limit : f64
  %limited = llvm.fcmp "ogt" %new_limit, %none : f64
  %late = llvm.and %over, %limited : i1
  llvm.cond_br %late, ^abort, ^loop(%new_limit, %new_probe_at, %left : f64, f64, i1)
^abort:
  %2 = llvm.call @MPI_Comm_rank(%world, %flag) : (i32, !llvm.ptr) -> i32
  %me = llvm.load %flag : !llvm.ptr -> i32
  llvm.cond_br %left, ^left, ^late
^left:
  %source_at = llvm.getelementptr %status[2] : (!llvm.ptr) -> !llvm.ptr, i32
  %source = llvm.load %source_at : !llvm.ptr -> i32
  %left_format = llvm.mlir.addressof @mlc_wait_left : !llvm.ptr
  %3 = llvm.call @dprintf(%stderr, %left_format, %source, %me, %what) vararg(!llvm.func<i32 (i32, ptr, ...)>) : (i32, !llvm.ptr, i32, i32, !llvm.ptr) -> i32
  llvm.br ^end
^late:
  %late_format = llvm.mlir.addressof @mlc_wait_late : !llvm.ptr
  %4 = llvm.call @dprintf(%stderr, %late_format, %me, %what, %elapsed) vararg(!llvm.func<i32 (i32, ptr, ...)>) : (i32, !llvm.ptr, i32, !llvm.ptr, f64) -> i32
  llvm.br ^end
^end:
  %drain = llvm.mlir.constant(DRAIN_US : i32) : i32
  %6 = llvm.call @usleep(%drain) : (i32) -> i32
  %5 = llvm.call @MPI_Abort(%world, %one) : (i32, i32) -> i32
  llvm.call @_exit(%one) : (i32) -> ()
  llvm.unreachable
^done:
  llvm.return
}
"""
_WAIT_NEEDS = {"MPI_Test": "!llvm.func<i32 (ptr, ptr, ptr)>", "MPI_Wtime": "!llvm.func<f64 ()>",
               "MPI_Iprobe": "!llvm.func<i32 (i32, i32, i32, ptr, ptr)>",
               "MPI_Comm_rank": "!llvm.func<i32 (i32, ptr)>", "MPI_Abort": "!llvm.func<i32 (i32, i32)>",
               "dprintf": "!llvm.func<i32 (i32, ptr, ...)>", "sched_yield": "!llvm.func<i32 ()>",
               "usleep": "!llvm.func<i32 (i32)>", "_exit": "!llvm.func<void (i32)>"}


def _define_wait() -> None:
    """@mlc_collective_wait and what it calls, once per module."""
    module = _enclosing_module()
    body = module.regions[0].blocks[0]
    if any(op.operation.name == "llvm.func" and ir.StringAttr(op.attributes["sym_name"]).value
           == "mlc_collective_wait" for op in body.operations):
        return
    for name, signature in _WAIT_NEEDS.items():
        _declare(name, signature)
    text = (_WAIT_MODULE.replace("EXIT_TAG", str(EXIT_TAG)).replace("WORLD", str(MPI_COMM_WORLD))
            .replace("DRAIN_US", str(DRAIN_US)))
    # Parsed as a module with the declarations, so the calls verify; then moved over.
    declarations = "\n".join(f"llvm.func @{name}{_llvm_arguments(sig)}" for name, sig in _WAIT_NEEDS.items())
    parsed = ir.Module.parse(declarations + text, module.context)
    with ir.InsertionPoint.at_block_begin(body):
        for op in list(parsed.body.operations)[len(_WAIT_NEEDS):]:
            op.operation.detach_from_parent()
            ir.InsertionPoint.current.insert(op.operation)


def _llvm_arguments(function_type: str) -> str:
    """`!llvm.func<i32 (ptr, i32)>` -> `(!llvm.ptr, i32) -> i32` (a declaration's signature)."""
    inner = function_type[len("!llvm.func<"):-1]
    result, _, arguments = inner.partition(" (")
    arguments = ", ".join("!llvm.ptr" if a.strip() == "ptr" else a.strip()
                          for a in arguments.rstrip(")").split(",") if a.strip())
    return f"({arguments})" + ("" if result == "void" else f" -> {result}")


def _start_and_wait(what: str, function: tuple[str, str], args: list) -> None:
    """Calls the nonblocking MPI `function` (its last argument, the request, is added) and
    waits for it in @mlc_collective_wait under the compile's collective_timeout."""
    from ...autodiff.errors import describe
    name, signature = function
    _declare(name, signature)
    _define_wait()
    request = memref.alloca(ir.MemRefType.get([1], ir.IntegerType.get_signless(32)), [], [])
    _call(name, [*args, _address(request)])
    where = describe(ir.Location.current) or "unknown location"
    timeout = arith.constant(ir.F64Type.get(), float(config.collective_timeout()))
    llvm.CallOp(None, [_address(request), timeout, _global_string(f"hlo.{what} at {where}")], [], [],
                callee=ir.FlatSymbolRefAttr.get("mlc_collective_wait"), no_inline=True)


def _blocking(function: tuple[str, str], args: list) -> None:
    """The blocking MPI `function`: it follows an agreement check, which returned only
    once every process reached this collective with the same signature, so it cannot
    wait for a process that left (one killed meanwhile makes mpiexec end the job). The
    nonblocking form was 2-3x slower at 1e6 elements with the wait loop that did not yet
    yield; with the yield, started together with the check (one wait for both) it was no
    faster for 1e6-1e7 elements and would combine data before the check passed
    (benchmarks/results/allreduce.md)."""
    name, signature = function
    _declare(name, signature)
    _call(name, args)


def emits_mpi_calls() -> bool:
    """Whether collectives become MPI calls: when the job has several processes, or when
    MLC_COLLECTIVES=mpi asks for them (lit tests of the lowering, without a job)."""
    return config.forced_mpi_collectives() or distributed.process_count() > 1


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


def _in_place_buffer(value: ir.Value) -> ir.Value:
    """The buffer of `value` for MPI to overwrite. Not read_only, so one-shot bufferization
    treats it as a write into `value`: it hands over the operand's own buffer when nothing
    reads `value` afterwards and that buffer may be written (a temporary, a donated
    argument, the result's out-param the producer wrote into), and otherwise a fresh copy
    (a caller's read-only argument, a value used again). Either way the result tensor
    (`_received`) is the only user of the buffer from here on."""
    t = ir.RankedTensorType(value.type)
    return ir.Operation.create("bufferization.to_buffer", results=[_buffer_type(t)], operands=[value]).result


def _received(buffer: ir.Value, t: ir.RankedTensorType) -> ir.Value:
    # restrict: nothing else writes this buffer from here on, so the tensor may alias it.
    return ir.Operation.create("bufferization.to_tensor", results=[t], operands=[buffer],
                               attributes={"restrict": ir.UnitAttr.get()}).result


def _call(name: str, args) -> None:
    llvm.CallOp(ir.IntegerType.get_signless(32), list(args), [], [], callee=ir.FlatSymbolRefAttr.get(name))


def _reshape(value: ir.Value, to: ir.RankedTensorType) -> ir.Value:
    """The same elements in row-major order, in shape `to` (through a 1-d tensor)."""
    flat = _flatten(value, ir.RankedTensorType(value.type))
    return tensor.expand_shape(to, flat, reassociation([list(range(to.rank))]), [], list(to.shape))


def _transpose(value: ir.Value, permutation: list[int]) -> ir.Value:
    t = ir.RankedTensorType(value.type)
    to = ir.RankedTensorType.get([t.shape[p] for p in permutation], t.element_type)
    return linalg.transpose(value, outs=[empty(to)], permutation=permutation).results[0]


def _check_processes(what: str, processes: int) -> None:
    """The result type fixes the number of processes; the job must have that many."""
    if config.forced_mpi_collectives() and distributed.process_count() == 1:
        return  # forced MPI calls without a job (lit): the type's count is taken as given
    count = distributed.process_count()
    if processes != count:
        raise _error(what, f"{what} was built for {processes} processes, this job has {count}")


@lowering("all_reduce")
def lower_all_reduce(op, sig):
    """MPI_Allreduce(MPI_IN_PLACE, ...) on the operand's own buffer, taken writable
    (`_in_place_buffer`): bufferization copies the operand first only when it is still
    needed (read later, a caller's array not donated to the result); a dead or donated
    operand is reduced where it is, as mpi4py's in-place Allreduce."""
    x = op.operands[0]
    if not emits_mpi_calls():
        return [x]
    t = ir.RankedTensorType(op.results[0].type)
    count, datatype, kind = _count(t, "all_reduce"), _datatype(sig), MPI_OPS[sig.attributes["kind"]]
    _signature_check("all_reduce", [count, datatype, 1, kind, _shape_key(t)])
    buffer = _in_place_buffer(x)
    _blocking(_ALLREDUCE, [_in_place(), _address(buffer), _i32(count), _i32(datatype), _i32(kind),
                           _i32(MPI_COMM_WORLD)])
    return [_received(buffer, t)]


@lowering("collective_broadcast")
def lower_collective_broadcast(op, sig):
    """MPI_Bcast from process 0, in place on the operand's buffer (copied first only when
    the operand is still needed, as for all_reduce)."""
    x = op.operands[0]
    if not emits_mpi_calls():
        return [x]
    t = ir.RankedTensorType(op.results[0].type)
    count, datatype = _count(t, "collective_broadcast"), _datatype(sig)
    _signature_check("collective_broadcast", [count, datatype, 4, _shape_key(t)])
    buffer = _in_place_buffer(x)
    _blocking(_BCAST, [_address(buffer), _i32(count), _i32(datatype), _i32(0), _i32(MPI_COMM_WORLD)])
    return [_received(buffer, t)]


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
    _signature_check("all_gather", [_count(xt, "all_gather"), _datatype(sig), 2, dim, _shape_key(xt)])
    stacked = ir.RankedTensorType.get([processes, *xt.shape], xt.element_type)
    recv = memref.alloc(_buffer_type(stacked), [], [])
    count, datatype = _i32(_count(xt, "all_gather")), _i32(_datatype(sig))
    _blocking(_ALLGATHER, [_address(_send_buffer(x)), count, datatype, _address(recv), count, datatype,
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
                                        MPI_OPS[sig.attributes["kind"]], _shape_key(xt)])
    if dim:
        split = ir.RankedTensorType.get([*xt.shape[:dim], processes, t.shape[dim], *xt.shape[dim + 1:]],
                                        xt.element_type)
        x = _transpose(_reshape(x, split), [dim, *range(dim), *range(dim + 1, xt.rank + 1)])
    recv = memref.alloc(_buffer_type(t), [], [])
    _blocking(_REDUCE_SCATTER, [_address(_send_buffer(x)), _address(recv), _i32(_count(t, "reduce_scatter")),
                                _i32(_datatype(sig)), _i32(MPI_OPS[sig.attributes["kind"]]), _i32(MPI_COMM_WORLD)])
    return [_received(recv, t)]
