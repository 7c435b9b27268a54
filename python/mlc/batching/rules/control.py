"""Control flow: scf.if (lax.cond), scf.while (while_loop, fori_loop, scan),
scf.index_switch (StableHLO's case), the scalars they branch on, and func.call.

    if p then A else B, p unbatched   -> if p then A[b] else B[b] (a result batched in
                                         either branch is batched in both)
    if p[b] then A else B             -> select(p, A[b], B[b]) (both branches run, as JAX)
    while c(x) do x = B(x), c unbatched -> the same loop over the carries that are batched
                                         (a fixed point: a carry the body batches is batched)
    while c(x)[b] do B                -> while any(c(x)) do x = select(c(x), B(x), x), every
                                         carry batched (the predicate rides along as a carry)
    switch i {A_k}, i unbatched       -> switch i {A_k[b]}
    switch i[b] {A_k}                 -> select(i == k, A_k[b], ...) from the default branch
    tensor.extract(t[b]) (0-d t)      -> t itself: a batched scalar is its tensor<B x T>
    arith.index_cast(s[b])            -> s (the integers a batched switch compares)
    call @f(x[b])                     -> @f's body batched inline

Which results are batched is decided before a region is rebuilt (the region's result types
depend on it) by `_batched_after`: a value is batched if any value it reads is, an
over-approximation the rules then match by broadcasting.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import scf, tensor

from ...autodiff.regions import block_ops, free_values
from ...dialects import hlo
from ..errors import BatchingError
from ..registry import Arg, batch_rule, unbatched
from ..values import batched_type, materialize, scalar_constant, shape


def _batched_after(block: ir.Block, walker, arg_flags) -> callable:
    """is_batched(value) for the values of `block` when its arguments are batched as
    `arg_flags` and outside values as `walker` says (any batched input batches an op)."""
    marked = {a for a, f in zip(block.arguments, arg_flags) if f}

    def is_batched(v):
        return v in marked or walker.get(v).batched
    for op in block.operations:
        op = op.operation
        reads = list(op.operands) + (free_values(op.regions) if len(op.regions) else [])
        if any(is_batched(v) for v in reads):
            marked.update(op.results)
    return is_batched


def _flags(block: ir.Block, walker, arg_flags) -> list[bool]:
    is_batched = _batched_after(block, walker, arg_flags)
    _, terminator = block_ops(block)
    return [is_batched(v) for v in terminator.operands]


def _walk_block(walker, block: ir.Block, args: list[Arg]) -> list[Arg]:
    """`block`'s ops batched at the insertion point (unbatched ones copied), its arguments
    bound to `args`; the Args of its terminator's operands."""
    child = walker.child(clone=True)
    for old, arg in zip(block.arguments, args):
        child.values[old] = arg
    ops, terminator = block_ops(block)
    child.run(ops)
    return [child.get(v) for v in terminator.operands]


def _as(arg: Arg, want_batched: bool, size: int) -> ir.Value:
    return materialize(arg, size) if want_batched else arg.value


def _type(t: ir.Type, is_batched: bool, size: int) -> ir.Type:
    return batched_type(t, size) if is_batched else t


def _scalar_tensor(arg: Arg, size: int) -> ir.Value:
    """A predicate or index scalar as its tensor<B x T> form (an unbatched one broadcast)."""
    if arg.batched:
        return arg.value
    t = tensor.from_elements(ir.RankedTensorType.get([], arg.value.type), [arg.value])
    return hlo.broadcast_in_dim(t, [size], [])


def _select(pred_b: ir.Value, on_true: ir.Value, on_false: ir.Value) -> ir.Value:
    """Per-example select: pred_b is tensor<B x i1>, the values [B, ...]."""
    if shape(on_true) != shape(pred_b):
        pred_b = hlo.broadcast_in_dim(pred_b, list(shape(on_true)), [0])
    return hlo.select(pred_b, on_true, on_false)


# --- scalars --------------------------------------------------------------------------------


