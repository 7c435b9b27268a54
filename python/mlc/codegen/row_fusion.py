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

The fused loop is parallel (rows are independent), so mlc-parallel-outline shares it between
threads; with one thread it is an scf.for.

Rule, checked per kernel (linalg.generic, fill or copy on buffers): its first loop is
parallel over R rows, every operand it writes and every operand an earlier kernel of the
group wrote is indexed by that loop as its dimension 0 (so row r reads only row r of its
producers), other inputs may be read whole (a broadcast bias); its body is arith/math ops
and linalg.index of loops after the row loops (argmax's position within the row: the same
on a row subview). Row r of an operand must be
row r of the buffer its views start from: a write through a view that drops or moves the
buffer's dimension 0 (a strided insert into a padded buffer) counts as a write of the
whole buffer, so no kernel of the group reads that buffer after it. View ops between kernels
(expand_shape, collapse_shape, subview keeping dimension 0) and allocs move before the loop. A run of
two or more such kernels with the same R, and at least MIN_ROWS rows, is fused, when a row
is more than one element (some kernel has an inner loop): a run of 1-D kernels is left as
separate vector loops, since on one-element rows every kernel would be scalar code and the
whole run one straight-line loop body (LLVM's register allocator and two-address pass are
superlinear in a block's size: a 1,600-op 1-D chain took 6 s of LLVM time, 3,200 ops 19 s). Run it
before mlc-preallocate-temporaries: the loop is then one op for the live ranges, so no two
temporaries of the group share bytes across rows.
Private row buffers start on a cache line.

Rows may span several leading dimensions: when a run holds a reduction whose rows over
dimension 0 are bigger than a private row buffer may be (MAX_PRIVATE_ROW_BYTES), such as
softmax over the last axis of (8, 512, 512), the same rule is tried with the first two
(three, ...) loops as the row index, and the loop runs over 8 x 512 rows of 512 elements.

Besides a function's top level, the body of each mlc-chain-tiling loop (tagged
`mlc.chain_tiling`) is fused the same way: its kernels work on one block [1, rows, n], so
the rows are tried over the first two dims too, and the row loop stays on the thread that
runs the block.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from mlir import ir
from mlir.dialects import arith, memref, scf

from ..destination_style import num_inputs
from ..dialects.hlo.types import byte_size
from ..transforms.pass_base import Pass
from .blas import blas_takes
from .chain_tiling import TAG as CHAIN_TAG
from .contraction import match_contraction
from .loops import delinearize, inside_parallel_loop, op_count, uses_dim
from .parallel import body_cost, worth_parallel
from .target import num_threads
from .views import view_chain

TAG = "mlc.row_fusion"
MIN_ROWS = 2
# A group's kernels have at most this many ops (bodies included); the next kernel starts a
# new group. The fused loop becomes one function for LLVM, whose code generation is
# superlinear in a function's size, and it takes every buffer of the group as an argument:
# an SGD step over 100 independent 64 x 64 parameters (4 ops each) in one row loop compiled
# in 4.9 s (100 kernels in one 11,700-line LLVM function, called with 2,100 arguments), in
# groups of 64 ops in 1.1 s, and 200 parameters in 2.1 s; the kernels ran as fast (0.086
# against 0.092 ms). The groups row fusion is for (softmax, norms, cross-entropy) have 10-40.
MAX_GROUP_OPS = 64
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


def _initializes_matmul(buffer: ir.Value) -> bool:
    """Whether `buffer` is the accumulator of a matmul left whole. Its fill stays where it
    is, right before the matmul: mlc-blas then drops it (beta = 0, the packed kernel
    overwrites C) instead of writing C's zeros row by row here for the GEMM to read back
    (the MLP block's 512 x 2048 hidden layer: 4 MB written, then read, for nothing)."""
    for use in buffer.uses:
        user = use.owner.operation if hasattr(use.owner, "operation") else use.owner
        if user.name == "linalg.generic" and user.operands[len(user.operands) - 1] == buffer and _left_whole(user):
            return True
    return False


