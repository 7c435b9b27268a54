"""hlo.reduce -> linalg.fill of the init value, then a linalg.generic that combines
each input element into the output (reduction iterators on `dimensions`)."""

from __future__ import annotations

from mlir.dialects import linalg, tensor

from .registry import PARALLEL, REDUCTION, empty, generic, identity_map, lowering, projection
from .scalar import combine


@lowering("reduce")
def lower_reduce(op, sig):
    x, _ = sig.operand_types
    result_type = op.results[0].type
    dims = sig.attributes["dimensions"]
    kind = sig.attributes["kind"]
    init = linalg.fill(tensor.extract(op.operands[1], []), outs=[empty(result_type)])
    kept = [d for d in range(x.rank) if d not in dims]
    iterators = [REDUCTION if d in dims else PARALLEL for d in range(x.rank)]
    et = x.element_type
    return [generic([op.operands[0]], init, [identity_map(x.rank), projection(x.rank, kept)],
                    iterators, lambda v, acc: combine(kind, et, v, acc))]
