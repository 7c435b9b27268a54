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
from .block_graph import BlockGraph
from .hlo_dce import unused
from .hlo_verify import HloGraphPass

FUSION_KIND = "hlo.fusion_kind"
_ROOT_KINDS = {"input": "input", "output": "output"}   # fusion role of a root -> fusion kind


def role(op) -> str:
    """The op's fusion role from the op table (OpDef.fusion): elementwise, movement, gather,
    input (a reduction), output (a contraction), or "" (never fused)."""
    return role_of(op.name)


def role_of(name: str) -> str:
    """role() by op name."""
    found = _ROLES.get(name)
    if found is None:
        opdef = OPS.get(name.removeprefix("hlo.")) if name.startswith("hlo.") else None
        found = _ROLES[name] = opdef.fusion if opdef else ""
    return found


_ROLES: dict[str, str] = {}  # op name -> role (asked several times per op of a graph)

# The rules below ask about ops of a BlockGraph by number (`g` the graph, `i` an op).


def fusible_producer(g: BlockGraph, i: int) -> bool:
    """Elementwise ops, constants/iota, data movement and gathers fuse into their consumers."""
    return role_of(g.names[i]) in ("elementwise", "movement", "gather")


def fusible_root(g: BlockGraph, i: int) -> bool:
    """What may start a group: anything a producer may be, plus reductions and contractions."""
    return role_of(g.names[i]) != ""


def is_reduction_or_contraction(g: BlockGraph, i: int) -> bool:
    return role_of(g.names[i]) in _ROOT_KINDS


def is_contraction(g: BlockGraph, i: int) -> bool:
    return role_of(g.names[i]) == "output"


def keeps_operands_outside(g: BlockGraph, i: int) -> bool:
    """A contraction's operands would be recomputed once per output column, a gather's are read
    at data-dependent positions: both read materialized operands, never fused producers."""
    return role_of(g.names[i]) in ("output", "gather")


# Recomputation a group may add, as a fraction of the arithmetic it does anyway (the
# fused program's flops stay within 1.1x of the unfused program's).
RECOMPUTE_BUDGET = 0.1


def own_flops(g: BlockGraph, i: int) -> float:
    """An elementwise or movement op's arithmetic, computed once: cost x result elements
    (contractions and reductions count 0 here: they run once whatever their users do)."""
    opdef = OPS.get(g.names[i].removeprefix("hlo."))
    if opdef is None or opdef.fusion in _ROOT_KINDS:
        return 0.0
    return opdef.cost * sum(g.result_elements(i))


def reads_per_element(g: BlockGraph, consumer: int, operand_index: int) -> float:
    """How often one evaluation of each result element of `consumer` makes the fused kernel
    evaluate an element of operand `operand_index`: 1 for elementwise ops, the broadcast
    factor for broadcast_in_dim (a [512] operand broadcast to [512, 768] is read 768
    times per element), at most 1 for slices; a reduce reads each input element once."""
    if role_of(g.names[consumer]) == "input":
        return 1.0
    operand = g.operands[consumer][operand_index]
    return g.result_elements(consumer)[0] / max(g.elements(operand), 1)


def evaluations(g: BlockGraph, producer: int, multiplicity: dict) -> float:
    """How many times the fused kernel would evaluate each element of `producer`: the most,
    over its uses in the group, of the user's own evaluations times its reads per element.
    The fused loop computes a value once per iteration however many ops use it (upstream
    fusion keeps one copy of the producer's body: tanh used twice is one math.tanh in the
    fused generic), so only reading it through a broadcast repeats it (a reduction or
    contraction runs once)."""
    most = 0.0
    for user, number in g.users[producer]:
        if user in multiplicity:  # a use outside the group reads the stored result
            most = max(most, multiplicity[user] * reads_per_element(g, user, number))
    return most


def recompute_within_budget(extra: float, group_flops: float) -> bool:
    """The cost model: a producer joins only if the arithmetic repeated by recomputing it (and
    everything already repeated in the group) stays within RECOMPUTE_BUDGET of the group's
    own arithmetic. tanh read through a broadcast stays outside (materialized once); tanh
    or an add feeding two users in the group, a free reshape, join."""
    return extra <= RECOMPUTE_BUDGET * group_flops + 1e-9


