"""The elementwise epilogue a kernel applies to its tiles before storing them (XLA's output
fusion, on buffers): `match_epilogue` finds a kernel's consumer it can take, `apply_body`
runs the consumer's body on vectors. Used by the direct convolutions (direct_conv.py,
output [n, oh, ow, co]) and MLC's packed GEMM (blas.py, output [m, n]); each kernel stores
the result itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import arith, vector

from ..destination_style import segment_sizes
from .loops import block_ops


def _static_strides(value: ir.Value) -> list[int] | None:
    strides, _ = ir.MemRefType(value.type).get_strides_and_offset()
    return None if min(strides) < 0 else list(strides)


# After bufferization a convolution's or matmul's consumer (batch norm, bias, an activation,
# a residual add) is a linalg.generic reading the whole output back from memory, sometimes
# inside a loop mlc-row-fusion made. When that generic is the kernel's next one and only reads
# the output element by element, the kernel applies its body to each register tile before
# storing it and writes the generic's output instead: its own output never goes to memory.
TAG_ROW_FUSION = "mlc.row_fusion"  # row_fusion.TAG (row_fusion imports blas, which imports this module)
_PURE = ("arith.constant", "memref.view", "memref.subview", "memref.cast", "memref.collapse_shape",
         "memref.expand_shape", "memref.extract_strided_metadata", "memref.reinterpret_cast")
# Measurement switch: False leaves every epilogue as its own kernel.
FUSE_EPILOGUE = True


@dataclass
class Epilogue:
    """A kernel's elementwise consumer: per body argument (inputs) its kind and buffer: "acc"
    (the kernel's own value), "full" (the same [n, oh, ow, co] or [m, n] index), "channel" (a
    vector along the last dim, broadcast over the others), "scalar" (rank 0); `out` the
    buffer written, shaped like the kernel's output."""

    consumer: object
    block: object
    kinds: list
    buffers: list
    out: ir.Value
    replace: ir.Value | None = None  # the generic's output, whose later uses read `out` instead

    def finish(self) -> None:
        """Erase the consumer (the kernel wrote its output); later readers of its output read
        the kernel's buffer when it was redirected there."""
        if self.replace is not None:
            for use in list(self.replace.uses):
                if not _inside(_op(use.owner), self.consumer):
                    _op(use.owner).operands[use.operand_number] = self.out
        self.consumer.erase()


def _op(x):
    return x.operation if isinstance(x, ir.OpView) else x


def _owner_op(value: ir.Value):
    owner = value.owner
    return _op(owner) if isinstance(owner, (ir.OpView, ir.Operation)) else None


def _inside(op, ancestor) -> bool:
    while op is not None:
        if op == ancestor:
            return True
        op = op.parent
        if op is not None and op.name == "builtin.module":
            return False
    return False


def _static_sizes(op, name: str) -> list[int]:
    return list(ir.DenseI64ArrayAttr(op.attributes[name]))


def _map_kind(amap, shape: list[int], loops: list[int]) -> str | None:
    """How a generic over `loops` (the kernel's output: [n, oh, ow, co] or [m, n]) reads an
    operand of `shape`: its whole index ("full"), the last loop only ("channel"), nothing
    ("scalar")."""
    results = list(amap.results)
    if not results:
        return "scalar"
    dims = [e.position if isinstance(e, ir.AffineDimExpr) else None for e in results]
    if dims == list(range(len(loops))) and shape == loops:
        return "full"
    if dims == [len(loops) - 1] and shape == [loops[-1]]:
        return "channel"
    return None


def _body_ok(block, n_in: int) -> bool:
    """Only arith/math ops without regions on the inputs and outer scalars; the output's old
    value unused."""
    if len(list(block.arguments[n_in].uses)):
        return False
    for op in block.operations:
        name = op.operation.name
        if name == "linalg.yield":
            continue
        if not (name.startswith("arith.") or name.startswith("math.")) or len(op.operation.regions):
            return False
        if any(isinstance(v.type, (ir.ShapedType, ir.IndexType)) for v in op.operation.operands):
            return False
    return True