def _row_maps(op, depth: int = 1) -> list[tuple[ir.Value, bool, object]] | None:
    """[(operand, is_output, placement)] of a kernel whose first `depth` loops are parallel
    and index rows, or None when the kernel is not row-local at this depth. placement is
    True for a row-indexed operand (its first `depth` dimensions are those loops, in order,
    and no other of its dimensions uses them), False for one read whole (it uses none of
    them), or, for an input whose leading dimensions are indexed by single row loops (a
    causal mask (S, S) read as (d2, d3) by rows (b, h, s)), the row loop per dimension (-1:
    none): row r then reads that contiguous slice of it. (A row loop indexing a later
    dimension, w[k, n] read as (d1, d0), would read a strided column per row: not fused.)"""
    operands = list(op.operands)
    if op.name == "linalg.copy":  # copy(in, out): row r of in to row r of out
        if any(not isinstance(v.type, ir.MemRefType) or v.type.rank < depth for v in operands):
            return None
        return [(operands[0], False, True), (operands[1], True, True)]
    if op.name == "linalg.fill":  # fill(value, out): out is written row by row
        out = operands[1]
        if not isinstance(out.type, ir.MemRefType) or out.type.rank < depth or _initializes_matmul(out):
            return None
        return [(operands[0], False, False), (out, True, True)]
    iterators = [str(it) for it in op.attributes["iterator_types"]]
    if len(iterators) < depth or any("parallel" not in it for it in iterators[:depth]) or _left_whole(op):
        return None
    if not _body_is_position_free(op, depth):
        return None
    n_in = num_inputs(op)
    result = []
    for i, (value, attr) in enumerate(zip(operands, op.attributes["indexing_maps"])):
        results = list(ir.AffineMapAttr(attr).value.results)
        placement = _placement(results, depth)
        if placement is None or (i >= n_in and placement is not True):
            return None  # d0 + d1, or an output not written row by row
        result.append((value, i >= n_in, placement))
    return result


def _placement(results: list, depth: int):
    """An operand's placement (see _row_maps) from its indexing map's results, or None when
    a dimension mixes a row loop with others (d0 + d1)."""
    rows_used = [any(uses_dim(e, k) for k in range(depth)) for e in results]
    if not any(rows_used):
        return False
    if (len(results) >= depth and all(isinstance(e, ir.AffineDimExpr) and e.position == k
                                      for k, e in enumerate(results[:depth]))
            and not any(rows_used[depth:])):
        return True
    placement = []
    for e, used in zip(results, rows_used):
        if not used:
            placement.append(-1)
        elif isinstance(e, ir.AffineDimExpr) and e.position not in placement and -1 not in placement:
            placement.append(e.position)
        else:
            return None  # mixed, repeated, or after a whole dimension: a strided slice (w[:, n])
    return tuple(placement)


def _body_is_position_free(op, depth: int) -> bool:
    """A body of arith/math ops, and linalg.index of loops after the first `depth` (the
    row loops): it computes from its operands' elements and its place within a row, so it
    means the same on a row subview (argmax's first position of the maximum). (linalg.index
    of a row loop would count from the subview's start, and a memref.load in the body, as
    in a gather, addresses the whole buffer.)"""
    for inner in op.regions[0].blocks[0].operations:
        name = inner.operation.name
        if name == "linalg.index":
            if ir.IntegerAttr(inner.operation.attributes["dim"]).value < depth:
                return False
        elif not (name.startswith(("arith.", "math.")) or name == "linalg.yield"):
            return False
    return True


def _loop_count(op) -> int:
    """How many loops a kernel has (a fill or copy: its output's rank)."""
    if op.name == "linalg.generic":
        return len(op.attributes["iterator_types"])
    return ir.MemRefType(op.operands[-1].type).rank


def _rows(entries, depth: int = 1) -> tuple[int, ...] | None:
    """The row shape (the first `depth` dimensions) all row-indexed operands share."""
    rows = {tuple(ir.MemRefType(v.type).shape[:depth]) for v, _, placed in entries if placed is True}
    return rows.pop() if len(rows) == 1 else None


