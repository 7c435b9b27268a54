"""What hlo-fuse did, for people: a text report of each fusion and a Graphviz picture of
the function with one cluster per fusion (`mlc-opt --hlo-fuse --fusion-report`,
`--fusion-dot FILE`)."""

from __future__ import annotations

from mlir import ir

from ..dialects.hlo.types import byte_size
from .hlo_fuse import FUSION_KIND


def fusions(module: ir.Module) -> list[dict]:
    out = []
    for fn in module.body.operations:
        op = fn.operation
        if op.name != "func.func" or FUSION_KIND not in op.attributes:
            continue
        block = op.regions[0].blocks[0]
        ftype = ir.FunctionType(ir.TypeAttr(op.attributes["function_type"]).value)
        out.append({
            "name": ir.StringAttr(op.attributes["sym_name"]).value,
            "kind": ir.StringAttr(op.attributes[FUSION_KIND]).value,
            "ops": [o.operation.name for o in block.operations if o.operation.name != "func.return"],
            "inputs": [str(t) for t in ftype.inputs], "outputs": [str(t) for t in ftype.results],
            "bytes_read": sum(byte_size(t) for t in ftype.inputs),
            "bytes_written": sum(byte_size(t) for t in ftype.results),
        })
    return out


def report_text(module: ir.Module) -> str:
    lines = []
    for f in fusions(module):
        ops = ", ".join(o.removeprefix("hlo.") for o in f["ops"])
        lines.append(f"fusion {f['name']} kind={f['kind']} ops=[{ops}] inputs={len(f['inputs'])} "
                     f"outputs={len(f['outputs'])} bytes_read={f['bytes_read']} "
                     f"bytes_written={f['bytes_written']}")
    lines.append(f"fusions: {len(lines)}")
    return "\n".join(lines) + "\n"


def dot_graph(module: ir.Module) -> str:
    """Graphviz: every hlo op a node, every fusion a cluster, data flow as edges."""
    lines = ["digraph mlc {", "  rankdir=TB; node [shape=box, fontname=monospace];"]
    ids: dict = {}

    def node(op, label):
        ids[op] = f"n{len(ids)}"
        lines.append(f'  {ids[op]} [label="{label}"];')

    def edges(ops, arguments=()):
        for op in ops:
            for k, value in enumerate(op.operands):
                owner = value.owner
                src = ids.get(owner.operation if isinstance(owner, (ir.OpView, ir.Operation)) else None)
                if src:
                    lines.append(f"  {src} -> {ids[op]};")

    for fn in module.body.operations:
        op = fn.operation
        if op.name != "func.func" or not len(op.regions[0].blocks):
            continue
        name = ir.StringAttr(op.attributes["sym_name"]).value
        body = [o.operation for o in op.regions[0].blocks[0].operations if o.operation.name != "func.return"]
        if FUSION_KIND in op.attributes:
            kind = ir.StringAttr(op.attributes[FUSION_KIND]).value
            lines.append(f'  subgraph cluster_{name} {{ label="{name} ({kind})"; style=rounded;')
            for inner in body:
                node(inner, inner.name.removeprefix("hlo."))
            lines.append("  }")
        else:
            for inner in body:
                callee = inner.attributes["callee"] if inner.name == "func.call" else None
                node(inner, f"call {ir.FlatSymbolRefAttr(callee).value}" if callee else inner.name)
        edges(body)
    lines.append("}")
    return "\n".join(lines) + "\n"
