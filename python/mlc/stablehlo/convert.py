"""StableHLO generic form -> hlo module.

The input is parsed by the upstream parser with unregistered dialects allowed; each
function is rebuilt op by op in the same context: ops named like an hlo op become that op
with StableHLO's dialect attributes rewritten as builtin ones (attributes.py), the others
go through a rule in registry.RULES (regions, control flow, calls, chlo). Private functions
are inlined at their calls. The result is checked by hlo's verifier."""

from __future__ import annotations

from mlir import ir
from mlir.dialects import func

from ..dialects.hlo import OPS, verify_hlo
from . import attributes as A
from .errors import StableHloError, error_at
from .registry import REJECTED, RULES
from .tuples import TUPLE_OPS, leaf_types, leaves, rebuild
from .types import check_type

# Attributes StableHLO ops carry that do not change the result on one CPU device.
IGNORED_ATTRIBUTES = ("precision_config", "result_accuracy", "algorithm", "mhlo.sharding",
                      "mhlo.frontend_attributes")
_PREFIXES = ("stablehlo.", "chlo.")


class Converter:
    """Rebuilds the source module's functions as hlo in `self.module` (same context)."""

    def __init__(self, source: ir.Module, source_name: str = "<input>"):
        self.source = source
        self.source_name = source_name
        self.values: dict = {}
        self.functions = {}
        body = source.body if isinstance(source, ir.Module) else source.regions[0].blocks[0]
        for op in body.operations:
            if op.operation.name == "func.func":
                self.functions[ir.StringAttr(op.attributes["sym_name"]).value] = op
        self.module = ir.Module.create(loc=ir.Location.unknown(source.context))
        self._inlining: list[str] = []

    def error(self, op, message: str) -> StableHloError:
        return error_at(op, message, self.source_name)

    def value(self, v: ir.Value) -> ir.Value:
        return self.values[v]

    def operands(self, op) -> list[ir.Value]:
        return [self.values[v] for v in op.operands]

    # -- functions and blocks ------------------------------------------------------------

    def convert_function(self, name: str) -> None:
        fop = self.functions[name]
        ftype = ir.FunctionType(ir.TypeAttr(fop.attributes["function_type"]).value)
        for i, t in enumerate(list(ftype.inputs) + list(ftype.results)):
            check_type(t, fop, self, f"@{name}'s signature")
        # Tuple parameters and results become their leaves (tuples.py).
        inputs = [leaf for t in ftype.inputs for leaf in leaf_types(t)]
        outputs = [leaf for t in ftype.results for leaf in leaf_types(t)]
        with ir.InsertionPoint(self.module.body), fop.location:
            new = func.FuncOp(name, (inputs, outputs))
            block = new.add_entry_block()
        flat = list(block.arguments)
        args = [rebuild(t, flat) for t in ftype.inputs]
        with ir.InsertionPoint(block):
            results = self.inline_region(fop.regions[0], args)
            with fop.location:
                func.ReturnOp([leaf for r in results for leaf in leaves(r)])

    def inline_region(self, region: ir.Region, args: list[ir.Value]) -> list[ir.Value]:
        """Converts the single block of `region` at the current insertion point, its
        arguments bound to `args`; returns the converted operands of its terminator."""
        if len(region.blocks) != 1:
            raise self.error(region.owner, "regions with more than one block are not supported")
        block = region.blocks[0]
        for arg, new in zip(block.arguments, args):
            self.values[arg] = new
        ops = [op.operation for op in block.operations]
        for op in ops[:-1]:
            self.convert_op(op)
        terminator = ops[-1]
        if terminator.name not in ("func.return", "stablehlo.return"):
            raise self.error(terminator, f"'{terminator.name}' cannot end a region here")
        return self.operands(terminator)

    def call(self, op, callee: str, args: list[ir.Value]) -> list[ir.Value]:
        """Inlines the function `callee` (MLC inlines: upstream `inline` skips hlo ops)."""
        fop = self.functions.get(callee)
        if fop is None or not len(fop.regions[0].blocks):
            raise self.error(op, f"call to @{callee}, which has no body in this module")
        if callee in self._inlining:
            raise self.error(op, f"recursive call to @{callee} cannot be inlined")
        self._inlining.append(callee)
        try:
            return self.inline_region(fop.regions[0], args)
        finally:
            self._inlining.pop()

    # -- ops -----------------------------------------------------------------------------

    def convert_op(self, op: ir.Operation) -> None:
        name = op.name
        if name in REJECTED:
            raise self.error(op, f"'{name}': {REJECTED[name]}")
        for v in list(op.results) + list(op.operands):
            check_type(v.type, op, self)
            if isinstance(v.type, ir.TupleType) and name not in TUPLE_OPS:
                raise self.error(op, f"'{name}' with tuple-typed operands or results is not "
                                     f"supported (tuples are flattened only through tuple, "
                                     f"get_tuple_element, calls and returns)")
        rule = RULES.get(name)
        with op.location:
            if rule is not None:
                results = rule(self, op)
            elif name.startswith("stablehlo.") and name.removeprefix("stablehlo.") in OPS:
                results = [self.same_name(op)]
            else:
                raise self.error(op, f"'{name}' is not supported by MLC's StableHLO import")
        if len(results) != len(op.results):
            raise AssertionError(f"rule for {name} gave {len(results)} results")
        for old, new in zip(op.results, results):
            self.values[old] = new

    def same_name(self, op, name: str | None = None, extra: dict | None = None,
                  operands: list | None = None) -> ir.Value:
        """`stablehlo.X` -> `hlo.X` with the attributes the hlo op declares, converted."""
        name = name or op.name.removeprefix("stablehlo.")
        opdef = OPS[name]
        attrs = hlo_attributes(op, opdef)
        attrs.update(extra or {})
        new = ir.Operation.create(f"hlo.{name}", results=[r.type for r in op.results][:1],
                                  operands=self.operands(op) if operands is None else operands,
                                  attributes=attrs)
        return new.result


def hlo_attributes(op, opdef) -> dict:
    """The attributes `opdef` declares, read from the StableHLO op and made builtin."""
    attrs = {}
    for attr_name, kind in opdef.attributes + opdef.optional_attributes:
        value = A.get(op, attr_name)
        if value is None:
            continue
        if kind == "string":
            value = ir.StringAttr.get(A.enum_value(value))
        elif kind == "i64_array" and not isinstance(value, ir.DenseI64ArrayAttr):
            value = A.i64_array(A.int_list(value))
        attrs[attr_name] = value
    return attrs


def convert_module(source, source_name: str = "<input>",
                   entries: list[str] | None = None) -> ir.Module:
    """The hlo module (in source's context) holding the public functions of `source` (an
    ir.Module or a builtin.module op; or its functions `entries`), callees inlined."""
    from .registry import load_rules
    load_rules()

    cv = Converter(source, source_name)
    names = entries or [n for n, f in cv.functions.items()
                        if "sym_visibility" not in f.attributes
                        or ir.StringAttr(f.attributes["sym_visibility"]).value == "public"]
    with source.context, ir.Location.unknown():
        for name in names:
            if name not in cv.functions:
                raise StableHloError(f"{source_name}: error: no function @{name} in the module "
                                     f"(functions: {', '.join(cv.functions) or 'none'})")
            cv.convert_function(name)
        errors = verify_hlo(cv.module.operation)
    if errors:
        loc, message = errors[0]
        raise error_at(loc, f"after import: {message}", source_name)
    return cv.module