def _keeps_rows(op, depth: int = 1) -> bool:
    """A view whose row r is its source's row r: a reshape that leaves the first `depth`
    dimensions alone, or a subview that takes all of them."""
    if op.name == "memref.subview":
        source = ir.MemRefType(op.operands[0].type)
        offsets = list(ir.DenseI64ArrayAttr(op.attributes["static_offsets"]))
        sizes = list(ir.DenseI64ArrayAttr(op.attributes["static_sizes"]))
        strides = list(ir.DenseI64ArrayAttr(op.attributes["static_strides"]))
        return (source.rank >= depth and offsets[:depth] == [0] * depth
                and sizes[:depth] == source.shape[:depth] and strides[:depth] == [1] * depth
                and ir.MemRefType(op.results[0].type).shape[:depth] == source.shape[:depth])
    groups = [[ir.IntegerAttr(d).value for d in g] for g in op.attributes["reassociation"]]
    return len(groups) >= depth and groups[:depth] == [[k] for k in range(depth)]


@dataclass
class _Group:
    rows: tuple  # the row shape: the first `depth` dimensions of every row-indexed operand
    kernels: list
    span: list  # every op from the first kernel to the last, in block order
    depth: int = 1
    ops: int = 0  # the kernels' ops, their bodies' included
    # Buffers (view roots) the group's kernels touch: by row (row r of the kernel is row r
    # of the buffer) or whole (read whole, or through a view whose rows are not the buffer's).
    written_rows: set = field(default_factory=set)
    written_whole: set = field(default_factory=set)
    read_rows: set = field(default_factory=set)
    read_whole: set = field(default_factory=set)

    @property
    def count(self) -> int:
        return math.prod(self.rows)

    def conflicts(self, accesses) -> bool:
        """Row r of the fused loop would need other rows of what the group touches: a whole
        read of a buffer the group writes, or a write that is not row r's to a buffer the
        group reads or writes (or a row write to one it reads whole or writes whole)."""
        for root, out, by_row in accesses:
            if not out and (root in self.written_whole or (not by_row and root in self.written_rows)):
                return True
            if out and (root in self.read_whole or root in self.written_whole or (
                    not by_row and (root in self.read_rows or root in self.written_rows))):
                return True
        return False

    def add(self, op, accesses, ops: int) -> None:
        self.kernels.append(op)
        self.span.append(op)
        self.ops += ops
        for root, out, by_row in accesses:
            (self.written_rows if out and by_row else self.written_whole if out
             else self.read_rows if by_row else self.read_whole).add(root)


def _accesses(entries, depth: int) -> list:
    """[(buffer root, written, by row)] of a kernel's memref operands. By row: row r of the
    operand is row r of its buffer, every view on the way keeping the first `depth`
    dimensions (a strided insert's view %pad[0, 2, 0] [1, 3, 2] [2, 1, 2] drops the
    buffer's dim 0: its rows are the buffer's dim 1, so it counts as a whole access)."""
    accesses = []
    for v, out, placed in entries:
        if isinstance(v.type, ir.MemRefType):
            chain, root = view_chain(v, _VIEWS)
            accesses.append((root, out, placed is True and all(_keeps_rows(op, depth) for op in chain)))
    return accesses


def _groups(ops, depth: int = 1) -> list[_Group]:
    """The runs of row-local kernels among `ops` (a block's operations, in order) whose rows
    are their first `depth` dimensions."""
    groups, current, pending = [], None, []

    def close():
        nonlocal current
        if (current is not None and len(current.kernels) >= 2 and current.count >= MIN_ROWS
                and any(_loop_count(k) > depth for k in current.kernels)):
            groups.append(current)
        current = None

    for op in ops:
        op = op.operation
        if op.name in _MOVABLE:
            if op.name in _VIEWS and not _keeps_rows(op, depth):
                close()
            elif current is not None:
                pending.append(op)
            continue
        entries = _row_maps(op, depth) if op.name in _KERNELS else None
        rows = _rows(entries, depth) if entries else None
        if entries is None or rows is None:
            close()
            continue
        accesses = _accesses(entries, depth)
        size = op_count(op)
        if (current is None or rows != current.rows or current.conflicts(accesses)
                or current.ops + size > MAX_GROUP_OPS):
            close()
            current = _Group(rows, [], [], depth)
        else:
            current.span.extend(pending)
        pending = []
        current.add(op, accesses, size)
    close()
    return groups