@batch_rule("tensor.extract")
def extract(ctx, args):
    """tensor.extract(t[b]) of a 0-d t -> t: the batched scalar is the tensor<B x T>."""
    if len(args) != 1:
        raise BatchingError("vmap of tensor.extract at a batched index is not implemented",
                            ctx.op.location)
    return [args[0].value]


@batch_rule("arith.index_cast")
def index_cast(ctx, args):
    """arith.index_cast(s[b]) -> s: a batched switch index stays the integers it compares."""
    return [args[0].value]


# --- scf.if ---------------------------------------------------------------------------------


@batch_rule("scf.if")
def if_(ctx, args):
    """if p then A else B -> if p then A[b] else B[b]; a batched p -> select(p, A[b], B[b])."""
    op, size = ctx.op, ctx.size
    blocks = [op.regions[0].blocks[0], op.regions[1].blocks[0]]
    pred = args[0]
    if pred.batched:
        outs = [_walk_block(ctx.walker, b, []) for b in blocks]
        return [_select(pred.value, materialize(t, size), materialize(f, size))
                for t, f in zip(*outs)]
    flags = [a or b for a, b in zip(*[_flags(b, ctx.walker, []) for b in blocks])]
    new = scf.IfOp(pred.value, [_type(r.type, f, size) for r, f in zip(op.results, flags)],
                   has_else=True)
    for block, target in zip(blocks, (new.then_block, new.else_block)):
        with ir.InsertionPoint(target):
            outs = _walk_block(ctx.walker, block, [])
            scf.YieldOp([_as(a, f, size) for a, f in zip(outs, flags)])
    return [r if f else unbatched(r) for r, f in zip(new.results, flags)]


# --- scf.index_switch -------------------------------------------------------------------------


@batch_rule("scf.index_switch")
def index_switch(ctx, args):
    """switch i {A_k} -> switch i {A_k[b]}; a batched i -> select(i == k, A_k[b], ...) over
    the cases, starting from the default branch (region 0)."""
    op, size = ctx.op, ctx.size
    blocks = [r.blocks[0] for r in op.regions]  # default first, then the cases
    cases = list(ir.DenseI64ArrayAttr(op.attributes["cases"]))
    index = args[0]
    if index.batched:
        outs = [[materialize(a, size) for a in _walk_block(ctx.walker, b, [])] for b in blocks]
        acc = outs[0]
        et = ir.RankedTensorType(index.value.type).element_type
        for case, values in zip(cases, outs[1:]):
            hit = hlo.compare(index.value, hlo.broadcast_in_dim(scalar_constant(et, case), [size], []), "EQ")
            acc = [_select(hit, v, a) for v, a in zip(values, acc)]
        return acc
    flags = [any(fs) for fs in zip(*[_flags(b, ctx.walker, []) for b in blocks])]
    new = scf.IndexSwitchOp([_type(r.type, f, size) for r, f in zip(op.results, flags)],
                            index.value, cases)
    targets = [new.default_block] + [new.case_block(i) for i in range(len(cases))]
    for block, target in zip(blocks, targets):
        with ir.InsertionPoint(target):
            outs = _walk_block(ctx.walker, block, [])
            scf.YieldOp([_as(a, f, size) for a, f in zip(outs, flags)])
    return [r if f else unbatched(r) for r, f in zip(new.results, flags)]


# --- scf.while --------------------------------------------------------------------------------


def _while_flags(op, walker, init_flags):
    """(carry flags, forwarded flags, predicate batched) at the fixed point."""
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    carries = list(init_flags)
    while True:
        is_batched = _batched_after(before, walker, carries)
        _, condition = block_ops(before)
        pred, *forwarded = [is_batched(v) for v in condition.operands]
        if pred:
            return [True] * len(carries), [True] * len(forwarded), True
        yielded = _flags(after, walker, forwarded)
        new = [a or b for a, b in zip(carries, yielded)]
        if new == carries:
            return carries, forwarded, False
        carries = new