def _row_fused_generic(loop):
    """The one linalg.generic in a row-fusion loop holding nothing else (views and index
    arithmetic aside), with its operands' whole buffers: {subview value: source}."""
    if TAG_ROW_FUSION not in loop.attributes or loop.name not in ("scf.forall", "scf.for") or len(loop.results):
        return None
    rows = ir.IntegerAttr(loop.attributes[TAG_ROW_FUSION]).value
    kernels, slices, bad = [], {}, []

    def visit(op):
        name = op.name
        if op == loop or name in ("scf.for", "scf.yield", "scf.forall.in_parallel") or name.startswith("arith.") \
                or op.parent.name == "linalg.generic":  # (the generic's body: _body_ok checks it)
            return ir.WalkResult.ADVANCE
        if name == "memref.subview":
            source = op.operands[0]
            t = ir.MemRefType(source.type)
            offsets, sizes, strides = (_static_sizes(op, k) for k in ("static_offsets", "static_sizes",
                                                                       "static_strides"))
            src_op = _owner_op(source)
            if (t.has_static_shape and t.shape[0] == rows and offsets[1:] == [0] * (t.rank - 1)
                    and offsets[0] < 0 and sizes == [1] + list(t.shape[1:]) and strides == [1] * t.rank
                    and (src_op is None or not _inside(src_op, loop))):
                slices[op.results[0]] = source
            return ir.WalkResult.ADVANCE
        if name == "linalg.generic":
            kernels.append(op)
            return ir.WalkResult.ADVANCE
        bad.append(op)
        return ir.WalkResult.ADVANCE

    loop.walk(visit)
    if bad or len(kernels) != 1:
        return None
    return kernels[0], slices