def _row_bytes(group: _Group) -> int:
    """The bytes of one row of the group's largest operand."""
    return max(byte_size(ir.MemRefType(v.type)) for k in group.kernels for v in k.operands
               if isinstance(v.type, ir.MemRefType)) // group.count


def _deepened(group: _Group) -> _Group:
    """A group with a reduction (softmax, layer_norm over the last axis of a rank-3 tensor)
    whose rows are too big for a private row buffer: the same kernels with rows over more
    leading dimensions, (b, s) instead of b, when they are row-local there too. The
    shallowest such depth whose rows fit, else the deepest; the group unchanged if none."""
    if _row_bytes(group) <= MAX_PRIVATE_ROW_BYTES or not any(
            k.name == "linalg.generic" and any("reduction" in str(it) for it in k.attributes["iterator_types"])
            for k in group.kernels):
        return group
    best = group
    for depth in range(2, max(_loop_count(k) for k in group.kernels)):
        found = _groups(group.span, depth)
        if len(found) != 1 or found[0].kernels != group.kernels:
            break
        best = found[0]
        if _row_bytes(best) <= MAX_PRIVATE_ROW_BYTES:
            break
    return best


def _elements(value: ir.Value) -> int:
    return math.prod(ir.MemRefType(value.type).shape)


def _row_slice(value: ir.Value, row: list[ir.Value]) -> ir.Value:
    """value[row..., :, ...]: the row's subview, its leading dimensions of size one."""
    t = ir.MemRefType(value.type)
    depth = len(row)
    # The row view keeps the buffer's strides at a dynamic offset; stated explicitly, since
    # the builder cannot infer it when the buffer's own strides are dynamic (a buffer that
    # bufferization gave a fully dynamic layout, e.g. an scf.if result).
    strides, _ = t.get_strides_and_offset()
    dynamic = ir.ShapedType.get_dynamic_stride_or_offset()
    layout = ir.StridedLayoutAttr.get(dynamic, strides)
    shape = [1] * depth + list(t.shape[depth:])
    view = ir.MemRefType.get(shape, t.element_type, layout, t.memory_space)
    return memref.subview(value, row + [0] * (t.rank - depth), shape, [1] * t.rank, result_type=view)


