"""Pass `mlc-row-fusion`: consecutive kernels that each work row by row run in one loop
over the rows, so a row's intermediate values are still in cache when the next kernel
reads them (XLA's row-reduction fusion; softmax and layer_norm are the cases it is for).

    linalg.generic max  ins(%x : memref<4096x1024xf32>) outs(%m : memref<4096xf32>)
    linalg.generic exp  ins(%x, %m) outs(%e : memref<4096x1024xf32>)
    linalg.generic sum  ins(%e) outs(%s : memref<4096xf32>)
    linalg.generic div  ins(%e, %s) outs(%out)
  ->
    scf.forall (%r) in (4096) {
      linalg.generic max  ins(%x[%r] : memref<1x1024xf32, ...>) outs(%m[%r])
      ... the same four kernels on row %r's subviews ...
    } {mlc.row_fusion = 4096}

The fused loop is parallel (rows are independent), so mlc-async-parallel shares it between
threads; with one thread it is an scf.for.

Rule, checked per kernel (linalg.generic, fill or copy on buffers): its first loop is
parallel over R rows, every operand it writes and every operand an earlier kernel of the
group wrote is indexed by that loop as its dimension 0 (so row r reads only row r of its
producers), other inputs may be read whole (a broadcast bias). View ops between kernels
(expand_shape, collapse_shape, subview keeping dimension 0) and allocs move before the loop. A run of
two or more such kernels with the same R, and at least MIN_ROWS rows, is fused, when a row
is more than one element (some kernel has an inner loop): a run of 1-D kernels is left as
separate vector loops, since on one-element rows every kernel would be scalar code and the
whole run one straight-line loop body (LLVM's register allocator and two-address pass are
superlinear in a block's size: a 1,600-op 1-D chain took 6 s of LLVM time, 3,200 ops 19 s). Run it
before mlc-preallocate-temporaries: the loop is then one op for the live ranges, so no two
temporaries of the group share bytes across rows.
Private row buffers start on a cache line.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith, memref, scf

from ..dialects.hlo.types import byte_size
from ..transforms.pass_base import Pass
from .blas import blas_takes
from .contraction import match_contraction
from .parallel import worth_parallel
from .target import num_threads
from .views import view_root

TAG = "mlc.row_fusion"
MIN_ROWS = 2
_KERNELS = frozenset({"linalg.generic", "linalg.fill", "linalg.copy"})
_MOVABLE = frozenset({"memref.alloc", "memref.expand_shape", "memref.collapse_shape", "memref.subview",
                      "arith.constant"})
_VIEWS = frozenset({"memref.expand_shape", "memref.collapse_shape", "memref.subview"})


def _left_whole(op) -> bool:
    """A matmul is left whole for the matmul strategies (BLAS, tiled code), and so is a
    matrix-vector product mlc-blas will make one gemv call (row by row it would be one
    call per row)."""
    c = match_contraction(op, vectors=True)
    return c is not None and (not c.is_vector or blas_takes(c))


def _row_maps(op) -> list[tuple[ir.Value, bool, bool]] | None:
    """[(operand, is_output, row_indexed)] of a kernel whose first loop is parallel, or None."""
    operands = list(op.operands)
    if op.name == "linalg.copy":  # copy(in, out): row r of in to row r of out
        if any(not isinstance(v.type, ir.MemRefType) or v.type.rank == 0 for v in operands):
            return None
        return [(operands[0], False, True), (operands[1], True, True)]
    if op.name == "linalg.fill":  # fill(value, out): out is written row by row
        out = operands[1]
        if not isinstance(out.type, ir.MemRefType) or out.type.rank == 0:
            return None
        return [(operands[0], False, False), (out, True, True)]
    iterators = list(op.attributes["iterator_types"])
    if not iterators or "parallel" not in str(iterators[0]) or _left_whole(op):
        return None
    if not _body_is_position_free(op):
        return None
    n_in = ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"])[0]
    result = []
    for i, (value, attr) in enumerate(zip(operands, op.attributes["indexing_maps"])):
        amap = ir.AffineMapAttr(attr).value
        results = list(amap.results)
        row_indexed = (bool(results) and isinstance(results[0], ir.AffineDimExpr) and results[0].position == 0
                       and not any(_uses_dim(e, 0) for e in results[1:]))
        if not row_indexed and any(_uses_dim(e, 0) for e in results):
            return None  # the row loop indexes another dimension too (d0 + d1): not row-local
        result.append((value, i >= n_in, row_indexed))
    return result


def _body_is_position_free(op) -> bool:
    """A body of arith/math ops only: it computes from its operands' elements, so it means
    the same on a row subview. (linalg.index would count from the subview's start, and a
    memref.load in the body, as in a gather, addresses the whole buffer.)"""
    return all(inner.operation.name.startswith(("arith.", "math.")) or inner.operation.name == "linalg.yield"
               for inner in op.regions[0].blocks[0].operations)


def _uses_dim(expr: ir.AffineExpr, dim: int) -> bool:
    """Whether an affine expression depends on loop `dim` (d0 + d1 uses both)."""
    if isinstance(expr, ir.AffineDimExpr):
        return expr.position == dim
    if isinstance(expr, ir.AffineBinaryExpr):
        return _uses_dim(expr.lhs, dim) or _uses_dim(expr.rhs, dim)
    return False


def _loop_count(op) -> int:
    """How many loops a kernel has (a fill or copy: its output's rank)."""
    if op.name == "linalg.generic":
        return len(op.attributes["iterator_types"])
    return ir.MemRefType(op.operands[-1].type).rank


def _rows(entries) -> int | None:
    rows = {ir.MemRefType(v.type).shape[0] for v, _, indexed in entries if indexed}
    return rows.pop() if len(rows) == 1 else None


def _keeps_rows(op) -> bool:
    """A view whose row r is its source's row r: a reshape that leaves dimension 0 alone, or
    a subview that takes all of dimension 0."""
    if op.name == "memref.subview":
        source = ir.MemRefType(op.operands[0].type)
        offsets = list(ir.DenseI64ArrayAttr(op.attributes["static_offsets"]))
        sizes = list(ir.DenseI64ArrayAttr(op.attributes["static_sizes"]))
        strides = list(ir.DenseI64ArrayAttr(op.attributes["static_strides"]))
        return (source.rank > 0 and (offsets[0], sizes[0], strides[0]) == (0, source.shape[0], 1)
                and ir.MemRefType(op.results[0].type).shape[:1] == source.shape[:1])
    groups = list(op.attributes["reassociation"])
    return bool(groups) and [ir.IntegerAttr(d).value for d in groups[0]] == [0]


@dataclass
class _Group:
    rows: int
    kernels: list
    written: set  # buffers (roots) the group's kernels write, row by row
    read_whole: set  # buffers some kernel of the group reads whole (not by row)
    span: list  # every op from the first kernel to the last, in block order


def _groups(block) -> list[_Group]:
    groups, current, pending = [], None, []

    def close():
        nonlocal current
        if (current is not None and len(current.kernels) >= 2 and current.rows >= MIN_ROWS
                and any(_loop_count(k) >= 2 for k in current.kernels)):
            groups.append(current)
        current = None

    for op in list(block.operations):
        op = op.operation
        if op.name in _MOVABLE:
            if op.name in _VIEWS and not _keeps_rows(op):
                close()
            elif current is not None:
                pending.append(op)
            continue
        entries = _row_maps(op) if op.name in _KERNELS else None
        rows = _rows(entries) if entries else None
        if entries is None or rows is None:
            close()
            continue
        # Row r must not need other rows of what the group computes: a whole read of a
        # buffer the group writes, or a write to a buffer the group reads whole (read
        # before, in program order), ends the group.
        conflict = current is not None and (
            any(not indexed and view_root(v, _VIEWS) in current.written for v, out, indexed in entries)
            or any(out and view_root(v, _VIEWS) in current.read_whole for v, out, _ in entries))
        if current is None or rows != current.rows or conflict:
            close()
            current = _Group(rows, [], set(), set(), [])
        else:
            current.span.extend(pending)
        pending = []
        current.kernels.append(op)
        current.span.append(op)
        current.written.update(view_root(v, _VIEWS) for v, out, _ in entries if out)
        current.read_whole.update(view_root(v, _VIEWS) for v, out, indexed in entries
                                  if not indexed and isinstance(v.type, ir.MemRefType))
    close()
    return groups


def _elements(value: ir.Value) -> int:
    return math.prod(ir.MemRefType(value.type).shape)


def _row_slice(value: ir.Value, row: ir.Value) -> ir.Value:
    t = ir.MemRefType(value.type)
    # The row view keeps the buffer's strides at a dynamic offset; stated explicitly, since
    # the builder cannot infer it when the buffer's own strides are dynamic (a buffer that
    # bufferization gave a fully dynamic layout, e.g. an scf.if result).
    strides, _ = t.get_strides_and_offset()
    dynamic = ir.ShapedType.get_dynamic_stride_or_offset()
    layout = ir.StridedLayoutAttr.get(dynamic, strides)
    view = ir.MemRefType.get([1] + list(t.shape[1:]), t.element_type, layout, t.memory_space)
    return memref.subview(value, [row] + [0] * (t.rank - 1), [1] + list(t.shape[1:]), [1] * t.rank,
                          result_type=view)


@dataclass(frozen=True)
class RowFusion(Pass):
    """Fuses runs of row-local kernels on buffers into one loop over rows (scf.forall).

    Expects: bufferized linalg at a function's top level. Produces: `scf.forall ... {mlc.row_fusion}`
    holding the kernels on row subviews; everything else unchanged.
    """

    name = "mlc-row-fusion"
    threads: int = 0  # > 1 makes the row loop an scf.forall; 0 = num_threads()

    def threads_or_default(self) -> int:
        return self.threads or num_threads()

    def run(self, module: ir.Operation) -> None:
        for func in module.regions[0].blocks[0].operations:
            if func.operation.name == "func.func" and func.regions[0].blocks:
                for group in _groups(func.regions[0].blocks[0]):
                    self._fuse(group)

    def _fuse(self, group: _Group) -> None:
        first = group.kernels[0]
        kernels = set(group.kernels)
        for op in group.span:  # views and allocs between the kernels: before the loop
            if op not in kernels:
                op.move_before(first)
        largest = max(_elements(v) for k in group.kernels for v in k.operands
                      if isinstance(v.type, ir.MemRefType))
        threads = self.threads_or_default()
        parallel = threads > 1 and worth_parallel(["parallel"], [group.rows, largest // group.rows])
        index = ir.IndexType.get()
        tag = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), group.rows)
        with ir.InsertionPoint(first), first.location:
            if parallel:  # chunks of rows shared between threads by mlc-async-parallel
                chunk = -(-group.rows // (CHUNKS_PER_THREAD * threads))
                outer = scf.ForallOp([0], [-(-group.rows // chunk)], [1])
                outer.attributes[TAG] = tag
                with ir.InsertionPoint(outer.regions[0].blocks[0]):
                    chunk_end = scf.InParallelOp()
                with ir.InsertionPoint(chunk_end):
                    size = arith.constant(index, chunk)
                    lower = arith.muli(outer.regions[0].blocks[0].arguments[0], size)
                    upper = arith.minsi(arith.addi(lower, size), arith.constant(index, group.rows))
                    loop = scf.ForOp(lower, upper, arith.constant(index, 1))
            else:
                loop = scf.ForOp(arith.constant(index, 0), arith.constant(index, group.rows),
                                 arith.constant(index, 1))
                loop.attributes[TAG] = tag
        body = loop.regions[0].blocks[0]
        row = body.arguments[0]
        with ir.InsertionPoint(body):
            terminator = scf.YieldOp([])
        for kernel in group.kernels:
            kernel.move_before(terminator.operation)
            with ir.InsertionPoint(kernel), kernel.location:
                for i, (value, _, indexed) in enumerate(_row_maps(kernel)):
                    if indexed:
                        kernel.operands[i] = _row_slice(value, row)
        _privatize(_block_of(outer if parallel else loop), loop.operation, row)


# A parallel row loop runs as this many chunks per thread (a slow thread is not waited on
# for long); each chunk is one task with its own private row buffers.
CHUNKS_PER_THREAD = 4


def _block_of(op) -> ir.Block:
    """The block holding `op` (its parent's only block: function bodies have one)."""
    return op.operation.parent.regions[0].blocks[0]


def _privatize(block: ir.Block, loop: ir.Operation, row: ir.Value) -> None:
    """A temporary only the loop uses, row by row, shrinks to one row: a stack buffer
    allocated just before the row loop (once per thread's chunk, or once per call), reused
    by every row, instead of a full-size buffer whose rows go to memory and are never read
    again. No stack buffer is allocated inside the row loop itself."""
    private = []
    for alloc in [op.operation for op in block.operations]:
        if alloc.name != "memref.alloc" or len(alloc.operands) or ir.MemRefType(alloc.results[0].type).rank == 0:
            continue
        t = ir.MemRefType(alloc.results[0].type)
        if getattr(t.element_type, "width", 0) < 8:
            continue  # i1 and index buffers stay as they are
        row_bytes = byte_size(t) // max(t.shape[0], 1)
        slices = _row_slices_of(alloc, loop, row)
        if slices is not None and 0 < row_bytes <= MAX_PRIVATE_ROW_BYTES:
            private.append((alloc, slices))
    for alloc, slices in private:
        t = ir.MemRefType(alloc.results[0].type)
        row_type = ir.MemRefType.get([1] + list(t.shape[1:]), t.element_type)
        with ir.InsertionPoint(loop), alloc.location:
            row_buffer = memref.alloca(row_type, [], [], alignment=ROW_ALIGNMENT)
        for row_slice, views in slices:
            with ir.InsertionPoint(row_slice), row_slice.location:
                value = row_buffer
                for view in views:  # the same reshapes, on one row
                    value = _reapply_view(view, value)
                row_slice.results[0].replace_all_uses_with(memref.cast(row_slice.results[0].type, value))
            row_slice.erase()
        _erase_unused_chain(alloc)


# A private row buffer starts on a cache line: the stack only guarantees 16 bytes, and from
# such a start every other 32-byte vector access of the row spans two cache lines.
ROW_ALIGNMENT = 64

# A private row buffer lives on a worker thread's stack: keep it small.
MAX_PRIVATE_ROW_BYTES = 64 << 10


def _row_slices_of(alloc: ir.Operation, loop: ir.Operation, row: ir.Value):
    """[(row subview inside `loop`, [views from alloc to it])] when every use of the alloc is
    a row-keeping view outside the loop or a row subview (offset [%row, 0, ...]) inside it;
    else None."""
    found = []

    def walk(value, views):
        for use in value.uses:
            user = use.owner.operation
            inside = _is_inside(user, loop)
            if user.name == "memref.subview" and inside and _is_row_subview(user, row):
                found.append((user, views))
            elif user.name in ("memref.expand_shape", "memref.collapse_shape") and not inside and _keeps_rows(user):
                if not walk(user.results[0], views + [user]):
                    return False
            else:
                return False
        return True

    return found if walk(alloc.results[0], []) and found else None


def _is_inside(op: ir.Operation, loop: ir.Operation) -> bool:
    parent = op.parent
    while parent is not None:
        if parent == loop:
            return True
        parent = parent.parent
    return False


def _is_row_subview(op: ir.Operation, row: ir.Value) -> bool:
    """subview %v[%row, 0, ...] [1, full...] [1, ...] with %row the row loop's induction variable."""
    offsets = list(ir.DenseI64ArrayAttr(op.attributes["static_offsets"]))
    source = ir.MemRefType(op.operands[0].type)
    sizes = list(ir.DenseI64ArrayAttr(op.attributes["static_sizes"]))
    return (len(op.operands) == 2 and op.operands[1] == row and offsets[1:] == [0] * (len(offsets) - 1)
            and sizes == [1] + list(source.shape[1:]))


def _reapply_view(view: ir.Operation, value: ir.Value) -> ir.Value:
    """`view` (a row-keeping reshape) applied to a one-row buffer instead of the full one."""
    result = ir.MemRefType(view.results[0].type)
    one_row = ir.MemRefType.get([1] + list(result.shape[1:]), result.element_type)
    if view.name == "memref.expand_shape":
        return memref.expand_shape(one_row, value, view.attributes["reassociation"], [],
                                   [1] + list(result.shape[1:]))
    return memref.collapse_shape(one_row, value, view.attributes["reassociation"])


def _erase_unused_chain(op: ir.Operation) -> None:
    """Erases `op` and the views of it that nothing uses any more."""
    for result in op.results:
        for use in list(result.uses):
            _erase_unused_chain(use.owner.operation)
    if all(not list(r.uses) for r in op.results):
        op.erase()
