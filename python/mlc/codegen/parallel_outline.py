"""Pass `mlc-parallel-outline`: each scf.forall the strategies made runs on MLC's thread pool
(runtime/parallel_runtime.c).

    scf.forall (%i, %j) in (8, 100) { body(%i, %j) }
      ->
    %ctx = llvm.alloca 1 x !llvm.struct<(captured values...)>     (at the function's entry)
    llvm.store (captured values as one struct), %ctx
    %fn = func.constant @f_parallel_0
    call @mlc_parallel_for(%fn, %ctx, %blocks, %threads)

    func.func private @f_parallel_0(%ctx: !llvm.ptr, %block: i64) {
      (the captured values, loaded from %ctx)
      scf.for %l = %block * size to min(%block * size + size, 800) {
        %i, %j = (%l / 100, %l % 100)    body(%i, %j)
      }
    }

The iterations, linearized, are cut into `blocks` contiguous ranges; the runtime hands them
to the caller's thread and its workers as they come free (a block of one iteration has no
loop: the block index is the iteration; an alloca of the body moves before the block loop,
one buffer per block). The body function has internal linkage: only its address is taken,
and the JIT wraps every external function. A memref of static layout (shape, strides and
offset in its type) crosses the context as its aligned pointer, and the body rebuilds its
descriptor with the type's constants: one word instead of 3 + 2 x rank, and LLVM sees the
strides (an SGD step over 100 parameters stored 2,100 words in its contexts, a 3,100-line
entry function; its LLVM code generation 0.92 -> 0.25 s). Any other memref crosses as its
LLVM descriptor (unrealized casts that convert-to-llvm folds away), an index as i64,
constants are cloned into the body. A nested scf.forall, a loop whose captured values have
no LLVM form, or a single-threaded compile (threads=1) becomes sequential scf.for loops.

Before this pass, mlc-sequential-beside-blas keeps the loops of a function that calls BLAS
on one thread.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith, builtin, func, llvm, scf

from ..abi import PARALLEL_SYMBOL
from ..conversion.split_functions import defining_op, nested_ops
from ..transforms.pass_base import Pass, PassPipeline, UpstreamPasses
from .loops import forall_bounds
from .sequential_beside_blas import SequentialBesideBlas
from . import target
from .target import num_threads

# Blocks per thread: a thread that comes free early (the other core busy with something
# else, a worker still waking) takes over the rest of the work in pieces.
BLOCKS_PER_THREAD = 4
_MAX_BLOCKS = 0xffff  # the runtime's limit


def _descriptor_type(rank: int) -> str:
    return "struct<(ptr, ptr, i64)>" if rank == 0 else \
        f"struct<(ptr, ptr, i64, array<{rank} x i64>, array<{rank} x i64>)>"


def _static_layout(t: ir.MemRefType) -> tuple[int, list[int]] | None:
    """(offset, strides) of a memref type whose descriptor is constants but for its pointers
    (static shape, strides and offset), else None."""
    if not t.has_static_shape:
        return None
    strides, offset = t.get_strides_and_offset()
    dynamic = ir.ShapedType.get_dynamic_stride_or_offset()
    return None if offset == dynamic or dynamic in strides else (offset, strides)


def _llvm_field(t: ir.Type) -> str | None:
    """How a value of type `t` is stored in the context struct, or None if it cannot be."""
    if isinstance(t, ir.MemRefType):
        if t.memory_space is not None:
            return None
        return "ptr" if _static_layout(t) is not None else _descriptor_type(t.rank)
    if isinstance(t, ir.IndexType):
        return "i64"
    if isinstance(t, (ir.IntegerType, ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type)):
        return str(t)
    if isinstance(t, ir.VectorType) and t.rank == 1 and not t.scalable:
        element = _llvm_field(t.element_type)
        return None if element is None else f"vector<{t.shape[0]}x{element}>"
    return None


def _field_type(field: str) -> ir.Type:
    """The MLIR type of a context field (_llvm_field's spelling, nested structs unprefixed)."""
    return ir.Type.parse("!llvm." + field if field.startswith(("struct", "ptr")) else field)


def _has_index(t: ir.Type) -> bool:
    """An index or a vector of indices: crosses the context as i64s (arith.index_cast)."""
    return isinstance(t, ir.IndexType) or (isinstance(t, ir.VectorType) and isinstance(t.element_type, ir.IndexType))


def _rebuilt_descriptor(pointer: ir.Value, t: ir.MemRefType, i64_constant, field_type) -> ir.Value:
    """The LLVM descriptor of a memref of type `t` (static layout) at `pointer`: both pointers
    `pointer`, the offset, sizes and strides constants (`i64_constant(value)`: one per value
    in the body, not one per field: an optimizer step's 50 captured 2-D buffers made 350).
    (The body only reads and writes the buffer: the allocated pointer, for deallocation, is
    never used there.)"""
    offset, strides = _static_layout(t)
    descriptor = llvm.PoisonOp(field_type(_descriptor_type(t.rank))).result
    descriptor = llvm.InsertValueOp(descriptor, pointer, [0]).result
    descriptor = llvm.InsertValueOp(descriptor, pointer, [1]).result
    fields = [([2], offset)] + [([3, d], size) for d, size in enumerate(t.shape)] + \
             [([4, d], stride) for d, stride in enumerate(strides)]
    for position, value in fields:
        descriptor = llvm.InsertValueOp(descriptor, i64_constant(value), position).result
    return descriptor


def _captures(forall) -> tuple[list[ir.Value], list[ir.Value], list] | None:
    """(values the loop reads from outside, constants it reads from outside, (op, operand
    number, value) of each such read), or None when a value has no LLVM form to cross the
    context in."""
    ops, arguments = nested_ops(forall)
    defined = set(arguments)
    for o in ops:
        defined.update(o.results)
    values, constants, seen, reads = [], [], set(), []
    for o in ops[1:]:
        for i, v in enumerate(o.operands):
            if v in defined:
                continue
            reads.append((o, i, v))
            if v in seen:
                continue
            seen.add(v)
            owner = defining_op(v)
            if owner is not None and owner.name == "arith.constant":
                constants.append(v)
            elif _llvm_field(v.type) is None:
                return None
            else:
                values.append(v)
    return values, constants, reads


def _outline(forall, function, name: str, threads: int, blocks_per_thread: int) -> bool:
    """Replaces `forall` by a call into the runtime and its body by the function `name`;
    False (nothing changed) when it cannot."""
    bounds = forall_bounds(forall)
    found = _captures(forall)
    if bounds is None or found is None:
        return False
    trips = [max(0, -(-(upper - lower) // step)) for lower, upper, step in bounds]
    total = math.prod(trips)
    if total <= 1:
        return False
    blocks = min(total, threads * blocks_per_thread, _MAX_BLOCKS)
    size = -(-total // blocks)
    blocks = -(-total // size)
    values, constants, reads = found
    fields = [_llvm_field(v.type) for v in values]
    context_type = ir.Type.parse(f"!llvm.struct<({', '.join(fields)})>")
    ptr, i64, index = ir.Type.parse("!llvm.ptr"), ir.IntegerType.get_signless(64), ir.IndexType.get()
    body_type = ir.FunctionType.get([ptr, i64], [])

    with forall.location:
        # The body function.
        with ir.InsertionPoint.after(function):
            outlined = func.FuncOp(name, body_type, visibility="private")
        # Internal: only its address is taken. An external body got a packed wrapper from the
        # JIT, into which -O2 inlined a second copy (the engine's compile of a BN + ReLU
        # kernel 15 -> 31 ms on two threads; internal, 15 -> 17).
        outlined.attributes["llvm.linkage"] = ir.Attribute.parse("#llvm.linkage<internal>")
        entry = outlined.add_entry_block()
        types: dict[str, ir.Type] = {}
        constants_i64: dict[int, ir.Value] = {}

        def field_type(field: str) -> ir.Type:
            if field not in types:
                types[field] = _field_type(field)
            return types[field]

        def i64_constant(value: int) -> ir.Value:  # (made in the entry block, before any use)
            if value not in constants_i64:
                constants_i64[value] = llvm.ConstantOp(i64, ir.IntegerAttr.get(i64, value)).result
            return constants_i64[value]

        with ir.InsertionPoint(entry):
            context = llvm.LoadOp(context_type, entry.arguments[0]).result
            remap = {}
            for k, (v, field) in enumerate(zip(values, fields)):
                stored = llvm.ExtractValueOp(field_type(field), context, [k]).result
                if isinstance(v.type, ir.MemRefType):
                    if field == "ptr":
                        stored = _rebuilt_descriptor(stored, ir.MemRefType(v.type), i64_constant, field_type)
                    remap[v] = builtin.UnrealizedConversionCastOp([v.type], [stored]).result
                elif _has_index(v.type):
                    remap[v] = arith.index_cast(v.type, stored)
                else:
                    remap[v] = stored
            for c in constants:
                remap[c] = defining_op(c).clone().results[0]
            block = arith.index_cast(index, entry.arguments[1])
            if size == 1:  # a block is one iteration: no loop (LLVM sees straight-line code)
                linear, loop = block, None
                terminator = func.ReturnOp([])
            else:
                lo = arith.muli(block, arith.constant(index, size))
                hi = arith.minui(arith.addi(lo, arith.constant(index, size)), arith.constant(index, total))
                loop = scf.ForOp(lo, hi, arith.constant(index, 1))
                linear = loop.induction_variable
                func.ReturnOp([])
                with ir.InsertionPoint(loop.body):
                    terminator = scf.YieldOp([])
        with ir.InsertionPoint(terminator):
            ivs, rest = [], linear
            for d in reversed(range(len(trips))):  # delinearize, innermost dimension fastest
                i = rest
                if d:
                    extent = arith.constant(index, trips[d])
                    i, rest = arith.remui(rest, extent), arith.divui(rest, extent)
                lower, _, step = bounds[d]
                if step != 1:
                    i = arith.muli(i, arith.constant(index, step))
                if lower:
                    i = arith.addi(i, arith.constant(index, lower))
                ivs.append(i)
            ivs.reverse()
        body = forall.regions[0].blocks[0]
        for argument, iv in zip(body.arguments, ivs):
            argument.replace_all_uses_with(iv)
        for op in list(body.operations)[:-1]:  # all but the scf.forall.in_parallel terminator
            op = op.operation
            if loop is not None and op.name == "memref.alloca" and not len(op.operands):
                # One buffer per block, before its loop: an alloca inside a loop stays on the
                # stack until the function returns (a row-fusion buffer per row of the block).
                op.move_before(loop.operation)
            else:
                op.move_before(terminator)
        for o, i, v in reads:  # (the reads _captures found: no second walk of the body)
            o.operands[i] = remap[v]

        # The call: the context on the caller's stack, allocated once at the function's entry
        # (an alloca inside a loop would grow the stack on each iteration).
        first = function.regions[0].blocks[0].operations[0]
        with ir.InsertionPoint(first):
            slot = llvm.AllocaOp(ptr, llvm.ConstantOp(i64, ir.IntegerAttr.get(i64, 1)).result,
                                 context_type).result
        with ir.InsertionPoint(forall):
            packed = llvm.PoisonOp(context_type).result
            for k, (v, field) in enumerate(zip(values, fields)):
                if isinstance(v.type, ir.MemRefType):
                    descriptor = field_type(_descriptor_type(ir.MemRefType(v.type).rank))
                    v = builtin.UnrealizedConversionCastOp([descriptor], [v]).result
                    if field == "ptr":  # the aligned pointer: the rest is in the type
                        v = llvm.ExtractValueOp(ptr, v, [1]).result
                elif _has_index(v.type):
                    v = arith.index_cast(field_type(field), v)
                packed = llvm.InsertValueOp(packed, v, [k]).result
            llvm.StoreOp(packed, slot)
            callee = func.ConstantOp(body_type, ir.FlatSymbolRefAttr.get(name)).result
            func.CallOp([], ir.FlatSymbolRefAttr.get(PARALLEL_SYMBOL),
                        [callee, slot, arith.constant(i64, blocks), arith.constant(i64, threads)])
    forall.erase()
    return True


def _declare_runtime(module: ir.Operation) -> None:
    table = ir.SymbolTable(module)
    if PARALLEL_SYMBOL in table:
        return
    ptr, i64 = ir.Type.parse("!llvm.ptr"), ir.IntegerType.get_signless(64)
    body_type = ir.FunctionType.get([ptr, i64], [])
    with ir.InsertionPoint.at_block_begin(module.regions[0].blocks[0]), module.location:
        func.FuncOp(PARALLEL_SYMBOL, ([body_type, ptr, i64, i64], []), visibility="private")


@dataclass(frozen=True)
class OutlineParallelLoops(Pass):
    """The outermost scf.forall loops of each function -> calls of `mlc_parallel_for` with
    their bodies outlined (`<function>_parallel_<i>`); see the module docstring.

    Expects: scf.forall loops on buffers (no shared outputs). Produces: func.call
    @mlc_parallel_for, llvm.alloca/store of the context; the nested or unoutlinable loops
    are left as scf.forall for scf-forall-to-for. Options: threads (0 = the host's cores),
    blocks-per-thread (4).
    """

    name = "mlc-outline-parallel-loops"
    threads: int = 0
    blocks_per_thread: int = BLOCKS_PER_THREAD

    def run(self, module: ir.Operation) -> None:
        threads = self.threads or num_threads()
        if threads <= 1:
            return
        outlined = False
        functions = [o.operation for o in module.regions[0].blocks[0].operations
                     if o.operation.name == "func.func" and len(o.operation.regions[0].blocks)]
        for function in functions:
            loops = []

            def visit(op):
                if op.name == "scf.forall":
                    loops.append(op)
                    return ir.WalkResult.SKIP  # nested foralls stay in the body, sequential
                return ir.WalkResult.ADVANCE

            function.walk(visit, ir.WalkOrder.PRE_ORDER)
            base = ir.StringAttr(function.attributes["sym_name"]).value
            for k, loop in enumerate(loops):
                if len(loop.results) == 0 and _outline(loop, function, f"{base}_parallel_{k}",
                                                       threads, self.blocks_per_thread):
                    outlined = True
        if outlined:
            _declare_runtime(module)


@dataclass(frozen=True)
class ParallelOutline(PassPipeline):
    """Runs scf.forall loops on MLC's thread pool: sequential beside BLAS (where OpenBLAS
    keeps its own workers), the outermost
    loops outlined into runtime calls, what is left (nested loops) as scf.for.

    Expects: scf.forall loops on buffers. Produces: calls of `mlc_parallel_for` and no
    scf.forall. Options: threads (0 = the host's cores), beside (-1: loops beside a BLAS
    call sequential unless OpenBLAS runs its jobs on MLC's pool, target.blas_on_pool).
    """

    name = "mlc-parallel-outline"
    threads: int = 0
    beside: int = -1  # mlc-sequential-beside-blas first: target.sequential_beside_blas's setting

    def passes(self) -> list[Pass]:
        # Beside BLAS only where OpenBLAS keeps its own (spinning) workers: on MLC's pool its
        # jobs and the function's loops take turns on the same threads.
        beside = [SequentialBesideBlas()] if target.sequential_beside_blas(self.beside) else []
        return beside + [OutlineParallelLoops(threads=self.threads), UpstreamPasses("func.func(scf-forall-to-for)")]