def cheap_to_duplicate(g: BlockGraph, i: int) -> bool:
    """Constants, iota and broadcasts of a 0-d value cost nothing to recompute per consumer."""
    name = g.names[i]
    if name in ("hlo.constant", "hlo.iota"):
        return True
    return (name == "hlo.broadcast_in_dim"
            and ir.RankedTensorType(g.operands[i][0].type).rank == 0)


# Arithmetic duplicated elementwise producers may add to a function, as a fraction of the
# function's own. Small, since the fusions' recomputation (RECOMPUTE_BUDGET of each
# group's arithmetic) comes on top and the fused program must stay within 1.1x of the
# unfused one's flops; at 5% a random 12x20 graph reached 1.11x.
DUPLICATE_BUDGET = 0.02


def cheap_elementwise(g: BlockGraph, i: int) -> bool:
    """An elementwise op of at most one add's cost per element (add, multiply, compare,
    select, convert ...: the op table's `cost`), not a transcendental or a division."""
    name = g.names[i]
    return role_of(name) == "elementwise" and OPS[name.removeprefix("hlo.")].cost <= 1.0


def reads_materialized(g: BlockGraph, i: int, grouped: set) -> bool:
    """Every operand of op `i` is a function argument or the result of an op that is
    materialized anyway (a reduction, a contraction, an op no fusion takes) and not
    `grouped` into a fusion, so a copy of the op in a fusion reads the same buffers the
    original does."""
    for owner in g.producers[i]:
        if owner is None or cheap_to_duplicate(g, owner):  # (a constant is copied along)
            continue
        if role_of(g.names[owner]) not in ("input", "output", "") or owner in grouped:
            return False
    return True


def function_flops(g: BlockGraph) -> float:
    """The arithmetic of a function's ops (what the duplication budget is a fraction of):
    elementwise cost x elements, a reduction's input elements, a contraction's 2 x output
    elements x contracted size."""
    total = 0.0
    for i in range(g.size):
        r = role_of(g.names[i])
        if r == "input":
            total += g.elements(g.operands[i][0])
        elif r == "output" and g.names[i] == "hlo.dot_general":
            op = g.ops[i]
            lhs = ir.RankedTensorType(g.operands[i][0].type).shape
            contracted = math.prod(lhs[d] for d in ir.DenseI64ArrayAttr(op.attributes["lhs_contracting_dimensions"]))
            total += 2.0 * g.result_elements(i)[0] * contracted
        elif r in ("elementwise", "movement"):
            total += own_flops(g, i)
    return total


def reduction_with_epilogue(g: BlockGraph, producer: int, members: set) -> bool:
    """A reduce joins the group of its elementwise consumers when they all work on the
    reduce's result shape (mean = sum / n, rsqrt(var + eps)): the epilogue then runs once
    per result element, after the reduction loop, in the same "input" fusion."""
    if role_of(g.names[producer]) != "input":
        return False
    shape = ir.RankedTensorType(g.ops[producer].results[0].type).shape
    return all(fusible_producer(g, m) and all(ir.RankedTensorType(r.type).shape == shape for r in g.ops[m].results)
               for m in members)


def all_users_inside(g: BlockGraph, i: int, members: set) -> bool:
    return all(user in members for user, _ in g.users[i])


def top_level(op):
    """The op of the function body that holds `op` (itself, or the region op around it)."""
    while op.parent is not None and op.parent.operation.name != "func.func":
        op = op.parent.operation
    return op


def used_only_after(g: BlockGraph, producer: int, members: set, root: int) -> bool:
    """Producer-consumer multi-output fusion (XLA's): a producer whose users outside the group
    all come after the group's root (a func.return, a later kernel) joins the group as one
    more result, `p = f(x); r = g(p); return p, r -> call @fusion(x) -> (p, r)`: the kernel
    writes p once instead of a second kernel reading it back. No user before the root, so
    none of them can feed the group (no cycle) and the call can sit at the root's place.
    (An op's number is its position; a user in a region counts as the op holding it.)"""
    top = g.top
    return all(user in members or top[user] > root for user, _ in g.users[producer])


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


def form_groups(block: ir.Block, max_size: int) -> list[Group]:
    """The fusions of `block`'s ops (Groups of ops, in program order)."""
    g = BlockGraph(block)  # (the IR does not change here: its facts are read once)
    groups = [Group([g.ops[i] for i in group.roots], [g.ops[i] for i in group.members],
                    [g.ops[i] for i in group.copies])
              for group in _numbered_groups(g, max_size)]
    return groups


