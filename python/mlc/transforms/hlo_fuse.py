"""Pass `hlo-fuse`: XLA-style fusion. Groups of hlo ops become one kernel each.

A fusion is an outlined private function (XLA's fused computation) tagged
`hlo.fusion_kind = "loop" | "input" | "output"` and called with `func.call`:

    %r = func.call @main_fusion_0(%x, %y, %z) : (...) -> tensor<f32>
    func.func private @main_fusion_0(...) attributes {hlo.fusion_kind = "input"} { ... }

Rules (each a function below; what an op may do comes from its `fusion` role in the op
table: elementwise, movement, gather, input (a reduction), output (a contraction)).
Ops are visited from the last to the first; a consumer's group absorbs a producer when
that is legal and profitable:
- `fusible_producer`: elementwise ops, constants, iota, data movement (broadcast_in_dim,
  reshape, transpose, slice, reverse) and gathers fuse into their consumers; a gather is a
  leaf (`keeps_operands_outside`): its operands, read at data-dependent positions, stay
  materialized;
- `all_users_inside`: a producer joins a group when every user of it is in the group, so
  no producer (expensive or not) is ever computed twice and no cycle can form;
- `used_only_after` (producer-consumer multi-output fusion, XLA's): a producer whose other
  users all come after the group's root joins as one more result of the fusion (Adam's m'
  is returned and feeds w': one kernel writes both instead of a second one reading m' back);
- `recompute_within_budget` (the cost model, from each op's `cost` in the op table): a
  merged kernel evaluates a producer once per use and once per read through a broadcast
  (`evaluations`); a producer joins only if the arithmetic so repeated stays within 10% of
  the group's own, so tanh read through a [512] -> [512, 768] broadcast stays outside and
  is materialized once, while free movement joins;
- a contraction's operands are never fused into it (they would be recomputed once per
  output column; BLAS and the register tiles want them materialized): a dot_general takes
  only its elementwise epilogue;
- `cheap_to_duplicate`: constants, iota and broadcasts of a 0-d value are the exception:
  they are copied into each consumer group, as XLA does, since re-computing them is free;
  a copied op then stays in the caller (never a member or root of another group): its
  copies read its operands, which must stay in the caller too;
- `cheap_elementwise` + `reads_materialized`: an elementwise op of at most one add's cost
  whose operands are materialized anyway (arguments, reduction or contraction results,
  constants) is copied into every consumer group that cannot absorb it, as XLA duplicates
  cheap producers: `s = dot * 0.125` feeding softmax's max and exp-sum fusions is computed
  in both instead of written by one and read back (attention (8, 512, 64): 17.8 -> 13.5
  ms), within DUPLICATE_BUDGET (2%) of the function's arithmetic;
- a dot_general or convolution joins its elementwise consumers' group (at most one
  reduction or contraction per fusion);
- `reduction_with_epilogue`: a reduce joins its elementwise consumers' group when they work
  on the reduce's result shape (the epilogue of an "input" fusion: mean = sum / n);
- `siblings_can_merge`: two fusions that read the same large input and do not depend on
  each other merge into one multi-output fusion (the function returns both results);
- `kind_of`: a group rooted at a reduce is an "input" fusion (its elementwise producers
  run inside the reduction loop), a group with a dot_general/convolution is an "output"
  fusion (the contraction with its elementwise epilogue), any other is a "loop" fusion;
- `max-size` caps a group's op count, bounding compile time.
Ops without a fusion role (scatter, sort, pad, dynamic_slice, ...) and ops inside scf
regions are never fused.

Lowering (`mlc-lower-to-llvm`): after hlo-to-linalg, linalg's elementwise fusion runs
inside each function, and mlc-fuse-kernels' multi-output merging joins what it leaves
apart (conversion/merge_kernels.py), which turns every loop/input fusion into one
linalg.generic where the loops agree; the fusion functions are then inlined, so their values never become buffers. An output
fusion is one loop nest when its matmul is generated code (mlc-tile-matmul fuses the
epilogue into the register tile loop), and a BLAS call plus one epilogue loop when it is
large enough for BLAS. Row-local fusions that follow each other (softmax's) run in one
loop over rows (mlc-row-fusion). See docs/codegen.md.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from mlir import ir
from mlir.dialects import func

from ..dialects.hlo.ops import OPS
from .hlo_dce import unused
from .hlo_verify import HloGraphPass

FUSION_KIND = "hlo.fusion_kind"
_ROOT_KINDS = {"input": "input", "output": "output"}   # fusion role of a root -> fusion kind


def role(op) -> str:
    """The op's fusion role from the op table (OpDef.fusion): elementwise, movement, gather,
    input (a reduction), output (a contraction), or "" (never fused)."""
    name = op.name
    found = _ROLES.get(name)
    if found is None:
        opdef = OPS.get(name.removeprefix("hlo.")) if name.startswith("hlo.") else None
        found = _ROLES[name] = opdef.fusion if opdef else ""
    return found


_ROLES: dict[str, str] = {}  # op name -> role (asked several times per op of a graph)


def fusible_producer(op) -> bool:
    """Elementwise ops, constants/iota, data movement and gathers fuse into their consumers."""
    return role(op) in ("elementwise", "movement", "gather")


def fusible_root(op) -> bool:
    """What may start a group: anything a producer may be, plus reductions and contractions."""
    return role(op) != ""


def is_reduction_or_contraction(op) -> bool:
    return role(op) in _ROOT_KINDS


def is_contraction(op) -> bool:
    return role(op) == "output"


def keeps_operands_outside(op) -> bool:
    """A contraction's operands would be recomputed once per output column, a gather's are read
    at data-dependent positions: both read materialized operands, never fused producers."""
    return role(op) in ("output", "gather")


# Recomputation a group may add, as a fraction of the arithmetic it does anyway (the
# fused program's flops stay within 1.1x of the unfused program's).
RECOMPUTE_BUDGET = 0.1


def _elements(value: ir.Value) -> int:
    t = value.type  # (types come downcast: no cast for a ranked tensor)
    return math.prod((t if type(t) is ir.RankedTensorType else ir.RankedTensorType(t)).shape)


def own_flops(op) -> float:
    """An elementwise or movement op's arithmetic, computed once: cost x result elements
    (contractions and reductions count 0 here: they run once whatever their users do)."""
    name = op.name
    opdef = OPS.get(name.removeprefix("hlo."))
    if opdef is None or opdef.fusion in _ROOT_KINDS:
        return 0.0
    return opdef.cost * sum(_elements(r) for r in op.results)


def reads_per_element(consumer, operand_index: int) -> float:
    """How often one evaluation of each result element of `consumer` makes the fused kernel
    evaluate an element of operand `operand_index`: 1 for elementwise ops, the broadcast
    factor for broadcast_in_dim (a [512] operand broadcast to [512, 768] is read 768
    times per element), at most 1 for slices; a reduce reads each input element once."""
    if role(consumer) == "input":
        return 1.0
    operand = consumer.operands[operand_index]
    return _elements(consumer.results[0]) / max(_elements(operand), 1)


def uses_of(op) -> list[tuple]:
    """(user op, operand number) of every use of every result of `op`."""
    return [(use.owner.operation, use.operand_number) for result in op.results for use in result.uses]


def evaluations(producer, multiplicity: dict, uses: list | None = None) -> float:
    """How many times the fused kernel would evaluate each element of `producer`: the sum,
    over its uses in the group, of the user's own evaluations times its reads per element
    (merged kernels recompute an op per use; a reduction or contraction runs once).
    `uses`: uses_of(producer), when the caller has it."""
    total = 0.0
    for user, number in uses_of(producer) if uses is None else uses:
        if user in multiplicity:  # a use outside the group reads the stored result
            total += multiplicity[user] * reads_per_element(user, number)
    return total


def recompute_within_budget(extra: float, group_flops: float) -> bool:
    """The cost model: a producer joins only if the arithmetic repeated by recomputing it (and
    everything already repeated in the group) stays within RECOMPUTE_BUDGET of the group's
    own arithmetic. tanh read through a broadcast, or feeding two users, stays outside
    (materialized once); a free reshape or a cheap add used twice may join."""
    return extra <= RECOMPUTE_BUDGET * group_flops + 1e-9


def cheap_to_duplicate(op) -> bool:
    """Constants, iota and broadcasts of a 0-d value cost nothing to recompute per consumer."""
    if op.name in ("hlo.constant", "hlo.iota"):
        return True
    return (op.name == "hlo.broadcast_in_dim"
            and ir.RankedTensorType(op.operands[0].type).rank == 0)


# Arithmetic duplicated elementwise producers may add to a function, as a fraction of the
# function's own. Small, since the fusions' recomputation (RECOMPUTE_BUDGET of each
# group's arithmetic) comes on top and the fused program must stay within 1.1x of the
# unfused one's flops; at 5% a random 12x20 graph reached 1.11x.
DUPLICATE_BUDGET = 0.02


def cheap_elementwise(op) -> bool:
    """An elementwise op of at most one add's cost per element (add, multiply, compare,
    select, convert ...: the op table's `cost`), not a transcendental or a division."""
    return role(op) == "elementwise" and OPS[op.name.removeprefix("hlo.")].cost <= 1.0


