"""Control flow: scf.if (lax.cond), scf.while (while_loop, fori_loop, scan), func.call.

- scf.if, both modes: a new scf.if on the same predicate whose branches recompute their
  branch of the forward ops and differentiate them; reverse mode yields the cotangents of
  the free variables both branches read (zeros where a branch does not), forward mode the
  tangents of the results.
- scf.while, forward mode (any trip count): a new loop carrying each float carry's tangent
  beside it, the body's JVP computed in the loop.
- scf.while, reverse mode, when the trip count is static (fori_loop with constant bounds,
  scan): a loop that reruns the forward iterations storing the carries the backward pass
  reads (the iteration's inputs, stacked along a new leading axis), then a loop from the
  last iteration down that loads them, recomputes the body and walks it backward, carrying
  the carries' cotangents and accumulating the free variables'. A data-dependent trip count
  raises JAX's error.

- func.call, both modes: the callee's body copied and differentiated inline.

Copies are emitted at the derivative's insertion point: the original ops stay in place
for the primal outputs (their duplicate work is the price of not rewriting the program).
"""

from __future__ import annotations

import numpy as np
from mlir import ir
from mlir.dialects import scf, tensor

from ...dialects import hlo
from ...transforms.patterns import producer
from ..errors import DifferentiationError
from ..registry import jvp_rule, reads_operand, vjp_rule
from ..regions import block_ops, clone_ops, composed, free_values
from ..values import add, differentiable, full, materialize, shape, ttype, zeros_like

# --- scf.if ---------------------------------------------------------------------------------


@vjp_rule("scf.if")
def if_vjp(ctx, cts):
    """if p then A else B: ct_z = if p then VJP(A)(ct)_z else VJP(B)(ct)_z for each float
    free variable z of A and B."""
    from ..vjp import Backward
    op = ctx.op
    free = [v for v in free_values(op.regions) if differentiable(v)]
    new = scf.IfOp(op.operands[0], [v.type for v in free], has_else=True)
    for region, block in zip(op.regions, (new.then_block, new.else_block)):
        with ir.InsertionPoint(block):
            ops, terminator = block_ops(region.blocks[0])
            mapping: dict = {}
            copies = clone_ops(ops, mapping)
            walker = Backward(composed(ctx.walker.remap, mapping))
            for v, ct in zip(terminator.operands, cts):
                walker.accumulate(mapping.get(v, v), ct)
            walker.run(copies)
            scf.YieldOp([materialize(walker.ct(v), v) for v in free])
    return {v: new.results[i] for i, v in enumerate(free)}


@jvp_rule("scf.if")
def if_jvp(ctx, ts):
    """if p then A else B: t = if p then JVP(A) else JVP(B), with the tangents of the free
    variables the enclosing walk knows."""
    from ..jvp import Forward
    op = ctx.op
    outs = [r for r in op.results if differentiable(r)]
    if not outs:
        return [None] * len(op.results)
    new = scf.IfOp(op.operands[0], [r.type for r in outs], has_else=True)
    for region, block in zip(op.regions, (new.then_block, new.else_block)):
        with ir.InsertionPoint(block):
            ops, terminator = block_ops(region.blocks[0])
            mapping: dict = {}
            copies = clone_ops(ops, mapping)
            walker = Forward(composed(ctx.walker.remap, mapping))
            walker.tangents.update(ctx.walker.tangents)
            walker.run(copies)
            yielded = [mapping.get(v, v) for v, r in zip(terminator.operands, op.results) if differentiable(r)]
            scf.YieldOp([materialize(walker.tangent(v), v) for v in yielded])
    tangents = iter(new.results)
    return [next(tangents) if differentiable(r) else None for r in op.results]


# --- scf.while: forward mode ------------------------------------------------------------------


@jvp_rule("scf.while")
def while_jvp(ctx, ts):
    """while c(x) do x = B(x): (x, t) = while c(x) do (B(x), JVP(B)(x, t)), each float carry's
    tangent carried beside it (from its init's tangent, or zero)."""
    from ..jvp import Forward
    op = ctx.op
    carries = list(op.operands)
    floats = [i for i, v in enumerate(carries) if differentiable(v)]
    if not floats:
        return [None] * len(op.results)
    inits = carries + [materialize(ts[i], carries[i]) for i in floats]
    types = [v.type for v in inits]
    loop = scf.WhileOp(types, inits)
    before_old, after_old = op.regions[0].blocks[0], op.regions[1].blocks[0]
    for old, region in ((before_old, loop.before), (after_old, loop.after)):
        block = region.blocks.append(*types)
        args = list(block.arguments)
        with ir.InsertionPoint(block):
            mapping = dict(zip(old.arguments, args[:len(carries)]))
            ops, terminator = block_ops(old)
            copies = clone_ops(ops, mapping)
            walker = Forward(composed(ctx.walker.remap, mapping))
            walker.tangents.update(ctx.walker.tangents)
            for k, i in enumerate(floats):
                walker.set(args[i], args[len(carries) + k])
            walker.run(copies)
            if terminator.name == "scf.condition":
                condition, *values = [mapping.get(v, v) for v in terminator.operands]
                scf.ConditionOp(condition, values + [materialize(walker.tangent(values[i]), values[i])
                                                     for i in floats])
            else:
                values = [mapping.get(v, v) for v in terminator.operands]
                scf.YieldOp(values + [materialize(walker.tangent(values[i]), values[i]) for i in floats])
    tangents = dict(zip(floats, list(loop.results)[len(carries):]))
    return [tangents.get(i) for i in range(len(op.results))]