def _numbered_groups(g: BlockGraph, max_size: int) -> list[Group]:
    """form_groups on the graph: Groups of op numbers."""
    assigned: set = set()
    # Ops copied into a group stay in the caller too, so they never
    # become a member or root of another group.
    copied: set = set()
    groups: list[Group] = []
    # Cheap elementwise producers copied into each consumer fusion (XLA duplicates them
    # too): `s = dot * 0.125` read by softmax's max and exp-sum fusions is computed in both
    # instead of written by one and read back by the other. Within DUPLICATE_BUDGET.
    duplicate_budget = None
    for op in reversed(range(g.size)):
        if op in assigned or op in copied or not fusible_root(g, op) or len(g.ops[op].regions):
            continue
        group = Group([op], [op])
        members = {op}
        multiplicity = {op: 1.0}       # evaluations per result element (see `evaluations`)
        flops, extra = own_flops(g, op), 0.0
        assigned.add(op)
        frontier = [op]
        while frontier and len(members) < max_size:
            consumer = frontier.pop()
            if keeps_operands_outside(g, consumer):
                continue
            for producer in g.producers[consumer]:
                if producer is None or producer in members or producer in assigned:
                    continue
                if producer >= g.size:  # (not an op of the block)
                    continue
                contraction = is_contraction(g, producer)
                epilogue = reduction_with_epilogue(g, producer, members)
                if (contraction or epilogue) and any(is_reduction_or_contraction(g, m) for m in members):
                    continue  # one reduction or contraction per fusion
                if not (fusible_producer(g, producer) or contraction or epilogue):
                    continue
                # (a copied op's uses are not read here: it never joins)
                inside = producer not in copied and all_users_inside(g, producer, members)
                if producer not in copied and (inside or (fusible_producer(g, producer) and used_only_after(
                        g, producer, members, op))):
                    times = (1.0 if is_reduction_or_contraction(g, producer)
                             else evaluations(g, producer, multiplicity))
                    own = own_flops(g, producer)
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
                elif cheap_to_duplicate(g, producer):
                    group.copies.append(producer)
                    copied.add(producer)
                elif cheap_elementwise(g, producer) and reads_materialized(g, producer, assigned):
                    if duplicate_budget is None:
                        duplicate_budget = DUPLICATE_BUDGET * function_flops(g)
                    cost = own_flops(g, producer) * max(evaluations(g, producer, multiplicity), 1.0)
                    if cost <= duplicate_budget:
                        duplicate_budget -= cost
                        for operand in g.producers[producer]:  # its constants first
                            if operand is not None and cheap_to_duplicate(g, operand) and operand not in group.copies:
                                group.copies.append(operand)
                                copied.add(operand)
                        group.copies.append(producer)
                        copied.add(producer)
        group.members = sorted(members)  # program order (an op's number is its position)
        group.roots.sort()
        if len(group.members) + len(group.copies) >= 2:  # one op alone is no fusion
            groups.append(group)
    return merge_siblings(list(reversed(groups)), g, max_size)


# Sibling fusion pays when the shared input is big enough to matter.
SIBLING_MIN_ELEMENTS = 1024


def _inputs(g: BlockGraph, group: Group) -> set:
    """The values a group reads from outside it."""
    inside = set(group.members) | set(group.copies)
    return {v for i in group.ops() for v, owner in zip(g.operands[i], g.producers[i]) if owner not in inside}


def _is_large(value: ir.Value) -> bool:
    t = value.type
    return isinstance(t, ir.RankedTensorType) and t.has_static_shape and math.prod(t.shape) >= SIBLING_MIN_ELEMENTS


def _large_inputs(g: BlockGraph, group: Group) -> set:
    return {v for v in _inputs(g, group) if _is_large(v)}


def _shared_large_input(g: BlockGraph, a: Group, b: Group) -> bool:
    return bool(_large_inputs(g, a) & _large_inputs(g, b))


def _downstream(g: BlockGraph, group: Group) -> set:
    """Every op of the block that (transitively) uses a result of the group (a use inside a
    region counts as the op of the block that holds it)."""
    seen, pending = set(), list(group.roots)
    while pending:
        for user, _ in g.users[pending.pop()]:
            top = g.top[user]
            if top not in seen:
                seen.add(top)
                pending.append(top)
    return seen