def reads_materialized(op, grouped: set) -> bool:
    """Every operand of `op` is a function argument or the result of an op that is
    materialized anyway (a reduction, a contraction, an op no fusion takes) and not
    `grouped` into a fusion, so a copy of `op` in a fusion reads the same buffers the
    original does."""
    for value in op.operands:
        owner = _defining_op(value)
        if owner is None or cheap_to_duplicate(owner):  # (a constant is copied along)
            continue
        if role(owner) not in ("input", "output", "") or owner in grouped:
            return False
    return True


def function_flops(ops) -> float:
    """The arithmetic of a function's ops (what the duplication budget is a fraction of):
    elementwise cost x elements, a reduction's input elements, a contraction's 2 x output
    elements x contracted size."""
    total = 0.0
    for op in ops:
        r = role(op)
        if r == "input":
            total += _elements(op.operands[0])
        elif r == "output" and op.name == "hlo.dot_general":
            lhs = ir.RankedTensorType(op.operands[0].type).shape
            contracted = math.prod(lhs[d] for d in ir.DenseI64ArrayAttr(op.attributes["lhs_contracting_dimensions"]))
            total += 2.0 * _elements(op.results[0]) * contracted
        elif r in ("elementwise", "movement"):
            total += own_flops(op)
    return total


def reduction_with_epilogue(producer, members: set) -> bool:
    """A reduce joins the group of its elementwise consumers when they all work on the
    reduce's result shape (mean = sum / n, rsqrt(var + eps)): the epilogue then runs once
    per result element, after the reduction loop, in the same "input" fusion."""
    if role(producer) != "input":
        return False
    shape = ir.RankedTensorType(producer.results[0].type).shape
    return all(fusible_producer(m) and all(ir.RankedTensorType(r.type).shape == shape for r in m.results)
               for m in members)


