"""hlo.constant -> arith.constant (a dense tensor); hlo.iota -> linalg.generic over linalg.index."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, linalg

from ...dialects.hlo.types import is_float
from .registry import PARALLEL, empty, generic, identity_map, lowering


@lowering("constant")
def lower_constant(op, sig):
    return [arith.constant(op.results[0].type, sig.attributes["value"])]


@lowering("iota")
def lower_iota(op, sig):
    result_type = op.results[0].type
    et = result_type.element_type
    dim = sig.attributes["iota_dimension"]

    def body(_out):
        index = linalg.IndexOp(dim).result  # linalg.index is shadowed by opdsl
        if is_float(et):
            return arith.sitofp(et, arith.index_cast(ir.IntegerType.get_signless(64), index))
        return arith.index_cast(et, index)

    rank = result_type.rank
    return [generic([], empty(result_type), [identity_map(rank)], [PARALLEL] * rank, body)]
