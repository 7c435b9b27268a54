"""The calling convention between compiled code and the runtime, in one place.

The compile pipeline produces, for each public function `f`, a C interface
`_mlir_ciface_f(in0*, ..., out0*, ..., [scratch*])` whose arguments are pointers to ranked
memref descriptors `{allocated, aligned, offset, sizes[rank], strides[rank]}`: the inputs,
then the results (destination-passing style: the caller allocates them), then, when the
function carries the `SCRATCH_ATTR` attribute, one byte buffer of that many bytes for its
temporaries (64-byte aligned, allocated once by the caller). The runtime calls it
directly, with one pointer per argument, up to MAX_DIRECT_ARGUMENTS of them; an entry with
more (a training step over hundreds of parameters) is called through `packed_interface(f)`,
`void _mlc_packed_f(void **arguments)`, a trampoline compiled beside it
(`packed_interface_ir`) that passes the table's pointers on.

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


# The most arguments an entry is called with directly. ctypes cannot pass more than 1,024;
# before that, each direct argument costs the call ~60 ns of conversion, where the packed
# table is one pointer (a 302-argument SGD step: 84-94 -> 68-78 us per raw call) and the
# trampoline ~1.2 ms + 6.5 us per argument of compile, once (2.8 ms at 302 arguments).
MAX_DIRECT_ARGUMENTS = 255


def packed_interface(entry: str) -> str:
    """The symbol of `entry`'s packed interface: one pointer to a table of the C interface's
    arguments."""
    return "_mlc_packed_" + entry


def argument_count(inputs, outputs, scratch_bytes: int | None) -> int:
    """The pointers an entry's C interface takes: inputs, results, the scratch buffer."""
    return len(inputs) + len(outputs) + (scratch_bytes is not None)


def uses_packed_interface(arguments: int) -> bool:
    """Whether an entry whose C interface takes `arguments` pointers is called packed."""
    return arguments > MAX_DIRECT_ARGUMENTS


def called_symbol(entry: str, arguments: int) -> str:
    """The symbol the runtime calls for `entry`: its C interface, or past the limit its
    packed interface."""
    return packed_interface(entry) if uses_packed_interface(arguments) else c_interface(entry)


def packed_interface_ir(entry: str, arguments: int) -> str:
    """LLVM IR of `entry`'s packed interface: loads the table's `arguments` pointers and
    calls the C interface with them."""
    target = c_interface(entry)
    lines = [f'declare void @"{target}"({", ".join(["ptr"] * arguments)})', "",
             f'define void @"{packed_interface(entry)}"(ptr %table) {{']
    for i in range(arguments):
        lines += [f"  %a{i} = getelementptr inbounds ptr, ptr %table, i64 {i}",
                  f"  %p{i} = load ptr, ptr %a{i}, align 8"]
    lines += [f'  call void @"{target}"({", ".join(f"ptr %p{i}" for i in range(arguments))})',
              "  ret void", "}", ""]
    return "\n".join(lines)