def all_users_inside(op, members: set, uses: list | None = None) -> bool:
    return all(user in members for user, _ in (uses_of(op) if uses is None else uses))


def top_level(op):
    """The op of the function body that holds `op` (itself, or the region op around it)."""
    while op.parent is not None and op.parent.operation.name != "func.func":
        op = op.parent.operation
    return op


def used_only_after(producer, members: set, position: dict, root, uses: list | None = None) -> bool:
    """Producer-consumer multi-output fusion (XLA's): a producer whose users outside the group
    all come after the group's root (a func.return, a later kernel) joins the group as one
    more result, `p = f(x); r = g(p); return p, r -> call @fusion(x) -> (p, r)`: the kernel
    writes p once instead of a second kernel reading it back. No user before the root, so
    none of them can feed the group (no cycle) and the call can sit at the root's place."""
    last = position[root]
    return all(user in members or position.get(top_level(user), -1) > last
               for user, _ in (uses_of(producer) if uses is None else uses))


def kind_of(ops) -> str:
    roles = {role(op) for op in ops}
    for root_role, kind in _ROOT_KINDS.items():
        if root_role in roles:
            return kind
    return "loop"


@dataclass
class Group:
    roots: list                                    # the ops whose results leave the fusion
    members: list = field(default_factory=list)   # program order
    copies: list = field(default_factory=list)     # cheap ops duplicated into the group

    def ops(self):
        return self.copies + self.members