def _placed_slice(value: ir.Value, row: list[ir.Value], placement: tuple) -> ir.Value:
    """The slice of an input row `row` reads: at each dimension a row loop indexes, that
    loop's index (size one); the other dimensions whole."""
    t = ir.MemRefType(value.type)
    strides, _ = t.get_strides_and_offset()
    layout = ir.StridedLayoutAttr.get(ir.ShapedType.get_dynamic_stride_or_offset(), strides)
    shape = [1 if k >= 0 else size for k, size in zip(placement, t.shape)]
    view = ir.MemRefType.get(shape, t.element_type, layout, t.memory_space)
    return memref.subview(value, [row[k] if k >= 0 else 0 for k in placement], shape, [1] * t.rank,
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
                top = list(func.regions[0].blocks[0].operations)
                # The bodies of parallel loops over blocks of rows (mlc-chain-tiling's): their
                # kernels work on one block, [1, rows, n], whose rows are the second dim.
                # (Found first: fusing erases ops of `top`.)
                chains = [op for op in top if op.operation.name == "scf.forall" and CHAIN_TAG in op.attributes]
                for group in _groups(top):
                    self._fuse(_deepened(group))
                for loop in chains:
                    body = list(loop.regions[0].blocks[0].operations)
                    for group in _groups(body) or _groups(body, 2):
                        self._fuse(_deepened(group))

    def _fuse(self, group: _Group) -> None:
        first = group.kernels[0]
        kernels = set(group.kernels)
        for op in group.span:  # views and allocs between the kernels: before the loop
            if op not in kernels:
                op.move_before(first)
        largest = max(_elements(v) for k in group.kernels for v in k.operands
                      if isinstance(v.type, ir.MemRefType))
        threads = self.threads_or_default()
        rows = group.count
        parallel = (threads > 1 and not inside_parallel_loop(first)
                    and worth_parallel(["parallel"], [rows, largest // rows], body_cost(*group.kernels)))
        index = ir.IndexType.get()
        tag = ir.IntegerAttr.get(ir.IntegerType.get_signless(64), rows)
        with ir.InsertionPoint(first), first.location:
            if parallel:  # chunks of rows shared between threads by mlc-parallel-outline
                chunk = -(-rows // (CHUNKS_PER_THREAD * threads))
                outer = scf.ForallOp([0], [-(-rows // chunk)], [1])
                outer.attributes[TAG] = tag
                with ir.InsertionPoint(outer.regions[0].blocks[0]):
                    chunk_end = scf.InParallelOp()
                with ir.InsertionPoint(chunk_end):
                    size = arith.constant(index, chunk)
                    lower = arith.muli(outer.regions[0].blocks[0].arguments[0], size)
                    upper = arith.minsi(arith.addi(lower, size), arith.constant(index, rows))
                    loop = scf.ForOp(lower, upper, arith.constant(index, 1))
            else:
                loop = scf.ForOp(arith.constant(index, 0), arith.constant(index, rows),
                                 arith.constant(index, 1))
                loop.attributes[TAG] = tag
        body = loop.regions[0].blocks[0]
        with ir.InsertionPoint(body), first.location:
            row = delinearize(body.arguments[0], group.rows)
            terminator = scf.YieldOp([])
        for kernel in group.kernels:
            kernel.move_before(terminator.operation)
            with ir.InsertionPoint(kernel), kernel.location:
                for i, (value, _, placed) in enumerate(_row_maps(kernel, group.depth)):
                    if placed is True:
                        kernel.operands[i] = _row_slice(value, row)
                    elif placed:
                        kernel.operands[i] = _placed_slice(value, row, placed)
        _privatize(_block_of(outer if parallel else loop), loop.operation, row)


# A parallel row loop runs as this many chunks per thread (a slow thread is not waited on
# for long); each chunk is one task with its own private row buffers.
CHUNKS_PER_THREAD = 4


def _block_of(op) -> ir.Block:
    """The block holding `op` (its parent's only block: function bodies have one)."""
    return op.operation.parent.regions[0].blocks[0]


def _privatize(block: ir.Block, loop: ir.Operation, row: list[ir.Value]) -> None:
    """A temporary only the loop uses, row by row, shrinks to one row: a stack buffer
    allocated just before the row loop (once per thread's chunk, or once per call), reused
    by every row, instead of a full-size buffer whose rows go to memory and are never read
    again. No stack buffer is allocated inside the row loop itself."""
    depth = len(row)
    private = []
    for alloc in [op.operation for op in block.operations]:
        if alloc.name != "memref.alloc" or len(alloc.operands) or ir.MemRefType(alloc.results[0].type).rank < depth:
            continue
        t = ir.MemRefType(alloc.results[0].type)
        if getattr(t.element_type, "width", 0) < 8:
            continue  # i1 and index buffers stay as they are
        row_bytes = byte_size(t) // max(math.prod(t.shape[:depth]), 1)
        slices = _row_slices_of(alloc, loop, row)
        if slices is not None and 0 < row_bytes <= MAX_PRIVATE_ROW_BYTES:
            private.append((alloc, slices))
    for alloc, slices in private:
        t = ir.MemRefType(alloc.results[0].type)
        row_type = ir.MemRefType.get([1] * depth + list(t.shape[depth:]), t.element_type)
        with ir.InsertionPoint(loop), alloc.location:
            row_buffer = memref.alloca(row_type, [], [], alignment=ROW_ALIGNMENT)
        for row_slice, views in slices:
            with ir.InsertionPoint(row_slice), row_slice.location:
                value = row_buffer
                for view in views:  # the same reshapes, on one row
                    value = _reapply_view(view, value, depth)
                row_slice.results[0].replace_all_uses_with(_as_row_view(value, row_slice.results[0].type))
            row_slice.erase()
        _erase_unused_chain(alloc)


def _as_row_view(buffer: ir.Value, view: ir.MemRefType) -> ir.Value:
    """The private row `buffer` as the row subview's type. Its strides are the full
    buffer's: for one leading row dimension they match the row buffer's own (a
    memref.cast); for more (rows (b, s) of a rank-3 buffer: strides [S * N, N, 1] against
    the row buffer's [N, N, 1]) only in the dimensions longer than one, which are the ones
    that address anything, so the buffer is reinterpreted with them."""
    source = ir.MemRefType(buffer.type)
    if source.get_strides_and_offset()[0] == view.get_strides_and_offset()[0]:
        return memref.cast(view, buffer)
    strides, _ = view.get_strides_and_offset()
    zero = arith.constant(ir.IndexType.get(), 0)
    return memref.reinterpret_cast(view, buffer, [zero], [], [],
                                   [ir.ShapedType.get_dynamic_stride_or_offset()], list(view.shape), strides)


# A private row buffer starts on a cache line: the stack only guarantees 16 bytes, and from
# such a start every other 32-byte vector access of the row spans two cache lines.
ROW_ALIGNMENT = 64

# A private row buffer lives on a worker thread's stack: keep it small.
MAX_PRIVATE_ROW_BYTES = 64 << 10


def _row_slices_of(alloc: ir.Operation, loop: ir.Operation, row: list[ir.Value]):
    """[(row subview inside `loop`, [views from alloc to it])] when every use of the alloc is
    a row-keeping view outside the loop or a row subview (offset [%row..., 0, ...]) inside it;
    else None."""
    found = []

    def walk(value, views):
        for use in value.uses:
            user = use.owner.operation
            inside = _is_inside(user, loop)
            if user.name == "memref.subview" and inside and _is_row_subview(user, row):
                found.append((user, views))
            elif (user.name in ("memref.expand_shape", "memref.collapse_shape") and not inside
                  and _keeps_rows(user, len(row))):
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


def _is_row_subview(op: ir.Operation, row: list[ir.Value]) -> bool:
    """subview %v[%row..., 0, ...] [1..., full...] [1, ...] with %row the row loop's indices."""
    depth = len(row)
    offsets = list(ir.DenseI64ArrayAttr(op.attributes["static_offsets"]))
    source = ir.MemRefType(op.operands[0].type)
    sizes = list(ir.DenseI64ArrayAttr(op.attributes["static_sizes"]))
    return (len(op.operands) == 1 + depth and list(op.operands)[1:] == row
            and offsets[depth:] == [0] * (len(offsets) - depth)
            and sizes == [1] * depth + list(source.shape[depth:]))


def _reapply_view(view: ir.Operation, value: ir.Value, depth: int) -> ir.Value:
    """`view` (a row-keeping reshape) applied to a one-row buffer instead of the full one."""
    result = ir.MemRefType(view.results[0].type)
    one_row = ir.MemRefType.get([1] * depth + list(result.shape[depth:]), result.element_type)
    if view.name == "memref.expand_shape":
        return memref.expand_shape(one_row, value, view.attributes["reassociation"], [],
                                   [1] * depth + list(result.shape[depth:]))
    return memref.collapse_shape(one_row, value, view.attributes["reassociation"])


def _erase_unused_chain(op: ir.Operation) -> None:
    """Erases `op` and the views of it that nothing uses any more."""
    for result in op.results:
        for use in list(result.uses):
            _erase_unused_chain(use.owner.operation)
    if all(not list(r.uses) for r in op.results):
        op.erase()