def siblings_can_merge(g: BlockGraph, a: Group, b: Group, max_size: int,
                       shares_large_input: bool | None = None) -> bool:
    """Multi-output (sibling) fusion: two fusions reading the same large input merge into one
    with two results when neither depends on the other (no cycle), the merged group fits
    `max_size` and holds at most one reduction or contraction per sibling, and one call
    site works: after every input of both, before every outside use of either.
    (`shares_large_input`, when the caller knows it already, saves recomputing it.)"""
    if len(a.members) + len(b.members) + len(a.copies) + len(b.copies) > max_size:
        return False
    if not (_shared_large_input(g, a, b) if shares_large_input is None else shares_large_input):
        return False
    if set(b.members) & _downstream(g, a) or set(a.members) & _downstream(g, b):
        return False
    call_site = max(a.roots + b.roots)  # (an op's number is its position)
    inside = set(a.members) | set(b.members)
    for group in (a, b):
        for root in group.roots:
            for user, _ in g.users[root]:
                top = g.top[user]
                if top not in inside and top <= call_site:
                    return False
    return True


def merge_siblings(groups: list[Group], g: BlockGraph, max_size: int) -> list[Group]:
    """Greedily merges sibling groups (see siblings_can_merge), in program order: each group
    merges into the first earlier (merged) group it can.

    Only groups that share a large input can merge, so the candidates of a group are found
    through an index from each large input to the merged groups that read it (in merged
    order), instead of testing every pair: linear in the number of groups when they share
    nothing (a function with a thousand small results)."""
    merged: list[Group] = []
    large: list[set] = []                # large inputs of merged[i]
    readers: dict = {}                   # large input -> indices into merged, ascending
    for group in groups:
        group_large = _large_inputs(g, group)
        candidates = sorted(i for i in {i for v in group_large for i in readers.get(v, ())}
                            if large[i] & group_large)  # (a merge may have made v internal)
        for i in candidates:
            existing = merged[i]
            if siblings_can_merge(g, existing, group, max_size, shares_large_input=True):
                existing.roots = sorted(existing.roots + group.roots)
                existing.members = sorted(set(existing.members) | set(group.members))
                existing.copies += [c for c in group.copies if c not in existing.copies]
                now = _large_inputs(g, existing)  # a copy of one sibling may feed the other
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

    Expects hlo in func.func bodies, and in the scf regions in them (lax.cond, while_loop:
    each block fused on its own). Produces: the same, with each fusion moved into a
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
        index = 0
        for block in _blocks(fn.regions[0].blocks[0]):
            for group in form_groups(block, max_size):
                fusion = _outline_group(group, function_name, index, fn, describe)
                index += 1
                if describe:
                    fusions.append(fusion)
    return fusions


def _blocks(body: ir.Block) -> list[ir.Block]:
    """`body` and the blocks of the control flow in it (lax.cond's scf.if, while_loop's
    scf.while, at any depth): each is fused on its own, its values from outside as inputs."""
    found = [body]
    for op in body.operations:
        op = op.operation
        if op.name.startswith("scf."):
            for region in op.regions:
                for block in region.blocks:
                    found += _blocks(block)
    return found


def _outline_group(group: Group, function_name: str, index: int, caller, describe: bool = True) -> dict | None:
    inside = set(group.members)
    inputs: list[ir.Value] = []
    operands = {}  # op -> its operands, read once (moving ops and the call change none of them)
    defined = set()  # the group's own values (cheaper to ask than each operand's defining op)
    for op in group.ops():
        defined.update(op.results)
    for op in group.ops():
        values = operands[op] = list(op.operands)
        for value in values:
            if value in defined:
                continue
            if value not in inputs:
                inputs.append(value)
    last_root = group.roots[-1]  # (roots are in program order)
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
    originals = list(group.members) + list(clones)  # (a clone reads what its original does)
    for op, original in zip(moved, originals):
        for i, operand in enumerate(operands[original]):
            if operand in remap:
                op.operands[i] = remap[operand]
    for copy in reversed(group.copies):  # dead in the caller now (users before their operands)
        if unused(copy):
            copy.erase()
    if not describe:
        return None
    return {"name": name, "kind": kind, "ops": [op.name for op in moved],
            "inputs": [str(v.type) for v in inputs], "outputs": [str(t) for t in result_types]}
