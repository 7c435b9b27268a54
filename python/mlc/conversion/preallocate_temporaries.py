"""Pass `mlc-preallocate-temporaries`: XLA-style buffer assignment for a public function's
temporary buffers. They become views into one scratch argument that the caller allocates
once per executable, instead of a malloc/free on every call.

    func.func @main(%x: memref<4096x1024xf32>, %out: memref<4096x1024xf32>) {
      %t = memref.alloc() : memref<4096x1024xf32> ...
  ->
    func.func @main(%x: ..., %out: ..., %scratch: memref<16777216xi8>)
        attributes {mlc.scratch_bytes = 16777216 : i64} {
      %t = memref.view %scratch[%c0][] : memref<16777216xi8> to memref<4096x1024xf32> ...

Why: a large malloc is a fresh mmap, and touching its pages costs a page fault per 4 KiB
(measured here: softmax on 4096x1024 spent two thirds of its time faulting in its 16 MiB
temporary). A scratch buffer reused across calls is faulted in once.

Temporaries whose live ranges (in the function's top-level op order) do not overlap share
bytes, first fit, 64-byte aligned. Only statically shaped allocs at the function's top level
are assigned; an alloc inside a loop, or of i1, stays a malloc. Run it after
buffer-results-to-out-params and before buffer-deallocation-pipeline (which then has
nothing to free for them).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith, memref

from ..dialects.hlo.types import byte_size
from ..transforms.pass_base import Pass
from ..abi import SCRATCH_ATTR

_TERMINATORS = frozenset({"scf.yield", "scf.condition"})
ALIGNMENT = 64


@dataclass
class _Temporary:
    alloc: ir.Operation
    size: int
    first: int  # index of the top-level op that allocates it
    last: int  # index of the last top-level op that uses it
    offset: int = 0


def _byte_size(t: ir.MemRefType) -> int | None:
    """The bytes of a buffer memref.view can carve out of the scratch, else None."""
    if not t.has_static_shape or t.affine_map != ir.AffineMap.get_identity(t.rank) or t.memory_space:
        return None
    width = getattr(t.element_type, "width", None)
    if width is None or width % 8:
        return None  # index, i1, ... have no byte layout memref.view can express
    return byte_size(t)


def _top_level_index(op: ir.Operation, block_ops: dict) -> int:
    """Index of the op in the function body that contains `op` (itself, or an ancestor)."""
    while op is not None:
        key = block_ops.get(op)
        if key is not None:
            return key
        op = op.parent.operation if op.parent is not None else None
    raise AssertionError("a use outside the function")


def _memref_results(op: ir.Operation) -> list[ir.Value]:
    return [r for r in op.results if isinstance(r.type, ir.MemRefType)]


def _users(buffer: ir.Value) -> list[ir.Operation]:
    """Every op that uses `buffer` directly or through a value that may alias it. Conservative
    (a longer live range is only less sharing): any memref result of a user may be a view of
    the buffer, and a region terminator (scf.yield) passes it on to its parent's results."""
    found, pending, seen = [], [buffer], set()
    while pending:
        value = pending.pop()
        for use in value.uses:
            user = use.owner.operation
            found.append(user)
            if user.name in _TERMINATORS:
                aliases = _memref_results(user.parent.operation)
            else:
                aliases = _memref_results(user)
            for alias in aliases:
                if alias not in seen:
                    seen.add(alias)
                    pending.append(alias)
    return found


def _assign_offsets(temps: list[_Temporary]) -> int:
    """First fit: each temporary takes the lowest aligned offset that overlaps no live one."""
    placed: list[_Temporary] = []
    total = 0
    for t in temps:
        busy = sorted((p.offset, p.offset + p.size) for p in placed
                      if p.first <= t.last and t.first <= p.last)
        offset = 0
        for start, end in busy:
            if offset + t.size <= start:
                break
            offset = max(offset, -(-end // ALIGNMENT) * ALIGNMENT)
        t.offset = offset
        placed.append(t)
        total = max(total, offset + t.size)
    return total


@dataclass(frozen=True)
class PreallocateTemporaries(Pass):
    """Turns a public function's top-level static allocs into views of one scratch argument.

    Expects: bufferized functions in destination-passing style, before deallocation.
    Produces: a trailing `memref<Nxi8>` argument and `mlc.scratch_bytes = N` on each
    function that had temporaries; the caller passes N (64-byte aligned) bytes.
    """

    name = "mlc-preallocate-temporaries"

    def run(self, module: ir.Operation) -> None:
        for func in module.regions[0].blocks[0].operations:
            if (func.operation.name == "func.func" and "sym_visibility" not in func.attributes
                    and func.regions[0].blocks):
                self._run_on(func)

    def _run_on(self, func) -> None:
        block = func.regions[0].blocks[0]
        ops = list(block.operations)
        index = {op.operation: i for i, op in enumerate(ops)}
        temps = []
        for i, op in enumerate(ops):
            if op.operation.name != "memref.alloc" or len(op.operands):
                continue
            size = _byte_size(op.results[0].type)
            if size is None:
                continue
            last = max([_top_level_index(user, index) for user in _users(op.results[0])], default=i)
            temps.append(_Temporary(op.operation, size, i, last))
        if not temps:
            return
        total = _assign_offsets(temps)
        arena_type = ir.MemRefType.get([total], ir.IntegerType.get_signless(8))
        arena = block.add_argument(arena_type, func.location)
        ftype = ir.FunctionType(ir.TypeAttr(func.attributes["function_type"]).value)
        func.attributes["function_type"] = ir.TypeAttr.get(
            ir.FunctionType.get(list(ftype.inputs) + [arena_type], list(ftype.results)))
        if "arg_attrs" in func.attributes:
            func.attributes["arg_attrs"] = ir.ArrayAttr.get(list(func.attributes["arg_attrs"]) + [ir.DictAttr.get({})])
        func.attributes[SCRATCH_ATTR] = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), total)
        for t in temps:
            with ir.InsertionPoint(t.alloc), t.alloc.location:
                offset = arith.constant(ir.IndexType.get(), t.offset)
                view = memref.view(t.alloc.results[0].type, arena, offset, [])
            t.alloc.results[0].replace_all_uses_with(view)
            t.alloc.erase()
