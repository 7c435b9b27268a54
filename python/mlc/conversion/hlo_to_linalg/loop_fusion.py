"""A loop fusion lowered at once: one linalg.generic for the whole fused function (XLA's
loop emitter).

hlo-fuse outlines each loop fusion into a private function (`hlo.fusion_kind = "loop"`).
Lowered op by op, a fusion of n elementwise ops became n linalg.generics that upstream
elementwise fusion (mlc-fuse-kernels) then merged back into one, copying the growing body
at every step: on a 5,000-op chain that was 2 s of Python building generics and 0.8 s of
merging. When every op of the fusion computes one element from the same element of its
operands, the function becomes the generic directly:

    func.func private @f(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
      %c = "hlo.constant"() {value = dense<2.0> : tensor<4x8xf32>}
      %bb = "hlo.broadcast_in_dim"(%b) {broadcast_dimensions = array<i64: 1>}
      %m = "hlo.multiply"(%a, %c) ; %s = "hlo.add"(%m, %bb) ; return %s
  ->
      %e = tensor.empty() : tensor<4x8xf32>
      %r = linalg.generic {maps = [(d0, d1) -> (d0, d1), (d0, d1) -> (d1), (d0, d1) -> (d0, d1)]}
             ins(%a, %b) outs(%e) { ^bb0(%x, %y, %o): %two = arith.constant 2.0
                                    %0 = arith.mulf %x, %two ; %1 = arith.addf %0, %y ; yield %1 }

Each op's scalar is its emitter in scalar.py (the same one the op-by-op lowering uses);
a splat constant is a scalar constant; a broadcast_in_dim of a function argument is that
argument read through the broadcast's map, of a 0-d value the value itself; 0-d values
are scalars computed once per element. Any other op (reshape, a non-splat constant, a
broadcast of a computed array, ...) or a value of another shape leaves the function to
the op-by-op lowering.
"""

from __future__ import annotations

from mlir import ir

from ...dialects.hlo.ops import OPS
from ...dialects.hlo.types import is_unsigned, signless
from ...dialects.hlo.verify import signature_of
from .constant import splat_value
from .elementwise import ELEMENTWISE_OPS
from .registry import PARALLEL, cast, empty, generic_n, identity_map, projection
from .scalar import SCALAR_OPS, ElementInfo, const

_ELEMENTWISE = frozenset(f"hlo.{name}" for name in ELEMENTWISE_OPS)


def _broadcast_map(operand: ir.RankedTensorType, shape: list[int], dims: list[int]) -> ir.AffineMap:
    """The map reading `operand` broadcast to `shape` along `dims` (size-1 dims at 0)."""
    exprs = [ir.AffineDimExpr.get(d) if size == shape[d] else ir.AffineConstantExpr.get(0)
             for size, d in zip(operand.shape, dims)]
    return ir.AffineMap.get(len(shape), 0, exprs)


class _Plan:
    """What the generic reads (function arguments through maps) and computes (the ops in
    order, each an emitter or a scalar constant), for a function it can take."""

    def __init__(self, shape: list[int], ret: ir.Operation):
        self.shape = shape
        self.ret = ret  # the function's return
        self.inputs: list[tuple[ir.Value, ir.AffineMap]] = []  # (argument, map)
        self.input_of: dict = {}  # (argument, map) -> input index
        # (op, kind, payload, result, operands): a constant's value, an input's index, an
        # aliased value, or for an emitted op the input index of each operand that is an
        # argument (else None); op's result, and for an emitted op its operands (read once)
        self.steps: list[tuple] = []
        # The type of each emitted op's result and operands, as (result type, *operand
        # types), read once (the bindings make a new object per read).
        self.types: dict = {}

    def read(self, argument: ir.Value, amap: ir.AffineMap) -> int:
        key = (argument, amap)
        if key not in self.input_of:
            self.input_of[key] = len(self.inputs)
            self.inputs.append((argument, amap))
        return self.input_of[key]


