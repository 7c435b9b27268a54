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
    """Graphviz: each public function's arguments, ops and results as nodes, each fusion
    call as a cluster of the fused ops, and the data flow as edges: from arguments and
    producers into the fused ops that read them, from the ops a fusion returns to the users
    of the call's results, and into the function's results."""
    functions = {ir.StringAttr(op.attributes["sym_name"]).value: op.operation
                 for op in module.body.operations if op.operation.name == "func.func"}
    lines = ["digraph mlc {", "  rankdir=TB; node [shape=box, fontname=monospace];"]
    counter = [0]

    def node(label: str, shape: str = "box") -> str:
        name = f"n{counter[0]}"
        counter[0] += 1
        lines.append(f'  {name} [label="{label}", shape={shape}];')
        return name

    def connect(sources: dict, value: ir.Value, target: str) -> None:
        source = sources.get(value)
        if source is not None:
            lines.append(f"  {source} -> {target};")

    for fn_name, fn in functions.items():
        if FUSION_KIND in fn.attributes or "sym_visibility" in fn.attributes or not len(fn.regions[0].blocks):
            continue
        block = fn.regions[0].blocks[0]
        lines.append(f'  subgraph cluster_fn_{fn_name} {{ label="@{fn_name}"; style=dashed;')
        sources: dict = {arg: node(f"arg{i}: {arg.type}", "ellipse") for i, arg in enumerate(block.arguments)}
        for op in [o.operation for o in block.operations]:
            callee = ir.FlatSymbolRefAttr(op.attributes["callee"]).value if op.name == "func.call" else None
            fused = functions.get(callee)
            if fused is not None and FUSION_KIND in fused.attributes:
                _fusion_cluster(fused, callee, op, sources, node, connect, lines)
            elif op.name == "func.return":
                for i, value in enumerate(op.operands):
                    connect(sources, value, node(f"result{i}: {value.type}", "ellipse"))
            else:
                target = node(f"call @{callee}" if callee else op.name.removeprefix("hlo."))
                for value in op.operands:
                    connect(sources, value, target)
                for result in op.results:
                    sources[result] = target
        lines.append("  }")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _fusion_cluster(fused, name, call, sources, node, connect, lines) -> None:
    """The ops of fusion `name` as one cluster; its block arguments are the call's operands
    and the call's results are what its return yields."""
    kind = ir.StringAttr(fused.attributes[FUSION_KIND]).value
    block = fused.regions[0].blocks[0]
    inner = dict(zip(block.arguments, [sources.get(v) for v in call.operands]))
    lines.append(f'  subgraph cluster_{name}_{len(lines)} {{ label="{name} ({kind})"; style=rounded;')
    for op in [o.operation for o in block.operations]:
        if op.name == "func.return":
            for result, value in zip(call.results, op.operands):
                sources[result] = inner.get(value)
            continue
        target = node(op.name.removeprefix("hlo."))
        for value in op.operands:
            connect(inner, value, target)
        for result in op.results:
            inner[result] = target
    lines.append("  }")
