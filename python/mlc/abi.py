"""The calling convention between compiled code and the runtime, in one place.

The compile pipeline produces, for each public function `f`, a C interface
`_mlir_ciface_f(in0*, ..., out0*, ..., [scratch*])` whose arguments are pointers to ranked
memref descriptors `{allocated, aligned, offset, sizes[rank], strides[rank]}`: the inputs,
then the results (destination-passing style: the caller allocates them), then, when the
function carries the `SCRATCH_ATTR` attribute, one byte buffer of that many bytes for its
temporaries (64-byte aligned, allocated once by the caller). The runtime calls it
directly, with one pointer per argument.

Code that runs parallel loops calls `PARALLEL_SYMBOL`, MLC's thread pool
(runtime/parallel_runtime.c): `void mlc_parallel_for(void (*body)(void *context, int64_t
block), void *context, int64_t blocks, int64_t threads)`. Nothing here imports the rest of MLC: the passes that produce
this convention and the runtime that calls it both import it from the bottom.
"""

from __future__ import annotations

SCRATCH_ATTR = "mlc.scratch_bytes"
SCRATCH_ALIGNMENT = 64
PARALLEL_SYMBOL = "mlc_parallel_for"


def c_interface(entry: str) -> str:
    """The symbol of `entry`'s C interface (one descriptor pointer per argument)."""
    return "_mlir_ciface_" + entry