def _view_range(value: ir.Value):
    """(root buffer, byte range or None for all of it) of a view chain."""
    byte_range = None
    while True:
        op = _owner_op(value)
        if op is None or op.name not in ("memref.subview", "memref.cast", "memref.view", "memref.collapse_shape",
                                         "memref.expand_shape", "memref.reinterpret_cast"):
            return value, byte_range
        if op.name == "memref.view" and byte_range is None:
            offset = _owner_op(op.operands[1])
            t = ir.MemRefType(value.type)
            if offset is not None and offset.name == "arith.constant" and t.has_static_shape:
                start = ir.IntegerAttr(offset.attributes["value"]).value
                size = 1
                for d in t.shape:
                    size *= d
                byte_range = (start, start + size * max(1, t.element_type.width // 8))
        value = op.operands[0]


def _may_alias(a: ir.Value, b: ir.Value) -> bool:
    ra, ba = _view_range(a)
    rb, bb = _view_range(b)
    if ra != rb:
        return False
    return ba is None or bb is None or (ba[0] < bb[1] and bb[0] < ba[1])


def _ignorable_use(user: ir.Operation, allowed) -> bool:
    """A use inside one of the allowed ops, a dealloc, or a view nothing uses."""
    return any(_inside(user, a) for a in allowed) or user.name == "memref.dealloc" or (
        user.name in _PURE and all(not len(list(r.uses)) for r in user.results))


def _used_only_by(value: ir.Value, allowed) -> bool:
    """Nothing but the allowed ops (and deallocs, views nothing uses) uses `value` at all."""
    return all(_ignorable_use(_op(u.owner), allowed) for u in value.uses)


def _free_while_held(value: ir.Value, allowed, ops: list, consumer) -> bool:
    """Nothing but the allowed ops reads `value` while it holds the kernel's output: in the
    block's `ops`, other uses may be in ops before the kernel's (an earlier temporary the
    scratch buffer gave the same view) or after `consumer`, once the first op there touching
    `value` overwrites it whole (a zero fill: the next temporary in those bytes) or frees it."""
    after = ops[ops.index(consumer) + 1:]
    first_after = next((op for op in after if any(_inside(_op(u.owner), op) for u in value.uses)), None)
    overwritten = first_after is not None and first_after.name in ("linalg.fill", "memref.dealloc") and \
        first_after.operands[len(first_after.operands) - 1] == value
    start = min(ops.index(a) for a in allowed if a in ops)
    for use in value.uses:
        user = _op(use.owner)
        if _ignorable_use(user, allowed):
            continue
        top = next((op for op in ops if _inside(user, op)), None)
        if top is not None and ops.index(top) < start:
            continue  # before the kernel: an earlier value in the same bytes
        if top is not None and top in after and overwritten:
            continue  # after the consumer, once the buffer has been overwritten or freed
        return False
    return True


def _scratch_view(value: ir.Value) -> bool:
    op = _owner_op(value)
    return op is not None and op.name == "memref.view" and _view_range(value)[1] is not None


def _redirect_ok(kernel, consumer, ob: ir.Value, out: ir.Value, ops: list) -> bool:
    """Whether the kernel may write the epilogue into its own output buffer `ob` and later
    readers of `out` read `ob`: both views of the scratch buffer with the same type, no other
    view of ob's bytes used after the consumer, every use of `out` outside the consumer after it."""
    if not (_scratch_view(ob) and _scratch_view(out)) or ob.type != out.type:
        return False
    after = ops[ops.index(consumer) + 1:]
    for use in out.uses:
        user = _op(use.owner)
        if not (_inside(user, consumer) or any(_inside(user, a) for a in after)):
            return False
    root = _view_range(ob)[0]
    function = kernel.parent
    while function is not None and function.name != "func.func":
        function = function.parent
    clash = []

    def visit(op):
        if op.name == "memref.view" and op.results[0] != ob and op.operands[0] == root \
                and _may_alias(op.results[0], ob):
            for use in op.results[0].uses:
                user = _op(use.owner)
                if any(_inside(user, a) for a in after):
                    clash.append(op)
        return ir.WalkResult.ADVANCE

    if function is None:
        return False
    function.walk(visit)
    return not clash


def match_epilogue(kernel, fills=(), reads=None) -> Epilogue | None:
    """The elementwise consumer of `kernel`'s output (a conv or a matmul on buffers: two
    inputs, then the output) that its emitted code can apply (module comment above), or
    None. `reads`: the buffers that code reads (default the two inputs: a conv's input and
    weights, a matmul's A and B; the unpadded source instead of the input when a conv pads)."""
    if not FUSE_EPILOGUE:
        return None
    xb, wb, ob = (kernel.operands[i] for i in range(3))
    reads = list(reads) if reads is not None else [xb, wb]
    loops = list(ir.MemRefType(ob.type).shape)
    if len(loops) not in (2, 4):
        return None
    ops = block_ops(kernel)
    consumer = None
    for other in ops[ops.index(kernel) + 1:]:
        if other.name not in _PURE:
            consumer = other
            break
    if consumer is None:
        return None
    slices = {}
    if consumer.name == "linalg.generic":
        generic = consumer
    else:
        found = _row_fused_generic(consumer)
        if found is None:
            return None
        generic, slices = found
    if len(generic.results):
        return None
    n_in, n_out = segment_sizes(generic)
    iterators = [str(a) for a in generic.attributes["iterator_types"]]
    if n_out != 1 or len(iterators) != len(loops) or any("parallel" not in it for it in iterators):
        return None
    maps = [ir.AffineMapAttr(a).value for a in generic.attributes["indexing_maps"]]
    block = generic.regions[0].blocks[0]
    if not _body_ok(block, n_in):
        return None
    sliced_loops = [1] + loops[1:] if slices else loops
    kinds, buffers = [], []
    for i in range(n_in + 1):
        value = generic.operands[i]
        t = value.type
        if not isinstance(t, ir.MemRefType) or not t.has_static_shape:
            return None
        kind = _map_kind(maps[i], list(t.shape), sliced_loops)
        if kind is None:
            return None
        if slices:
            if kind == "full":
                if value not in slices:
                    return None
                value = slices[value]
            elif _owner_op(value) is not None and _inside(_owner_op(value), consumer):
                return None
        if kind == "full" and value == ob:
            kind = "acc"
        if i == n_in:
            if kind != "full":
                return None
            out = value
        else:
            kinds.append(kind)
            buffers.append(value)
    if kinds.count("acc") != 1 or _static_strides(out) is None:
        return None
    # The body's value types are the buffers' (no bool-as-byte or other storage conversion).
    yielded = list(block.operations)[-1].operands[0]
    if yielded.type != ir.MemRefType(out.type).element_type or any(
            block.arguments[i].type != ir.MemRefType(b.type).element_type for i, b in enumerate(buffers)):
        return None
    if any(k == "full" and (_static_strides(b) is None or _static_strides(b)[-1] != 1) for k, b in zip(kinds, buffers)):
        return None
    if any(k == "channel" and _static_strides(b) != [1] for k, b in zip(kinds, buffers)):
        return None
    if _static_strides(out)[-1] != 1:
        return None
    # Nothing else reads the kernel's output (its zero fills aside).
    if not _free_while_held(ob, [kernel, consumer, *fills], ops, consumer):
        return None
    root, _ = _view_range(ob)
    if _owner_op(root) is None and not _scratch_view(ob):
        return None  # a function argument: the caller reads the kernel's output itself
    replace = None
    if any(_may_alias(out, r) for r in reads) or any(
            _may_alias(out, b) and not (k == "full" and _view_range(b) == _view_range(out))
            for k, b in zip(kinds, buffers) if k != "acc"):
        # The consumer's output takes the bytes the kernel reads (the scratch buffer's reuse
        # after the kernel): write into the kernel's own buffer instead, when it stays free.
        if not _used_only_by(ob, [kernel, consumer, *fills]) or not _redirect_ok(kernel, consumer, ob, out, ops):
            return None  # (ob then holds the consumer's output: no later use of it may be another value's)
        replace, out = out, ob
    # The code is emitted where `kernel` is: views the consumer's buffers come from that
    # were made between the two (pure ops) move before it.
    ahead = ops[:ops.index(kernel)]
    for value in [out, *buffers]:
        _hoist(value, kernel, ahead)
    return Epilogue(consumer, block, kinds, buffers, out, replace)


def _hoist(value: ir.Value, kernel, ahead: list) -> None:
    """Moves the pure op defining `value` (and, first, those defining its operands) before
    `kernel` when it is in the kernel's block after it."""
    op = _owner_op(value)
    if op is None or op in ahead or op.parent != kernel.parent or op.name not in _PURE:
        return
    for operand in op.operands:
        _hoist(operand, kernel, ahead)
    op.move_before(kernel)
    ahead.append(op)


def apply_body(block, args: list, lanes: int) -> ir.Value:
    """The generic's scalar body on vectors of `lanes` (arith/math ops rebuilt on vector types,
    outer scalars broadcast)."""
    mapped = {block.arguments[i]: v for i, v in enumerate(args)}
    for op in block.operations:
        op = op.operation
        if op.name == "linalg.yield":
            return mapped[op.operands[0]] if op.operands[0] in mapped else \
                vector.broadcast(ir.VectorType.get([lanes], op.operands[0].type), op.operands[0])
        if op.name == "arith.constant":
            r = op.results[0]
            vt = ir.VectorType.get([lanes], r.type)
            mapped[r] = arith.constant(vt, ir.DenseElementsAttr.get_splat(vt, op.attributes["value"]))
            continue
        operands = []
        for v in op.operands:
            if v not in mapped:
                mapped[v] = vector.broadcast(ir.VectorType.get([lanes], v.type), v)
            operands.append(mapped[v])
        attrs = op.attributes
        new = ir.Operation.create(op.name, results=[ir.VectorType.get([lanes], r.type) for r in op.results],
                                  operands=operands, attributes={a: attrs[a] for a in attrs})
        for r, nr in zip(op.results, new.results):
            mapped[r] = nr
    raise ValueError("generic body without linalg.yield")