def _operand_producers(op):
    for value in op.operands:
        owner = _defining_op(value)
        if owner is not None:
            yield owner


def form_groups(block: ir.Block, max_size: int) -> list[Group]:
    ops = [o.operation for o in block.operations]
    position = {op: i for i, op in enumerate(ops)}
    assigned: set = set()
    # Ops copied into a group stay in the caller too, so they never
    # become a member or root of another group.
    copied: set = set()
    groups: list[Group] = []
    users: dict = {}  # op -> uses_of(op), read once (the IR does not change here)

    def uses(producer) -> list:
        found = users.get(producer)
        if found is None:
            found = users[producer] = uses_of(producer)
        return found

    # Cheap elementwise producers copied into each consumer fusion (XLA duplicates them
    # too): `s = dot * 0.125` read by softmax's max and exp-sum fusions is computed in both
    # instead of written by one and read back by the other. Within DUPLICATE_BUDGET.
    duplicate_budget = None
    for op in reversed(ops):
        if op in assigned or op in copied or not fusible_root(op) or len(op.regions):
            continue
        group = Group([op], [op])
        members = {op}
        multiplicity = {op: 1.0}       # evaluations per result element (see `evaluations`)
        flops, extra = own_flops(op), 0.0
        assigned.add(op)
        frontier = [op]
        while frontier and len(members) < max_size:
            consumer = frontier.pop()
            if keeps_operands_outside(consumer):
                continue
            for producer in _operand_producers(consumer):
                if producer in members or producer in assigned:
                    continue
                if producer not in position and producer.parent != op.parent:  # (in the block: same parent)
                    continue
                contraction = is_contraction(producer)
                epilogue = reduction_with_epilogue(producer, members)
                if (contraction or epilogue) and any(is_reduction_or_contraction(m) for m in members):
                    continue  # one reduction or contraction per fusion
                if not (fusible_producer(producer) or contraction or epilogue):
                    continue
                # (a copied op's uses are not read here: it never joins)
                inside = producer not in copied and all_users_inside(producer, members, uses(producer))
                if producer not in copied and (inside or (fusible_producer(producer) and used_only_after(
                        producer, members, position, op, uses(producer)))):
                    times = (1.0 if is_reduction_or_contraction(producer)
                             else evaluations(producer, multiplicity, uses(producer)))
                    own = own_flops(producer)
                    repeated = extra + max(times - 1.0, 0.0) * own
                    if not recompute_within_budget(repeated, flops + own):
                        continue
                    multiplicity[producer] = times
                    flops, extra = flops + own, repeated
                    members.add(producer)
                    assigned.add(producer)
                    frontier.append(producer)
                    if not inside:
                        group.roots.append(producer)  # multi-output: its value also leaves
                elif producer in group.copies:
                    continue
                elif cheap_to_duplicate(producer):
                    group.copies.append(producer)
                    copied.add(producer)
                elif cheap_elementwise(producer) and reads_materialized(producer, assigned):
                    if duplicate_budget is None:
                        duplicate_budget = DUPLICATE_BUDGET * function_flops(ops)
                    cost = own_flops(producer) * max(evaluations(producer, multiplicity, uses(producer)), 1.0)
                    if cost <= duplicate_budget:
                        duplicate_budget -= cost
                        for operand in _operand_producers(producer):  # its constants first
                            if cheap_to_duplicate(operand) and operand not in group.copies:
                                group.copies.append(operand)
                                copied.add(operand)
                        group.copies.append(producer)
                        copied.add(producer)
        group.members = sorted(members, key=position.__getitem__)  # program order
        group.roots.sort(key=position.__getitem__)
        if len(group.members) + len(group.copies) >= 2:  # one op alone is no fusion
            groups.append(group)
    return merge_siblings(list(reversed(groups)), ops, max_size, position)


