"""Multi-output kernel merging: the loop nests of one hlo fusion that upstream elementwise
fusion leaves apart become one linalg.generic with several results.

Upstream `linalg-fuse-elementwise-ops` fuses a producer into its consumer only when the
producer has one use. In a multi-output fusion (hlo-fuse's producer-consumer or sibling
fusion) a value that leaves the fusion also feeds the rest of it, so upstream leaves two
loops, and the second reads back what the first wrote (an Adam step: m' and v' written,
then read again to compute w'). Two rules, applied until nothing changes:

  producer-consumer:  %p = generic ins(%a) {f}        %p, %c = generic ins(%a, %b) {
                      %c = generic ins(%p, %b) {g}  ->   x = f(a); yield x, g(x, b) }
  siblings:           %p = generic ins(%a) {f}        %p, %q = generic ins(%a, %b) {
                      %q = generic ins(%b) {g}      ->   yield f(a), g(b) }

Both only for all-parallel generics over the same iteration space whose results are
written through identity maps (every element of the space written once, in the same
order), and, for the consumer, reading the producer's result through the identity map
(element i of the consumer needs element i of the producer, which the merged body has
just computed), and never when the later op's body reads the earlier op's results itself
(a gather's tensor.extract at any index). The merged op takes the later op's place, so
every other user of the earlier op's results must come after it.
"""

from __future__ import annotations

from mlir import ir

from ..destination_style import num_inputs
from ..transforms.hlo_fuse import top_level

_GENERIC = "linalg.generic"


def _parallel_identity(op) -> tuple | None:
    """(rank, bounds) of an all-parallel generic whose outputs use identity maps; else None."""
    if op.name != _GENERIC or len(op.regions[0].blocks) != 1:
        return None
    iterators = [str(a) for a in ir.ArrayAttr(op.attributes["iterator_types"])]
    if any("parallel" not in it for it in iterators):
        return None
    maps = _maps(op)
    n_in = num_inputs(op)
    outputs = list(op.operands)[n_in:]
    if not outputs:
        return None
    for m, value in zip(maps[n_in:], outputs):
        if not (m.is_permutation and m == ir.AffineMap.get_identity(m.n_dims)):
            return None
        if not isinstance(value.type, ir.RankedTensorType):
            return None
    return tuple(ir.RankedTensorType(outputs[0].type).shape)


def _maps(op) -> list:
    return [ir.AffineMapAttr(a).value for a in ir.ArrayAttr(op.attributes["indexing_maps"])]


def _top_level_users(op, block_position: dict) -> list[int]:
    """Positions (in the function block) of every op that uses a result of `op`."""
    return [block_position.get(top_level(use.owner.operation), -1) for r in op.results for use in r.uses]