@batch_rule("scf.while")
def while_(ctx, args):
    """while c(x) do B -> the loop over batched carries (fixed point); a batched c ->
    while any(c(x)) do x = select(c(x), B(x), x) with every carry batched."""
    op, size = ctx.op, ctx.size
    before_old, after_old = op.regions[0].blocks[0], op.regions[1].blocks[0]
    carry_flags, fwd_flags, pred_batched = _while_flags(op, ctx.walker, [a.batched for a in args])
    inits = [_as(a, f, size) for a, f in zip(args, carry_flags)]
    types = [v.type for v in inits]
    if pred_batched:
        return _while_batched_predicate(ctx, op, inits, types)
    _, condition = block_ops(before_old)
    fwd_types = [_type(v.type, f, size) for v, f in zip(list(condition.operands)[1:], fwd_flags)]
    loop = scf.WhileOp(fwd_types, inits)
    before = loop.before.blocks.append(*types)
    with ir.InsertionPoint(before):
        pred, *forwarded = _walk_block(ctx.walker, before_old,
                                       [Arg(v, f) for v, f in zip(before.arguments, carry_flags)])
        scf.ConditionOp(pred.value, [_as(a, f, size) for a, f in zip(forwarded, fwd_flags)])
    after = loop.after.blocks.append(*fwd_types)
    with ir.InsertionPoint(after):
        outs = _walk_block(ctx.walker, after_old, [Arg(v, f) for v, f in zip(after.arguments, fwd_flags)])
        scf.YieldOp([_as(a, f, size) for a, f in zip(outs, carry_flags)])
    return [r if f else unbatched(r) for r, f in zip(loop.results, fwd_flags)]


def _while_batched_predicate(ctx, op, inits, types):
    size = ctx.size
    before_old, after_old = op.regions[0].blocks[0], op.regions[1].blocks[0]
    _, condition = block_ops(before_old)
    if list(condition.operands)[1:] != list(before_old.arguments):
        raise BatchingError("vmap of a while loop with a batched predicate needs scf.condition to "
                            "forward the loop's arguments unchanged", op.location)
    pred_type = batched_type(ir.IntegerType.get_signless(1), size)
    loop = scf.WhileOp(types + [pred_type], inits)
    before = loop.before.blocks.append(*types)
    with ir.InsertionPoint(before):
        pred, *_ = _walk_block(ctx.walker, before_old, [Arg(v, True) for v in before.arguments])
        pred_b = _scalar_tensor(pred, size)
        false = scalar_constant(ir.IntegerType.get_signless(1), 0)
        go = tensor.extract(hlo.reduce(pred_b, false, [0], "or"), [])
        scf.ConditionOp(go, list(before.arguments) + [pred_b])
    after = loop.after.blocks.append(*types, pred_type)
    with ir.InsertionPoint(after):
        carries, pred_b = list(after.arguments)[:-1], after.arguments[len(types)]
        outs = _walk_block(ctx.walker, after_old, [Arg(v, True) for v in carries])
        # Examples whose predicate is false keep their carries: their loop has ended.
        scf.YieldOp([_select(pred_b, materialize(a, size), x) for a, x in zip(outs, carries)])
    return list(loop.results)[:len(types)]


# --- func.call --------------------------------------------------------------------------------


@batch_rule("func.call")
def call(ctx, args):
    """call @f(x[b]) -> @f's body batched inline."""
    name = ir.FlatSymbolRefAttr(ctx.op.attributes["callee"]).value
    module = ctx.op.parent
    while module.name != "builtin.module":
        module = module.parent
    for f in module.regions[0].blocks[0].operations:
        f = f.operation
        if f.name == "func.func" and ir.StringAttr(f.attributes["sym_name"]).value == name \
                and len(f.regions[0].blocks):
            outs = _walk_block(ctx.walker, f.regions[0].blocks[0], list(args))
            return [a.value if a.batched else unbatched(a.value) for a in outs]
    raise BatchingError(f"vmap of a call of @{name}: no body in this module", ctx.op.location)