# Sibling fusion pays when the shared input is big enough to matter.
SIBLING_MIN_ELEMENTS = 1024


def _inputs(g: Group) -> set:
    """The values a group reads from outside it."""
    inside = set(g.members) | set(g.copies)
    return {v for op in g.ops() for v in op.operands if _defining_op(v) not in inside}


def _defining_op(value: ir.Value):
    """The op defining `value`, None for a block argument."""
    if type(value) is ir.BlockArgument:  # (values come downcast: no owner to read)
        return None
    owner = value.owner
    return owner.operation if isinstance(owner, (ir.OpView, ir.Operation)) else None


def _is_large(value: ir.Value) -> bool:
    t = value.type
    return isinstance(t, ir.RankedTensorType) and t.has_static_shape and math.prod(t.shape) >= SIBLING_MIN_ELEMENTS


def _large_inputs(g: Group) -> set:
    return {v for v in _inputs(g) if _is_large(v)}


def _shared_large_input(a: Group, b: Group) -> bool:
    return bool(_large_inputs(a) & _large_inputs(b))


def _downstream(group: Group) -> set:
    """Every op that (transitively) uses a result of the group."""
    seen, pending = set(), [r for root in group.roots for r in root.results]
    while pending:
        for use in pending.pop().uses:
            user = top_level(use.owner.operation)  # a use inside a region counts as its top-level op
            if user not in seen:
                seen.add(user)
                pending.extend(user.results)
    return seen


def siblings_can_merge(a: Group, b: Group, position: dict, max_size: int,
                       shares_large_input: bool | None = None) -> bool:
    """Multi-output (sibling) fusion: two fusions reading the same large input merge into one
    with two results when neither depends on the other (no cycle), the merged group fits
    `max_size` and holds at most one reduction or contraction per sibling, and one call
    site works: after every input of both, before every outside use of either.
    (`shares_large_input`, when the caller knows it already, saves recomputing it.)"""
    if len(a.members) + len(b.members) + len(a.copies) + len(b.copies) > max_size:
        return False
    if not (_shared_large_input(a, b) if shares_large_input is None else shares_large_input):
        return False
    if set(b.members) & _downstream(a) or set(a.members) & _downstream(b):
        return False
    call_site = max(position[r] for r in a.roots + b.roots)
    inside = set(a.members) | set(b.members)
    for g in (a, b):
        for root in g.roots:
            for r in root.results:
                for use in r.uses:
                    user = top_level(use.owner.operation)
                    if user not in inside and position.get(user, call_site + 1) <= call_site:
                        return False
    return True


def merge_siblings(groups: list[Group], ops: list, max_size: int,
                   position: dict | None = None) -> list[Group]:
    """Greedily merges sibling groups (see siblings_can_merge), in program order: each group
    merges into the first earlier (merged) group it can.

    Only groups that share a large input can merge, so the candidates of a group are found
    through an index from each large input to the merged groups that read it (in merged
    order), instead of testing every pair: linear in the number of groups when they share
    nothing (a function with a thousand small results)."""
    if position is None:
        position = {op: i for i, op in enumerate(ops)}
    merged: list[Group] = []
    large: list[set] = []                # large inputs of merged[i]
    readers: dict = {}                   # large input -> indices into merged, ascending
    for group in groups:
        group_large = _large_inputs(group)
        candidates = sorted(i for i in {i for v in group_large for i in readers.get(v, ())}
                            if large[i] & group_large)  # (a merge may have made v internal)
        for i in candidates:
            existing = merged[i]
            if siblings_can_merge(existing, group, position, max_size, shares_large_input=True):
                existing.roots = sorted(existing.roots + group.roots, key=position.__getitem__)
                existing.members = sorted(set(existing.members) | set(group.members), key=position.__getitem__)
                existing.copies += [c for c in group.copies if c not in existing.copies]
                now = _large_inputs(existing)  # a copy of one sibling may feed the other
                for v in now - large[i]:
                    readers.setdefault(v, []).append(i)
                large[i] = now
                break
        else:
            merged.append(group)
            large.append(group_large)
            for v in group_large:
                readers.setdefault(v, []).append(len(merged) - 1)
    return merged


