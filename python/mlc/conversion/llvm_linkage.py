"""Pass `mlc-llvm-linkage`: each function body reaches LLVM's code generator once.

The JIT (and the AOT export) adds a packed wrapper `_mlir_<f>` for every function with
external linkage, and the LLVM lowering adds the C interface `_mlir_ciface_<f>` of each
public one. At -O2 LLVM's inliner then copied the entry's body into each of its wrappers
(`main`, `_mlir_main`, `_mlir_ciface_main`, `_mlir__mlir_ciface_main`: four copies), and kept
a wrapped copy of every private helper beside its inlined uses, so instruction selection and
register allocation, most of a small program's compile, ran four times over. Measured on
softmax f32[256, 512]: the engine's compile 0.165 s -> 0.047 s, the object code 8.8 -> 2.1 KB,
the same machine code for the body. Three rules, on the LLVM dialect:

    llvm.func @h(...) {sym_visibility = "private", passthrough = ["alwaysinline"]} { body }
        -> llvm.func internal @h(...)    (no wrapper; dropped once inlined everywhere)

    llvm.func @f(...) {llvm.emit_c_interface} { body }      (f not a C interface itself)
        -> passthrough += ["noinline"]   (its wrappers call it; the body is compiled once)

    llvm.func @_mlir_ciface_f(...) { loads of the descriptors; call @f }
        -> passthrough += ["noinline", "optnone"]   (compiled at -O0: FastISel, no passes)

One call per program run is the cost of the second rule. The third saves LLVM's -O2 code
generation of a function that only forwards arguments (on sum(x * y + z) over 10^7: object
code 8.2-9.1 -> 7.4-7.7 ms; whole compiles of small programs ~1 ms less, within their
noise), for a few stores and reloads per call. Only helpers LLVM inlines become internal:
internal linkage also opens a function to -O2's interprocedural passes (argument
promotion, IPSCCP, dead-argument elimination over every call site), and on the `noinline`
pieces of mlc-split-functions that made a function returning 200 arrays compile in 11.0 s
instead of 4.6 s.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..abi import c_interface
from ..transforms.pass_base import Pass
from .inline_budget import PASSTHROUGH, passthrough_flags

C_INTERFACE_ATTR = "llvm.emit_c_interface"
INTERNAL = "#llvm.linkage<internal>"


def _is_definition(op: ir.Operation) -> bool:
    return len(op.regions) > 0 and len(op.regions[0].blocks) > 0


@dataclass(frozen=True)
class LlvmLinkage(Pass):
    """Private `alwaysinline` definitions get internal linkage; public ones with a C interface
    stay called from their wrappers (`noinline`); the wrappers are not optimized
    (`noinline`, `optnone`).

    Expects: the LLVM dialect. Produces: the same functions with `linkage` and `passthrough`
    attributes set; declarations unchanged.
    """

    name = "mlc-llvm-linkage"

    def run(self, module: ir.Operation) -> None:
        wrapper_prefix = c_interface("")
        for op in module.regions[0].blocks[0].operations:
            op = op.operation
            if op.name != "llvm.func" or not _is_definition(op):
                continue
            attributes = op.attributes
            if "sym_visibility" in attributes and ir.StringAttr(attributes["sym_visibility"]).value == "private":
                if "alwaysinline" in passthrough_flags(op):
                    attributes["linkage"] = ir.Attribute.parse(INTERNAL)
            elif ir.StringAttr(attributes["sym_name"]).value.startswith(wrapper_prefix):
                # A C wrapper only reads its descriptors and calls: no optimization needed.
                flags = [f for f in passthrough_flags(op) if f not in ("noinline", "optnone")]
                flags += ["noinline", "optnone"]
                attributes[PASSTHROUGH] = ir.ArrayAttr.get([ir.StringAttr.get(f) for f in flags])
            elif C_INTERFACE_ATTR in attributes:
                flags = passthrough_flags(op)
                if "noinline" not in flags and "alwaysinline" not in flags:
                    attributes[PASSTHROUGH] = ir.ArrayAttr.get([ir.StringAttr.get(f) for f in [*flags, "noinline"]])