# --- scf.while: reverse mode ------------------------------------------------------------------

_DYNAMIC_LOOP = ("Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop "
                 "with dynamic start/stop values. Try using lax.scan, or using fori_loop with "
                 "static start/stop.")


def _constant_int(value: ir.Value) -> int | None:
    owner = value.owner
    if not isinstance(owner, ir.OpView) and not isinstance(owner, ir.Operation):
        return None
    owner = owner.operation
    if owner.name != "hlo.constant" or shape(value) != ():
        return None
    attr = owner.attributes["value"]
    if not isinstance(attr, ir.DenseIntElementsAttr):
        return None
    return int(np.array(ir.DenseIntElementsAttr(attr)).reshape(()))


def trip_count(op: ir.Operation) -> int | None:
    """N when the loop is `for (k = a; k < b; k += s)` on a carry k with constants a, b, s > 0
    (fori_loop and scan build exactly that), else None."""
    before, after = op.regions[0].blocks[0], op.regions[1].blocks[0]
    _, condition = block_ops(before)
    _, yielded = block_ops(after)
    if list(condition.operands)[1:] != list(before.arguments):
        return None
    extract = producer(condition.operands[0], "tensor.extract")
    compare = extract and producer(extract.operands[0], "hlo.compare")
    if compare is None or ir.StringAttr(compare.attributes["comparison_direction"]).value != "LT":
        return None
    counter, bound = compare.operands
    if counter not in list(before.arguments):
        return None
    k = list(before.arguments).index(counter)
    upper, lower = _constant_int(bound), _constant_int(op.operands[k])
    step_op = producer(yielded.operands[k], "hlo.add")
    if upper is None or lower is None or step_op is None:
        return None
    lhs, rhs = step_op.operands
    arg = after.arguments[k]
    step = _constant_int(rhs) if lhs == arg else _constant_int(lhs) if rhs == arg else None
    if step is None or step <= 0:
        return None
    return max(0, -(-(upper - lower) // step))


def _needed_arguments(after: ir.Block) -> list[bool]:
    """Which body arguments the backward body reads: those some VJP rule reads, directly or
    through a value it reads (which the backward body recomputes from them)."""
    from ..vjp import rule_key
    ops, _ = block_ops(after)
    needed: set = set()
    for op in reversed(ops):
        whole = op.regions or any(r in needed for r in op.results)
        for region_value in (free_values(op.regions) if op.regions else []):
            needed.add(region_value)
        for i, v in enumerate(op.operands):
            if whole or reads_operand(rule_key(op), i):
                needed.add(v)
    return [a in needed for a in after.arguments]


def _i64(value: int) -> ir.Value:
    return full((), ir.IntegerType.get_signless(64), value)


def _row_starts(index: ir.Value, rank: int) -> list[ir.Value]:
    return [index] + [_i64(0) for _ in range(rank)]


def _counting_loop(n: int, carries: list[ir.Value], body):
    """scf.while over (k, carries...) for k in 0..n-1; body(k, carries) -> new carries."""
    inits = [_i64(0)] + carries
    types = [v.type for v in inits]
    loop = scf.WhileOp(types, inits)
    before = loop.before.blocks.append(*types)
    with ir.InsertionPoint(before):
        go = hlo.compare(before.arguments[0], _i64(n), "LT")
        scf.ConditionOp(tensor.extract(go, []), list(before.arguments))
    after = loop.after.blocks.append(*types)
    with ir.InsertionPoint(after):
        k = after.arguments[0]
        outs = body(k, list(after.arguments)[1:])
        scf.YieldOp([hlo.add(k, _i64(1))] + outs)
    return list(loop.results)[1:]


@vjp_rule("scf.while")
def while_vjp(ctx, cts):
    """for N static iterations x_{i+1} = B(x_i, z): store x_0..x_{N-1} (the parts the
    backward body reads), then for i = N-1..0: (ct_x, ct_z) += VJP(B)(x_i, z)(ct_x)."""
    from ..vjp import Backward
    op = ctx.op
    n = trip_count(op)
    if n is None:
        raise DifferentiationError(_DYNAMIC_LOOP, op.location)
    carries = list(op.operands)
    after = op.regions[1].blocks[0]
    body_ops, yielded = block_ops(after)
    floats = [i for i, v in enumerate(carries) if differentiable(v)]
    if n == 0:
        return {carries[i]: cts[i] for i in floats if cts[i] is not None}
    stored = [i for i, need in enumerate(_needed_arguments(after)) if need]
    free = [v for v in free_values([op.regions[1]]) if differentiable(v)]

    # Forward again, storing each iteration's inputs.
    stacks = [hlo.constant(ir.DenseElementsAttr.get_splat(
        ir.RankedTensorType.get([n, *shape(carries[i])], ttype(carries[i]).element_type),
        _zero_attr(ttype(carries[i]).element_type))) for i in stored]

    def store(k, state):
        values, buffers = state[:len(carries)], state[len(carries):]
        buffers = [hlo.dynamic_update_slice(buf, hlo.reshape(values[i], [1, *shape(values[i])]),
                                            _row_starts(k, len(shape(values[i]))))
                   for buf, i in zip(buffers, stored)]
        mapping = dict(zip(after.arguments, values))
        clone_ops(body_ops, mapping)
        return [mapping.get(v, v) for v in yielded.operands] + buffers
    stacks = _counting_loop(n, carries + stacks, store)[len(carries):]

    # Backward, from the last iteration to the first.
    def backward(k, state):
        ct_carries, ct_free = state[:len(floats)], state[len(floats):]
        index = hlo.subtract(_i64(n - 1), k)
        inputs = [zeros_like(v) for v in carries]
        for buf, i in zip(stacks, stored):
            row = hlo.dynamic_slice(buf, _row_starts(index, len(shape(carries[i]))), [1, *shape(carries[i])])
            inputs[i] = hlo.reshape(row, shape(carries[i]))
        mapping = dict(zip(after.arguments, inputs))
        copies = clone_ops(body_ops, mapping)
        walker = Backward(composed(ctx.walker.remap, mapping))
        for i, ct in zip(floats, ct_carries):
            walker.accumulate(mapping.get(yielded.operands[i], yielded.operands[i]), ct)
        walker.run(copies)
        new_carries = [materialize(walker.ct(inputs[i]), inputs[i]) for i in floats]
        new_free = [add(c, walker.ct(z)) for c, z in zip(ct_free, free)]
        return new_carries + new_free
    inits = [materialize(cts[i], carries[i]) for i in floats] + [zeros_like(z) for z in free]
    results = _counting_loop(n, inits, backward)
    out = {carries[i]: results[j] for j, i in enumerate(floats)}
    for z, ct in zip(free, results[len(floats):]):
        out[z] = add(out.get(z), ct)
    return out


def _zero_attr(element_type: ir.Type) -> ir.Attribute:
    if isinstance(element_type, ir.FloatType):
        return ir.FloatAttr.get(element_type, 0.0)
    return ir.IntegerAttr.get(element_type, 0)


# --- func.call --------------------------------------------------------------------------------


def _callee_body(op: ir.Operation):
    """(ops, return op, argument -> operand mapping) of the function `op` calls."""
    name = ir.FlatSymbolRefAttr(op.attributes["callee"]).value
    module = op.parent
    while module.name != "builtin.module":
        module = module.parent
    for f in module.regions[0].blocks[0].operations:
        f = f.operation
        if f.name == "func.func" and ir.StringAttr(f.attributes["sym_name"]).value == name:
            if not len(f.regions[0].blocks):
                break
            block = f.regions[0].blocks[0]
            ops, terminator = block_ops(block)
            return ops, terminator, dict(zip(block.arguments, op.operands))
    raise DifferentiationError(f"cannot differentiate a call of @{name}: no body in this module", op.location)


@vjp_rule("func.call")
def call_vjp(ctx, cts):
    """call @f(x): the VJP of @f's body, inlined at the backward point (a copy of the
    body recomputes its values there)."""
    from ..vjp import Backward
    ops, terminator, mapping = _callee_body(ctx.op)
    copies = clone_ops(ops, mapping)
    walker = Backward(composed(ctx.walker.remap, mapping))
    for v, ct in zip(terminator.operands, cts):
        walker.accumulate(mapping.get(v, v), ct)
    walker.run(copies)
    return {v: walker.ct(v) for v in ctx.op.operands}


@jvp_rule("func.call")
def call_jvp(ctx, ts):
    """call @f(x): the JVP of @f's body, inlined at the tangent point."""
    from ..jvp import Forward
    ops, terminator, mapping = _callee_body(ctx.op)
    copies = clone_ops(ops, mapping)
    walker = Forward(composed(ctx.walker.remap, mapping))
    walker.tangents.update(ctx.walker.tangents)
    walker.run(copies)
    return [walker.tangent(mapping.get(v, v)) for v in terminator.operands]
