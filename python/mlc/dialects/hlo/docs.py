"""docs/dialect.md, generated from the op table so the reference never drifts from the code."""

from __future__ import annotations

from .ops import OPS

_INTRO = """# The `hlo` dialect

Generated from `python/mlc/dialects/hlo/ops.py` by `python tools/gen_dialect.py`; do not
edit by hand. The same table generates `dialects/hlo.irdl.mlir`.

`hlo.X` is StableHLO's `stablehlo.X` in generic form, with the same operand, result and
attribute names. StableHLO's dialect attributes are builtin ones: dimension lists are
`array<i64: ...>`, enums are strings, `hlo.constant`'s value is `dense<...>`. IRDL (LLVM 22)
has no regions with terminators and no heterogeneous variadic operands, so `hlo.reduce`
takes one input and one 0-d init value and names its combiner with `kind`; control flow is
upstream `scf.if`/`scf.while` over tensors and N-ary concatenation is `tensor.concat`.

Operands sharing a type letter must have identical types (IRDL checks this when parsing);
every other rule (shapes, element types, attribute values) is checked by `hlo-verify`,
which `hlo-to-linalg` runs first. All shapes are static. Integers are signless and treated
as signed; `i1` is a boolean.

| op | operands -> results | attributes | semantics |
|---|---|---|---|
"""


def _signature(op) -> str:
    ins = ", ".join(f"{n}: {v}" for n, v in op.operands)
    outs = ", ".join(f"{n}: {v}" for n, v in op.results)
    return f"({ins}) -> {outs}"


def _attributes(op) -> str:
    kinds = {"i64_array": "array<i64>", "string": "string", "integer": "i64",
             "elements": "dense elements", "bool": "bool"}
    parts = [f"`{n}`: {kinds[k]}" for n, k in op.attributes]
    parts += [f"`{n}`: {kinds[k]} (optional)" for n, k in op.optional_attributes]
    return ", ".join(parts) or "-"


def dialect_markdown() -> str:
    rows = [f"| `hlo.{op.name}` | `{_signature(op)}` | {_attributes(op)} | {op.summary} |"
            for op in OPS.values()]
    notes = """
## Details

- `hlo.compare`: `comparison_direction` is one of EQ, NE, GE, GT, LE, LT; `compare_type` is
  FLOAT, TOTALORDER, SIGNED or UNSIGNED and defaults to FLOAT for floats, UNSIGNED for i1
  and SIGNED for other integers. FLOAT comparisons are ordered except NE (true if either
  side is NaN); TOTALORDER is IEEE totalOrder (-NaN < -inf < -0 < +0 < inf < NaN).
- `hlo.convert`: float to narrower float rounds to nearest even; integer to float rounds to
  nearest; float to integer truncates toward zero, saturates at the integer's range and maps
  NaN to 0 (XLA's rule); integer narrowing wraps (keeps the low bits); i1 widens to 0/1 and
  anything converts to i1 as `x != 0`.
- `hlo.divide` on integers: x / 0 = -1 and INT_MIN / -1 = INT_MIN (XLA's rule), never a trap.
- `hlo.reduce`: `kind` and/or/xor need integer or i1 elements. On i1, add is `or`, mul is
  `and`, max is `or` and min is `and`. Float max/min propagate NaN.
- `hlo.dot_general`: the result element type may be wider than the operands' (e.g. i8
  operands, i32 result); products are accumulated in the result type.
"""
    return _INTRO + "\n".join(rows) + "\n" + notes
