"""Pass `mlc-buffer-deallocation`: upstream's buffer-deallocation-pipeline, then i1
ownership buffers as bytes (mlc-bool-to-byte), when the module allocates a buffer.

    %t = memref.alloc() : memref<64xf32>   ...   (last use)
  ->
    %t = memref.alloc() : memref<64xf32>   ...   memref.dealloc %t   (ownership-based)

By the time this runs (after mlc-preallocate-temporaries) a program's temporaries are views
of the one scratch buffer its caller passes: most modules allocate nothing, and the
pipeline (three canonicalizations, ownership analysis, CSE) then only costs time, 1-2.5 ms
of each compile. A module with no `memref.alloc` or `memref.realloc` is left as it is (the
stack buffers of memref.alloca need no freeing); one that has them gets the whole pipeline
and the retyping of the i1 ownership buffers it makes.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir, passmanager

from ..transforms.pass_base import Pass
from .bool_to_byte import BoolToByte

PIPELINE = "builtin.module(buffer-deallocation-pipeline)"
# What the pipeline does to a module that allocates nothing: its cleanups.
CLEANUP = "builtin.module(canonicalize,cse)"
ALLOCATING = ("memref.alloc", "memref.realloc")


def allocates(module: ir.Operation) -> bool:
    """Whether an op of the module allocates heap memory it must free."""
    found = []

    def visit(op):
        if op.name in ALLOCATING:
            found.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    module.walk(visit)
    return bool(found)


@dataclass(frozen=True)
class BufferDeallocation(Pass):
    """Frees every heap buffer the module allocates before it is lost (upstream's
    buffer-deallocation-pipeline), then stores the i1 ownership flags it made as bytes;
    nothing when the module allocates nothing.

    Expects: memrefs in destination-passing style (after buffer-results-to-out-params).
    Produces: memref.dealloc after each allocated buffer's last use; no i1 memrefs.
    """

    name = "mlc-buffer-deallocation"

    def run(self, module: ir.Operation) -> None:
        if not allocates(module):
            passmanager.PassManager.parse(CLEANUP, context=module.context).run(module)
            return
        passmanager.PassManager.parse(PIPELINE, context=module.context).run(module)
        BoolToByte().run(module)
