"""Pass `mlc-sequential-beside-blas`: the parallel loops of a function that calls OpenBLAS
run on one thread (OpenBLAS's own workers spin on the cores after a call)."""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..transforms.pass_base import Pass
from .blas import is_blas_call
from .loops import forall_bounds, nested_for


def calls_blas(function) -> bool:
    """Whether a function calls numpy's OpenBLAS (a call mlc-blas made)."""
    found = []

    def visit(op):
        if is_blas_call(op):
            found.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    function.operation.walk(visit)
    return bool(found)


@dataclass(frozen=True)
class SequentialBesideBlas(Pass):
    """Makes the parallel loops of a function that calls BLAS sequential (scf.forall ->
    scf.for).

    After a call OpenBLAS's own threads keep spinning on the cores for a while; measured
    here, a relu epilogue shared between two (async runtime) workers then took 2.1 ms instead of
    0.14 ms on one thread. BLAS already uses every core for the big operation.
    """

    name = "mlc-sequential-beside-blas"

    def run(self, module: ir.Operation) -> None:
        for function in module.regions[0].blocks[0].operations:
            if function.operation.name == "func.func" and len(function.regions[0].blocks) and calls_blas(function):
                loops = []

                def visit(op):
                    if op.name == "scf.forall" and not len(op.results):
                        loops.append(op)
                    return ir.WalkResult.ADVANCE

                function.operation.walk(visit)
                for loop in loops:
                    _forall_to_for(loop)


def _forall_to_for(forall) -> None:
    """scf.forall (%i, ...) in (...) on buffers (no shared outputs) -> nested scf.for."""
    body = forall.regions[0].blocks[0]
    bounds = forall_bounds(forall)
    if bounds is None:
        return  # dynamic bounds: left parallel

    def move_body(ivs, terminator):
        for arg, iv in zip(body.arguments, ivs):
            arg.replace_all_uses_with(iv)
        for op in list(body.operations)[:-1]:  # all but the scf.forall.in_parallel terminator
            op.operation.move_before(terminator)

    with ir.InsertionPoint(forall), forall.location:
        nested_for(bounds, move_body)
    forall.erase()
