"""Pass `mlc-merge-functions`: private functions with the same body become one, so LLVM
compiles each distinct body once (as LLVM's own MergeFunctions, but before LLVM: that pass
runs after the -O2 pipeline has optimized every copy, and is not in it).

    llvm.func @k_0(%a: !llvm.ptr, ...) attributes {sym_visibility = "private"} { body }
    llvm.func @k_1(%a: !llvm.ptr, ...) attributes {sym_visibility = "private"} { body }
  ->
    llvm.func @k_0(...) { body }          (calls and addresses of @k_1 now name @k_0)

Two kernels of the same shapes (a ResNet block's two 3x3 convolutions, each outlined by the
mlc-parallel-outline or mlc-split-functions) are the same function but for the buffers they get
as arguments. Functions are equal when their printed form is, with their own name taken
out; a merge can make their callers equal in turn (two parallel dispatchers that now call
the same body), so it repeats until nothing changes. Public functions (entries and their C
interfaces) keep their names and bodies.

Printing is the cost (an LLVM-dialect function about 0.3 ms; the renames are one walk of
the module for all of them, `_rename_uses`), and the pipeline runs the pass twice: on
mlc-split-functions' parts, then on the LLVM dialect. A function the first run left unique
is marked UNIQUE; the next run compares only unmarked ones at first (a lowered part does
not become equal to another), and everything once something merged (its callers may now
be equal).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from ..transforms.pass_base import Pass

FUNCTIONS = ("llvm.func", "func.func")
UNIQUE = "mlc.unique_body"  # left unique by an earlier run (module docstring)


def _name(op: ir.Operation) -> str:
    return ir.StringAttr(op.attributes["sym_name"]).value


def _mergeable(op: ir.Operation) -> bool:
    """A private definition: its callers are all in this module."""
    if op.name not in FUNCTIONS or not len(op.regions[0].blocks):
        return False
    attributes = op.attributes
    if "sym_visibility" in attributes and ir.StringAttr(attributes["sym_visibility"]).value == "private":
        return True
    return "linkage" in attributes and str(attributes["linkage"]) in ("#llvm.linkage<internal>",
                                                                      "#llvm.linkage<private>")


def _body_key(op: ir.Operation) -> str:
    """The function's text with its own name taken out (a recursive function, which names
    itself inside, keeps a key of its own). Printed in its local scope: the default scope
    is the whole module, walked again for every function printed."""
    text = op.get_asm(large_elements_limit=None, use_local_scope=True, assume_verified=True)
    return text.replace(f"@{_name(op)}(", "@(", 1)


def _shape_key(op: ir.Operation) -> tuple:
    """A cheap key equal functions share: their type and the ops of their entry block."""
    return (str(op.attributes["function_type"]),
            tuple(o.operation.name for o in op.regions[0].blocks[0].operations))


@dataclass(frozen=True)
class MergeFunctions(Pass):
    """Replaces each private function whose body equals an earlier one's by that one: uses
    of its symbol renamed, the duplicate erased; repeated until no two are equal.

    Expects: func.func or llvm.func definitions. Produces: the same module with one
    definition per distinct private body.
    """

    name = "mlc-merge-functions"

    def run(self, module: ir.Operation) -> None:
        if self._merge_once(module, skip_unique=True):
            while self._merge_once(module, skip_unique=False):
                pass
        for op in module.regions[0].blocks[0].operations:
            if _mergeable(op.operation):
                op.operation.attributes[UNIQUE] = ir.UnitAttr.get()

    @staticmethod
    def _merge_once(module: ir.Operation, skip_unique: bool) -> bool:
        groups: dict[tuple, list[ir.Operation]] = {}
        for op in module.regions[0].blocks[0].operations:
            op = op.operation
            if _mergeable(op) and not (skip_unique and UNIQUE in op.attributes):
                groups.setdefault(_shape_key(op), []).append(op)
        first: dict[str, str] = {}  # body key -> the name of the function kept
        duplicates: list[tuple[ir.Operation, str]] = []
        for group in groups.values():
            if len(group) < 2:
                continue  # (printing is the cost: only functions that may be equal)
            for op in group:
                kept = first.setdefault(_body_key(op), _name(op))
                if kept != _name(op):
                    duplicates.append((op, kept))
        if duplicates:
            _rename_uses(module, {_name(op): kept for op, kept in duplicates})
            for op, _ in duplicates:
                op.erase()
        return bool(duplicates)


# The ops that name a function, and the attribute that does: the calls and the addresses a
# parallel loop or a C wrapper takes.
SYMBOL_USES = {"func.call": "callee", "func.constant": "value", "llvm.call": "callee",
               "llvm.mlir.addressof": "global_name"}


def _rename_uses(module: ir.Operation, renames: dict[str, str]) -> None:
    """Every use of a function in `renames` names its new function instead: one walk of the
    module (SymbolTable.replace_all_symbol_uses walks it once per name, checking every
    attribute of every op: 0.9 ms a name on a 4,500-op module, 36 ms of a 5-layer
    attention chain's compile). A use this table misses fails verification loudly."""
    def visit(op):
        attribute = SYMBOL_USES.get(op.name)
        if attribute is not None and attribute in op.attributes:
            new = renames.get(ir.FlatSymbolRefAttr(op.attributes[attribute]).value)
            if new is not None:
                op.attributes[attribute] = ir.FlatSymbolRefAttr.get(new)
        return ir.WalkResult.ADVANCE
    module.walk(visit)