def _merge(first, second) -> ir.Operation:
    """One generic computing `first`'s and `second`'s results; `second`'s inputs that are
    `first`'s results (read through the identity map) become the values `first`'s body
    yields. Placed at `second`, which must come after `first`."""
    n1, n2 = num_inputs(first), num_inputs(second)
    ops1, ops2 = list(first.operands), list(second.operands)
    maps1, maps2 = _maps(first), _maps(second)
    produced = {r: i for i, r in enumerate(first.results)}
    keep2 = [i for i in range(n2) if ops2[i] not in produced]
    inputs = ops1[:n1] + [ops2[i] for i in keep2]
    outputs = ops1[n1:] + ops2[n2:]
    maps = maps1[:n1] + [maps2[i] for i in keep2] + maps1[n1:] + maps2[n2:]
    result_types = [r.type for r in first.results] + [r.type for r in second.results]
    with second.location, ir.InsertionPoint(second):
        merged = ir.Operation.create(
            _GENERIC, results=result_types, operands=inputs + outputs,
            attributes={"indexing_maps": ir.ArrayAttr.get([ir.AffineMapAttr.get(m) for m in maps]),
                        "iterator_types": first.attributes["iterator_types"],
                        "operandSegmentSizes": ir.DenseI32ArrayAttr.get([len(inputs), len(outputs)])},
            regions=1)
    body1, body2 = first.regions[0].blocks[0], second.regions[0].blocks[0]
    args1, args2 = list(body1.arguments), list(body2.arguments)
    arg_types = ([a.type for a in args1[:n1]] + [args2[i].type for i in keep2]
                 + [a.type for a in args1[n1:]] + [a.type for a in args2[n2:]])
    body = merged.regions[0].blocks.append(*arg_types, arg_locs=[second.location] * len(arg_types))
    new_args = list(body.arguments)
    k = len(keep2)
    remap1 = dict(zip(args1[:n1], new_args[:n1])) | dict(zip(args1[n1:], new_args[n1 + k:n1 + k + len(args1) - n1]))
    remap2 = dict(zip([args2[i] for i in keep2], new_args[n1:n1 + k]))
    remap2 |= dict(zip(args2[n2:], new_args[n1 + k + len(args1) - n1:]))
    yielded = []
    with ir.InsertionPoint(body):
        for src, remap, out in ((body1, remap1, yielded), (body2, remap2, yielded)):
            if src is body2:  # the producer's results, read elementwise, are its yielded values
                for i in range(n2):
                    if ops2[i] in produced:
                        remap[args2[i]] = yielded[produced[ops2[i]]]
            for op in src.operations:
                if op.name == "linalg.yield":
                    out.extend(remap.get(v, v) for v in op.operands)
                    continue
                clone = op.operation.clone()
                for i, v in enumerate(clone.operands):
                    if v in remap:
                        clone.operands[i] = remap[v]
                for old, new in zip(op.results, clone.results):
                    remap[old] = new
        ir.Operation.create("linalg.yield", operands=yielded)
    for old, new in zip(list(first.results) + list(second.results), merged.results):
        old.replace_all_uses_with(new)
    second.erase()
    first.erase()
    return merged


def _can_merge(first, second, position: dict, shapes: dict) -> bool:
    """`first` before `second`, same parallel identity-written space, no other use of
    `first` between them, and `second` reads `first`'s results only elementwise (identity)."""
    if shapes[first] != shapes[second]:
        return False
    if _maps(first)[0].n_dims != _maps(second)[0].n_dims:
        return False
    n2 = num_inputs(second)
    produced = set(first.results)
    maps2 = _maps(second)
    for i, value in enumerate(list(second.operands)):
        if value in produced and (i >= n2 or maps2[i] != ir.AffineMap.get_identity(maps2[i].n_dims)):
            return False
    # `second`'s body must not read `first`'s results itself (a gather's tensor.extract):
    # merged, it would read the results of the op it is in, elements not computed yet.
    for result in first.results:
        for use in result.uses:
            owner = use.owner.operation
            if owner != second and top_level(owner) == second:
                return False
    # The merged op sits at `second`: every other user of `first` must come after it.
    here = position[second]
    return all(p >= here for p in _top_level_users(first, position))


def merge_kernels(fn) -> int:
    """Merges generics in `fn`'s body, each with the nearest earlier one it consumes from or
    shares an input with, until none merges; returns how many merges happened."""
    block = fn.regions[0].blocks[0]
    merges = 0
    changed = True
    while changed:
        changed = False
        ops = [o.operation for o in block.operations]
        position = {op: i for i, op in enumerate(ops)}
        shapes = {op: _parallel_identity(op) for op in ops}  # (None: not mergeable)
        generics = [op for op in ops if shapes[op] is not None]
        for i, second in enumerate(generics):
            for first in reversed(generics[:i]):
                consumer = any(v.owner == first for v in second.operands
                               if isinstance(v.owner, (ir.Operation, ir.OpView)))
                if not consumer and not _siblings(first, second):
                    continue
                if _can_merge(first, second, position, shapes):
                    _merge(first, second)
                    merges += 1
                    changed = True
                    break
            if changed:
                break
    return merges


def _siblings(first, second) -> bool:
    """Independent generics worth merging: they read a common input (read once when merged);
    `second` not reading `first` is the caller's test, users in between are _can_merge's."""
    n1, n2 = num_inputs(first), num_inputs(second)
    shared = set(list(first.operands)[:n1]) & set(list(second.operands)[:n2])
    return any(isinstance(v.type, ir.RankedTensorType) and v.type.rank > 0 for v in shared)