def _plan(fn: ir.Operation) -> _Plan | None:
    block = fn.regions[0].blocks[0]
    ops = [op.operation for op in block.operations]
    if len(ops) < 2 or ops[-1].name != "func.return" or not ops[-1].operands:
        return None
    returned = list(ops[-1].operands)
    if any(isinstance(v.owner, ir.Block) or not isinstance(v.type, ir.RankedTensorType) for v in returned):
        return None
    shape = list(ir.RankedTensorType(returned[0].type).shape)
    if any(list(ir.RankedTensorType(v.type).shape) != shape for v in returned):
        return None
    rank, plan = len(shape), _Plan(shape, ops[-1])
    known: dict = {}  # values the body computes (as scalars) -> their types
    arguments = set(block.arguments)

    fitting: dict = {}  # type -> fits (a fusion repeats one or two types)

    def fits(t: ir.Type) -> bool:
        found = fitting.get(t)
        if found is None:
            found = fitting[t] = isinstance(t, ir.RankedTensorType) and (t.rank == 0 or list(t.shape) == shape)
        return found

    for op in ops[:-1]:
        results = op.results
        if len(results) != 1 or len(op.regions):
            return None
        result = results[0]
        result_type = result.type
        if not fits(result_type):
            return None
        name = op.name
        if name == "hlo.constant":
            value = splat_value(op.attributes["value"])
            if value is None:
                return None
            plan.steps.append((op, "constant", value, result, None))
        elif name == "hlo.broadcast_in_dim":
            (x,) = op.operands
            xt = ir.RankedTensorType(x.type)
            if x in known and xt.rank == 0:
                plan.steps.append((op, "alias", x, result, None))
            elif x in arguments and ir.RankedTensorType(result.type).rank == rank:
                dims = list(ir.DenseI64ArrayAttr(op.attributes["broadcast_dimensions"]))
                plan.steps.append((op, "input", plan.read(x, _broadcast_map(xt, shape, dims)), result, None))
            else:
                return None
        elif name in _ELEMENTWISE:
            reads = []
            operands = list(op.operands)
            types = [result_type]
            for x in operands:
                if x in arguments:
                    xt = x.type
                    if not fits(xt):
                        return None
                    reads.append(plan.read(x, identity_map(rank) if xt.rank == rank else projection(rank, [])))
                    types.append(xt)
                elif x in known:
                    reads.append(None)
                    types.append(known[x])
                else:
                    return None
            plan.steps.append((op, "emit", reads, result, operands))
            plan.types[op] = tuple(types)
        else:
            return None
        known[result] = result_type
    return plan


def _info(op: ir.Operation, known: dict | None = None, types: tuple | None = None) -> ElementInfo:
    """The emitter's ElementInfo: the op's element types made signless (and which were
    unsigned), its attribute values (read only for ops that have attributes: most have none).
    `known`: infos of attribute-free ops by name and types, shared by the ops of a graph
    that repeat them (ElementInfo is immutable). `types`: (result type, *operand types),
    when the caller read them already."""
    name = op.name
    opdef = OPS[name.removeprefix("hlo.")]
    has_attributes = bool(opdef.attributes or opdef.optional_attributes)
    if types is None:
        types = (op.results[0].type, *[v.type for v in op.operands])
    result_type, operand_types = types[0], types[1:]
    key = None
    if known is not None and not has_attributes:
        key = (name, *types)
        found = known.get(key)
        if found is not None:
            return found
    attributes = signature_of(op).attributes if has_attributes else {}
    types = [t.element_type for t in operand_types]
    result = result_type.element_type
    info = ElementInfo(attributes, tuple(signless(t) for t in types), signless(result),
                       unsigned=is_unsigned(types[0]), result_unsigned=is_unsigned(result))
    if key is not None:
        known[key] = info
    return info


def lower_loop_fusion(fn: ir.Operation, known: dict | None = None) -> bool:
    """Lowers the loop fusion `fn` to one linalg.generic if every op fits (module
    docstring); False (and `fn` untouched) otherwise. `known`: see _info (a dict the
    caller keeps across the fusions of one module)."""
    plan = _plan(fn)
    if plan is None:
        return False
    ret, rank = plan.ret, len(plan.shape)
    known = {} if known is None else known
    infos = {op: _info(op, known, types) for op, types in plan.types.items()}
    with ir.InsertionPoint(ret), fn.location:
        inputs = [cast(arg, signless(arg.type)) for arg, _ in plan.inputs]
        outs = [signless(ir.RankedTensorType(v.type)) for v in ret.operands]

        def body(*scalars):
            values: dict = {}
            for op, kind, payload, result, operands in plan.steps:
                with op.location:
                    if kind == "constant":
                        values[result] = const(signless(ir.RankedTensorType(result.type)).element_type, payload)
                    elif kind == "input":
                        values[result] = scalars[payload]
                    elif kind == "alias":
                        values[result] = values[payload]
                    else:
                        name = op.name.removeprefix("hlo.")
                        values[result] = SCALAR_OPS[name](infos[op], *[
                            values[x] if i is None else scalars[i] for x, i in zip(operands, payload)])
            return [values[v] for v in ret.operands]

        results = generic_n(inputs, [empty(t) for t in outs], [m for _, m in plan.inputs] +
                            [identity_map(rank)] * len(outs), [PARALLEL] * rank, body)
        results = [cast(r, v.type) for r, v in zip(results, ret.operands)]
    for i, r in enumerate(results):
        ret.operands[i] = r
    for op, *_ in reversed(plan.steps):
        op.erase()
    return True
