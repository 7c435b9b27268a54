"""Pass `hlo-combine-collectives`: independent all_reduces of one kind and element type
become one all_reduce of their operands packed into one buffer (XLA's all-reduce combiner).

A data-parallel step all-reduces every parameter's gradient: one MPI call each, each
paying the collective's latency (and MLC's agreement check) again. Packed, there is one
call: the operands are flattened, concatenated (tensor.concat), reduced together, and each
result is a slice of the reduced buffer reshaped back.

All_reduces are combined within one block (a function body, or one scf region's), never
across blocks, and only ones that do not depend on each other: an all_reduce whose operand is computed from
the result of another one in the group starts a new group. The combined op stands where
the group's last member stood; ops between the members that use an earlier member's
result move after it, in their order (they cannot feed a later member: that member would
depend on the group). A group holds at most `threshold-bytes` of operands; an operand
larger than that stays alone. Expects and produces hlo with func/scf/tensor.

What packing costs, measured (benchmarks/results/allreduce.md, 50 tensors, 19 MiB): the
concatenation is one copy in; the all_reduce then runs in place on that buffer (it is dead
afterwards, so bufferization copies nothing more) and the slices are read where they are
used (the pmean's scaling writes the results). One all_reduce per tensor moves the same
bytes (each operand copied into its result, reduced there in place) but pays the check and
MPI's latency 50 times: on the shared 2-core machine the packed form was faster at every
load measured. It was slower (27 vs 21 ms) only while the all_reduce still copied its
operand again and its check spun without yielding. The default threshold (32 MiB, as
XLA's) bounds the packed buffer (it lives in the function's scratch memory), not the speed.
Producers cannot yet write straight into the packed buffer: tensor.concat bufferizes to
copies, and each gradient reaches it through a reshape to 1-d.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mlir import ir
from mlir.dialects import tensor

from ..dialects import hlo
from .hlo_verify import HloGraphPass


def _byte_size(t: ir.RankedTensorType) -> int:
    e = t.element_type
    width = ir.FloatType(e).width if isinstance(e, ir.FloatType) else ir.IntegerType(e).width
    return _count(t) * max(1, width // 8)


def _used_values(op: ir.Operation) -> list[ir.Value]:
    """The operands of `op` and of every op nested in its regions."""
    values = list(op.operands)
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                values += _used_values(inner.operation)
    return values


@dataclass
class _Group:
    members: list = field(default_factory=list)
    tainted: set = field(default_factory=set)  # values computed from a member's result
    bytes: int = 0


def _groups(block: ir.Block, threshold: int) -> list[list[ir.Operation]]:
    """Runs of independent all_reduces with one (kind, element type), in block order."""
    open_groups: dict[tuple[str, str], _Group] = {}
    done: list[_Group] = []
    for view in block.operations:
        op = view.operation
        used = _used_values(op)
        for group in open_groups.values():
            if any(v in group.tainted for v in used):
                group.tainted.update(op.results)
        if op.name != "hlo.all_reduce":
            continue
        t = ir.RankedTensorType(op.operands[0].type)
        key = (ir.StringAttr(op.attributes["kind"]).value, str(t.element_type))
        size = _byte_size(t)
        group = open_groups.get(key)
        if group is None or op.operands[0] in group.tainted or group.bytes + size > threshold:
            if group is not None:
                done.append(group)
            group = open_groups[key] = _Group()
        group.members.append(op)
        group.tainted.add(op.results[0])
        group.bytes += size
    done += open_groups.values()
    return [g.members for g in done if len(g.members) > 1]


def _combine(members: list[ir.Operation]) -> None:
    block = members[-1].block
    ops = [v.operation for v in block.operations]
    first, last = ops.index(members[0]), ops.index(members[-1])
    results = {m.results[0] for m in members}
    # Ops between the members that use a member's result (directly or through each other).
    movers, tainted = [], set(results)
    for op in ops[first:last]:
        if op in members:
            continue
        if any(v in tainted for v in _used_values(op)):
            movers.append(op)
            tainted.update(op.results)
    kind = ir.StringAttr(members[-1].attributes["kind"]).value
    types = [ir.RankedTensorType(m.operands[0].type) for m in members]
    counts = [_count(t) for t in types]
    element = types[0].element_type
    after = ops[last + 1]  # there is one: a block ends with its terminator
    with ir.InsertionPoint(after), members[-1].location:
        flat = [m.operands[0] if len(t.shape) == 1 else hlo.reshape(m.operands[0], [n])
                for m, t, n in zip(members, types, counts)]
        packed = tensor.concat(ir.RankedTensorType.get([sum(counts)], element), 0, flat)
        reduced = hlo.all_reduce(packed, kind)
        start = 0
        for m, t, n in zip(members, types, counts):
            piece = hlo.slice(reduced, [start], [start + n], [1])
            m.results[0].replace_all_uses_with(piece if len(t.shape) == 1 else hlo.reshape(piece, list(t.shape)))
            start += n
    for op in movers:
        op.move_before(after)
    for m in members:
        m.erase()


def _count(t: ir.RankedTensorType) -> int:
    n = 1
    for size in t.shape:
        n *= size
    return n


def combine_collectives(root: ir.Operation, threshold: int) -> int:
    """Combines the all_reduces of every block under `root`; returns how many it removed."""
    removed = 0
    if threshold <= 0:
        return 0
    for region in root.regions:
        for block in region.blocks:
            for op in [v.operation for v in block.operations]:
                removed += combine_collectives(op, threshold)
            for members in _groups(block, threshold):
                _combine(members)
                removed += len(members) - 1
    return removed


@dataclass(frozen=True)
class HloCombineCollectives(HloGraphPass):
    """Packs independent all_reduces of one kind and element type into one (XLA's combiner).

    Expects and produces hlo with func/scf/tensor: the operands are flattened and
    concatenated (tensor.concat), reduced by one hlo.all_reduce, and sliced back. Option
    threshold-bytes (default: CompileOptions.combine_threshold_bytes, 32 MiB) caps a
    combined all_reduce's size; 0 combines nothing.
    """

    name = "hlo-combine-collectives"
    threshold_bytes: int = 32 << 20

    def __post_init__(self):
        if self.threshold_bytes < 0:
            raise ValueError(f"option threshold-bytes must be >= 0, got {self.threshold_bytes}")

    def run(self, module: ir.Operation) -> None:
        self.check_input(module)
        combine_collectives(module, self.threshold_bytes)