@dataclass(frozen=True)
class HloFuse(HloGraphPass):
    """Groups hlo ops into fusions (outlined functions tagged loop/input/output).

    Expects hlo in func.func bodies. Produces: the same, with each fusion moved into a
    private func.func (attribute hlo.fusion_kind) called by func.call. Option: max-size,
    the most ops a fusion may hold (default 64).
    """

    name = "hlo-fuse"
    max_size: int = 64

    def __post_init__(self):
        if self.max_size < 2:
            raise ValueError(f"option max-size must be >= 2, got {self.max_size}")

    def run(self, module: ir.Operation) -> None:
        self.check_input(module)
        fuse_module(module, self.max_size, describe=False)


def fuse_module(module: ir.Operation, max_size: int = 64, describe: bool = True) -> list[dict]:
    """Fuses every public or private non-fusion function; returns a description per fusion
    (none with describe=False: printing their types was a tenth of the pass on 1000 fusions)."""
    module_block = module.regions[0].blocks[0]
    fusions = []
    functions = [o for o in module_block.operations if o.operation.name == "func.func"
                 and FUSION_KIND not in o.operation.attributes and len(o.regions[0].blocks)]
    for fn in functions:
        function_name = ir.StringAttr(fn.attributes["sym_name"]).value
        block = fn.regions[0].blocks[0]
        for index, group in enumerate(form_groups(block, max_size)):
            fusion = _outline_group(group, function_name, index, fn, describe)
            if describe:
                fusions.append(fusion)
    return fusions


def _outline_group(group: Group, function_name: str, index: int, caller, describe: bool = True) -> dict | None:
    inside = set(group.members)
    copies = set(group.copies)
    inputs: list[ir.Value] = []
    for op in group.ops():
        for value in op.operands:
            owner_op = _defining_op(value)
            if owner_op in inside or owner_op in copies:
                continue
            if value not in inputs:
                inputs.append(value)
    position = {op: i for i, op in enumerate(group.members)}
    last_root = max(group.roots, key=position.__getitem__)
    name = f"{function_name}_fusion_{index}"
    kind = kind_of(group.members)
    results = [r for root in group.roots for r in root.results]
    result_types = [r.type for r in results]
    with last_root.location:
        # The call takes the last root's place; the function goes after the caller.
        with ir.InsertionPoint(last_root):
            call = func.CallOp(result_types, ir.FlatSymbolRefAttr.get(name), inputs)
        with ir.InsertionPoint.after(caller):
            fn = func.FuncOp(name, ([v.type for v in inputs], result_types), visibility="private")
        fn.attributes[FUSION_KIND] = ir.StringAttr.get(kind)
        body = fn.add_entry_block()
        for old, new in zip(results, call.results):
            # Uses inside the group (a multi-output producer's) keep the value itself.
            outside = [(u.owner, u.operand_number) for u in old.uses if u.owner not in inside]
            for user, number in outside:
                user.operands[number] = new
        with ir.InsertionPoint(body):
            ret = func.ReturnOp(results)
    clones = {}
    for copy in group.copies:
        clones[copy] = copy.clone(ip=ir.InsertionPoint(ret))
    for op in group.members:
        op.move_before(ret)
    moved = list(group.members) + list(clones.values())
    remap = {v: a for v, a in zip(inputs, body.arguments)}
    for copy, clone in clones.items():
        for r_old, r_new in zip(copy.results, clone.results):
            remap[r_old] = r_new
    for op in moved:
        for i, operand in enumerate(op.operands):
            if operand in remap:
                op.operands[i] = remap[operand]
    for copy in reversed(group.copies):  # dead in the caller now (users before their operands)
        if unused(copy):
            copy.erase()
    if not describe:
        return None
    return {"name": name, "kind": kind, "ops": [op.name for op in moved],
            "inputs": [str(v.type) for v in inputs], "outputs": [str(t) for t in result_types]}
